import Foundation
import HaulCore
import HaulText

// MARK: - ScreenRenderer

/// Draws a whole frame from the state: header, column titles, queue rows, the detail pane,
/// the message line and the function bar; or the help screen; or, below 40×12, a note that the
/// terminal is too small. Only the rows on screen are drawn, so a frame costs the same for 10
/// downloads or 100,000.
package enum ScreenRenderer {
    package static let minimumWidth = 40
    package static let minimumHeight = 12

    package static func render(_ state: AppState) -> CellGrid {
        var grid = CellGrid(width: state.width, height: state.height)
        guard state.width >= minimumWidth, state.height >= minimumHeight else {
            let note =
                "terminal too small: \(state.width)×\(state.height), "
                + "haul needs \(minimumWidth)×\(minimumHeight)"
            for (index, line) in wrap(note, width: max(state.width, 1)).enumerated() where index < state.height {
                grid.put(line, x: 0, y: index, role: .error)
            }
            return grid
        }
        if state.mode == .help {
            HelpView.draw(state, into: &grid)
            return grid
        }
        HeaderView.draw(state, into: &grid)
        QueueListView.draw(state, into: &grid)
        if state.showDetail {
            DetailView.draw(state, into: &grid, top: state.detailTop)
        }
        BottomBarView.draw(state, into: &grid)
        return grid
    }

    /// `text` cut into lines of at most `width` columns, at spaces where it can; a word longer
    /// than a line is broken across lines, never cut short. The command line's help wraps with it
    /// too.
    package static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.of(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            var rest = String(word)
            while DisplayWidth.of(rest) > width, width > 0 {
                let piece = DisplayWidth.prefix(rest, width: width)
                guard !piece.isEmpty else { break }
                lines.append(piece)
                rest.removeFirst(piece.count)
            }
            current = rest
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    // MARK: - Formatting

    /// `12.3 MiB/s`.
    static func speed(_ bytesPerSecond: Double) -> String {
        ByteCount.format(Int64(saturating: bytesPerSecond)) + "/s"
    }

    /// `1:02:03` or `2:03`; empty when it cannot be known.
    static func eta(_ download: Download, speed: Double) -> String {
        guard download.state == .active, download.totalBytes > 0, speed > 1 else { return "" }
        return duration(Double(max(download.totalBytes - download.bytesDone, 0)) / speed)
    }

    /// `1:02:03`, `2:03`, or `∞` from 100 hours on.
    static func duration(_ interval: Double) -> String {
        let seconds = Int(saturating: interval)
        if seconds >= 360_000 { return "∞" }
        return seconds >= 3600
            ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}
