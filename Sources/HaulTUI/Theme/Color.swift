// MARK: - Color

/// A colour as a theme names it: the terminal's default, one of the 16 ANSI colours, an xterm
/// 256-colour index, or `#rrggbb`, which is mapped to the nearest colour the terminal has.
package enum Color: Equatable, Sendable {
    case terminalDefault
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// The 16 ANSI names, in index order, as themes spell them.
    package static let names = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue",
        "bright-magenta", "bright-cyan", "bright-white",
    ]

    /// Parses a name (`blue`, `bright-red`, `grey` for bright-black, `default`), an index 0-255
    /// given as text, or `#rrggbb`; nil when it is none of those.
    package init?(parsing text: String) {
        let lower = text.lowercased()
        if lower == "default" || lower == "none" {
            self = .terminalDefault
        } else if let index = Color.names.firstIndex(of: lower) {
            self = .indexed(UInt8(index))
        } else if lower == "grey" || lower == "gray" {
            self = .indexed(8)
        } else if let index = UInt8(lower) {
            self = .indexed(index)
        } else if lower.hasPrefix("#"), lower.count == 7, let value = UInt32(lower.dropFirst(), radix: 16) {
            self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        } else {
            return nil
        }
    }

    // MARK: - Mapping

    /// The colour index to use on a terminal with `available` colours (8, 16, 256…), or -1
    /// for the terminal's default.
    package func index(forTerminalColors available: Int) -> Int {
        switch self {
        case .terminalDefault:
            return -1
        case .indexed(let index):
            if Int(index) < available { return Int(index) }
            let (r, g, b) = Color.rgbValue(ofIndex: Int(index))
            return Color.nearest(r, g, b, among: min(available, 16))
        case .rgb(let r, let g, let b):
            return Color.nearest(Int(r), Int(g), Int(b), among: available >= 256 ? 256 : min(available, 16))
        }
    }

    /// The nearest of the first `count` xterm colours (squared distance in RGB).
    static func nearest(_ r: Int, _ g: Int, _ b: Int, among count: Int) -> Int {
        guard count > 0 else { return -1 }
        var best = 0, bestDistance = Int.max
        for index in 0..<count {
            let (cr, cg, cb) = rgbValue(ofIndex: index)
            let distance = (cr - r) * (cr - r) + (cg - g) * (cg - g) + (cb - b) * (cb - b)
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        return best
    }

    /// xterm's RGB for a colour index: 16 system colours, the 6×6×6 cube, 24 greys.
    static func rgbValue(ofIndex index: Int) -> (Int, Int, Int) {
        let system = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
            (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
            (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        if index < 16 { return system[max(index, 0)] }
        if index < 232 {
            let cube = index - 16
            let level = { (step: Int) in step == 0 ? 0 : 55 + step * 40 }
            return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
        }
        let grey = 8 + (index - 232) * 10
        return (grey, grey, grey)
    }
}
