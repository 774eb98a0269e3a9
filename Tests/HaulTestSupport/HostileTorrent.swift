import Foundation

// MARK: - HostileTorrent

/// .torrent files as a hostile tracker site would make them, bencoded by hand (libtorrent's own
/// tools refuse to make them): paths that climb out (`..`), hidden names (`.ssh`), many files,
/// pieces too long. The pieces' hashes are zeros: these torrents are read, never downloaded.
public enum HostileTorrent {
    /// A value of bencoding.
    public indirect enum Value {
        case int(Int)
        case bytes([UInt8])
        case list([Value])
        case dict([(String, Value)])

        public static func text(_ string: String) -> Value { .bytes(Array(string.utf8)) }

        /// The value bencoded (a dictionary's keys sorted, as BEP 3 asks).
        public var encoded: [UInt8] {
            switch self {
            case .int(let number): Array("i\(number)e".utf8)
            case .bytes(let bytes): Array("\(bytes.count):".utf8) + bytes
            case .list(let items): [UInt8(ascii: "l")] + items.flatMap(\.encoded) + [UInt8(ascii: "e")]
            case .dict(let pairs):
                [UInt8(ascii: "d")]
                    + pairs.sorted { $0.0 < $1.0 }.flatMap { Value.text($0.0).encoded + $0.1.encoded }
                    + [UInt8(ascii: "e")]
            }
        }
    }

    /// A multi-file torrent named `name` of `files` (each a path's parts and a length), with
    /// pieces of `pieceLength`.
    public static func make(name: String, files: [([String], Int)], pieceLength: Int = 16384) -> [UInt8] {
        let total = files.reduce(0) { $0 + $1.1 }
        let pieces = max(1, (total + pieceLength - 1) / pieceLength)
        let info: Value = .dict([
            ("name", .text(name)), ("piece length", .int(pieceLength)),
            ("pieces", .bytes([UInt8](repeating: 0, count: 20 * pieces))),
            (
                "files",
                .list(
                    files.map { path, length in
                        .dict([("length", .int(length)), ("path", .list(path.map(Value.text)))])
                    })
            ),
        ])
        return Value.dict([("info", info)]).encoded
    }

    /// A single-file torrent named `name`, of `length` bytes.
    public static func single(name: String, length: Int, pieceLength: Int = 16384) -> [UInt8] {
        let pieces = max(1, (length + pieceLength - 1) / pieceLength)
        let info: Value = .dict([
            ("name", .text(name)), ("length", .int(length)), ("piece length", .int(pieceLength)),
            ("pieces", .bytes([UInt8](repeating: 0, count: 20 * pieces))),
        ])
        return Value.dict([("info", info)]).encoded
    }
}
