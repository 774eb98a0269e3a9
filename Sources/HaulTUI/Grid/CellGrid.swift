// MARK: - Cell

/// One terminal cell: the character shown and the theme role that colours it. A wide character
/// fills its cell and marks the next one as its continuation.
package struct Cell: Equatable, Sendable {
    package var character: Character
    package var role: Role
    /// The right half of a wide character: drawn by the cell before it.
    package var isContinuation: Bool

    package static let blank = Cell(character: " ", role: .background, isContinuation: false)
}

// MARK: - CellGrid

/// A frame: `width` × `height` cells, drawn by views and shown by a `Terminal`. Text put into it
/// is measured in display columns and clipped, never wrapped.
package struct CellGrid: Equatable, Sendable {
    package let width: Int
    package let height: Int
    package private(set) var cells: [Cell]

    package init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    package subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    // MARK: - Drawing

    /// Writes `text` from column `x` of row `y` in `role`, up to column `limit` (exclusive;
    /// default the right edge); returns the column after the last one written. A wide character
    /// that would straddle the limit is left out.
    @discardableResult
    package mutating func put(_ text: String, x: Int, y: Int, role: Role, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return x }
        let end = min(limit ?? width, width)
        var column = x
        for character in text {
            let columns = DisplayWidth.of(character)
            if columns == 0 { continue }
            if column + columns > end { break }
            if column >= 0 {
                cells[y * width + column] = Cell(character: character, role: role, isContinuation: false)
                if columns == 2 {
                    cells[y * width + column + 1] = Cell(character: " ", role: role, isContinuation: true)
                }
            }
            column += columns
        }
        return column
    }

    /// Paints columns `x..<x+count` of row `y` with spaces in `role`.
    package mutating func fill(x: Int, y: Int, count: Int, role: Role) {
        guard y >= 0, y < height else { return }
        for column in max(x, 0)..<min(x + count, width) {
            cells[y * width + column] = Cell(character: " ", role: role, isContinuation: false)
        }
    }

    /// Recolours columns `x..<x+count` of row `y`, keeping the characters, and the cells of the
    /// roles in `keeping` as they are (a selected row keeps its progress bar).
    package mutating func recolor(x: Int, y: Int, count: Int, role: Role, keeping: Set<Role> = []) {
        guard y >= 0, y < height else { return }
        for column in max(x, 0)..<min(x + count, width) where !keeping.contains(cells[y * width + column].role) {
            cells[y * width + column].role = role
        }
    }

    // MARK: - Text

    /// Row `y` as text, as a terminal shows it (for snapshots).
    package func line(_ y: Int) -> String {
        var text = ""
        for x in 0..<width where !self[x, y].isContinuation { text.append(self[x, y].character) }
        return text
    }

    /// Every row as text, trailing spaces removed, one line each.
    package var text: String {
        (0..<height).map { y in
            var text = line(y)
            while text.last == " " { text.removeLast() }
            return text
        }.joined(separator: "\n")
    }
}
