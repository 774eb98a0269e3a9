import Foundation
import HaulNet
import HaulText

// MARK: - Aria2ControlFile

/// The progress aria2 keeps beside a file it has not finished, `NAME.aria2` (the format is in
/// aria2's manual, "Technical Notes"): the file's length, its piece length, a bitfield of the
/// pieces written, and the 16 KiB blocks written of pieces still in flight. `haul get -c`
/// continues such a file from exactly the bytes aria2 says it wrote.
///
/// Layout: version (2 bytes; 1 is big-endian, 0 the writer's byte order, little-endian on the
/// machines haul runs on), extension flags (4), info-hash length (4) and hash, piece length
/// (4), total length (8), upload length (8), bitfield length (4) and bitfield (the first piece
/// in the high bit of the first byte), then the in-flight pieces: their count (4), and for each
/// its index (4), length (4), block-bitfield length (4) and block bitfield.
public struct Aria2ControlFile: Sendable, Equatable {
    /// The whole file's length.
    public let totalLength: Int64
    public let pieceLength: Int64
    /// The bytes aria2 recorded as written.
    public let completed: ByteRanges

    /// aria2's block within an in-flight piece.
    static let blockLength: Int64 = 16 << 10
    /// A control file is a header and bitfields (a terabyte in 1 MiB pieces takes 128 KiB); a
    /// longer one is not aria2's.
    static let longest = 16 << 20

    /// The suffix aria2 gives a control file.
    public static let suffix = ".aria2"

    /// Reads the control file at `path`: nil when there is none, an error naming the file when it
    /// is not one haul can read.
    ///
    /// - Parameter path: The control file's path (`NAME.aria2`); a link is not followed.
    /// - Returns: The parsed file, or nil when nothing is at `path`.
    /// - Throws: `OptionError` naming the file when it is not a regular file, is too long, cannot be
    ///   read, or does not parse.
    public static func read(at path: String) throws(OptionError) -> Aria2ControlFile? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size <= longest,
            let data = FileManager.default.contents(atPath: path)
        else {
            throw OptionError("\(TextSanitizer.visible(path)) is not an aria2 control file haul can read")
        }
        do {
            return try Aria2ControlFile(parsing: [UInt8](data))
        } catch {
            throw OptionError("\(TextSanitizer.visible(path)): \(error.description)")
        }
    }

    /// Parses a control file's bytes; the error says which field is wrong.
    ///
    /// - Parameter bytes: The whole control file.
    /// - Throws: `OptionError` naming the field that is cut short or out of range (the version, the
    ///   piece length, the bitfield's length…).
    public init(parsing bytes: [UInt8]) throws(OptionError) {
        var reader = Reader(bytes: bytes)
        let version = try reader.integer(2, "version", bigEndian: true)
        guard version == 0 || version == 1 else { throw OptionError("unknown control-file version \(version)") }
        reader.bigEndian = version == 1
        _ = try reader.integer(4, "extension")
        let hashLength = try reader.integer(4, "info hash length")
        guard hashLength == 0 else {
            throw OptionError("a BitTorrent download's control file (haul speaks no BitTorrent)")
        }
        let pieceLength = try reader.integer(4, "piece length")
        let total = try reader.integer(8, "total length")
        _ = try reader.integer(8, "upload length")
        guard pieceLength > 0, FileSize.checked(total) != nil else {
            throw OptionError("piece length \(pieceLength) and total length \(total) do not describe a file")
        }
        let pieces = total.dividedRoundingUp(by: pieceLength)
        let bitfieldLength = try reader.integer(4, "bitfield length")
        guard bitfieldLength == (pieces + 7) / 8 else {
            throw OptionError("a bitfield of \(bitfieldLength) bytes for \(pieces) pieces")
        }
        let bitfield = Array(try reader.bytes(Int(bitfieldLength), "bitfield"))
        var completed = ByteRanges()
        let piece = { (index: Int64) in index * pieceLength..<min((index + 1) * pieceLength, total) }
        for run in Aria2ControlFile.runs(of: bitfield, count: pieces) {
            completed.insert(piece(run.lowerBound).lowerBound..<piece(run.upperBound - 1).upperBound)
        }
        let inFlight = try reader.integer(4, "in-flight piece count")
        guard inFlight <= pieces else { throw OptionError("\(inFlight) pieces in flight of \(pieces)") }
        for _ in 0..<inFlight {
            let index = try reader.integer(4, "in-flight piece index")
            let length = try reader.integer(4, "in-flight piece length")
            guard index < pieces, length <= pieceLength else {
                throw OptionError("in-flight piece \(index) is not one")
            }
            let blocks = (length + Aria2ControlFile.blockLength - 1) / Aria2ControlFile.blockLength
            let blockBitfieldLength = try reader.integer(4, "block bitfield length")
            guard blockBitfieldLength <= (blocks + 7) / 8 else {
                throw OptionError("in-flight piece \(index) has too long a bitfield")
            }
            let blockBitfield = Array(try reader.bytes(Int(blockBitfieldLength), "block bitfield"))
            let start = piece(index).lowerBound
            let end = min(start + length, total)
            for run in Aria2ControlFile.runs(of: blockBitfield, count: blocks) {
                let lower = start + run.lowerBound * Aria2ControlFile.blockLength
                completed.insert(lower..<min(start + run.upperBound * Aria2ControlFile.blockLength, end))
            }
        }
        self.totalLength = total
        self.pieceLength = pieceLength
        self.completed = completed
    }

    /// The runs of set bits among the first `count` bits of `bitfield` (high bit first).
    private static func runs(of bitfield: [UInt8], count: Int64) -> [Range<Int64>] {
        var runs: [Range<Int64>] = []
        var start: Int64?
        let available = min(count, Int64(bitfield.count) * 8)
        for bit in 0..<available {
            let set = bitfield[Int(bit / 8)] & (0x80 >> UInt8(bit % 8)) != 0
            if set, start == nil { start = bit }
            if !set, let first = start {
                runs.append(first..<bit)
                start = nil
            }
        }
        if let first = start { runs.append(first..<available) }
        return runs
    }

    /// Reads fields in order, failing with the field's name when the bytes end first.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var bigEndian = true

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func bytes(_ count: Int, _ field: String) throws(OptionError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - offset >= count else {
                throw OptionError("the file ends inside its \(field)")
            }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func integer(_ width: Int, _ field: String, bigEndian forced: Bool? = nil) throws(OptionError) -> Int64
        {
            let slice = try bytes(width, field)
            let ordered = (forced ?? bigEndian) ? Array(slice) : slice.reversed()
            var value: UInt64 = 0
            for byte in ordered { value = value << 8 | UInt64(byte) }
            guard value <= UInt64(Int64.max) else { throw OptionError("its \(field) is too large") }
            return Int64(value)
        }
    }
}
