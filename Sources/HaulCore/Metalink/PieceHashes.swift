import HaulNet
import HaulText

// MARK: - PieceHashes

/// The digest of each piece of a file (a Metalink's `<pieces>`), so a bad piece is found and
/// fetched again rather than the whole file failing its checksum. Kept as the option
/// `piece-hashes=TYPE:LENGTH:HEX,HEX,…`.
public struct PieceHashes: Sendable, Equatable, CustomStringConvertible {
    public let algorithm: ExpectedChecksum.Algorithm
    /// Bytes in each piece but the last.
    public let length: Int64
    /// Lower-case hex, one a piece, in order.
    public let hashes: [String]

    /// Piece hashes of `length`-byte pieces.
    ///
    /// - Parameters:
    ///   - algorithm: The digest of each piece.
    ///   - length: The length of every piece but the last, more than 0 and at most 8 PiB.
    ///   - hashes: One hex digest per piece, in order, in any case.
    /// - Throws: `OptionError` when the length is out of range, there are no hashes, or one is not
    ///   the algorithm's number of hex digits.
    public init(algorithm: ExpectedChecksum.Algorithm, length: Int64, hashes: [String]) throws(OptionError) {
        guard length > 0, length <= FileSize.largest else {
            throw OptionError("a piece length is more than 0 and at most \(FileSize.largest) bytes, not \(length)")
        }
        guard !hashes.isEmpty else { throw OptionError("there are no piece hashes") }
        let lowered = hashes.map { $0.lowercased() }
        guard lowered.allSatisfy({ $0.count == algorithm.hexLength && $0.allSatisfy(\.isHexDigit) }) else {
            throw OptionError("a \(algorithm.rawValue) piece hash is \(algorithm.hexLength) hex digits")
        }
        self.algorithm = algorithm
        self.length = length
        self.hashes = lowered
    }

    /// Reads `TYPE:LENGTH:HEX,HEX,…`.
    ///
    /// - Parameter text: Such as `sha-256:1048576:6b86…,d4735e…`.
    /// - Throws: `OptionError` saying which part is wrong.
    public init(parsing text: String) throws(OptionError) {
        let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, let length = Int64(parts[1]) else {
            throw OptionError("piece hashes are written TYPE:LENGTH:HEX,HEX,…")
        }
        let algorithm = try ExpectedChecksum.algorithm(named: parts[0])
        try self.init(algorithm: algorithm, length: length, hashes: parts[2].split(separator: ",").map(String.init))
    }

    public var description: String {
        "\(algorithm.rawValue):\(length):\(hashes.joined(separator: ","))"
    }

    /// Whether these pieces fit a file of `total` bytes: as many as it takes to cover it.
    ///
    /// - Parameter total: The file's length.
    /// - Returns: True when there is exactly one hash for each piece of such a file.
    public func fit(_ total: Int64) -> Bool {
        FileSize.checked(total) != nil && total > 0 && Int64(hashes.count) == total.dividedRoundingUp(by: length)
    }

    /// The byte ranges of the pieces of the file at `path` (of `total` bytes) whose digest is
    /// not theirs, among those wholly inside `within` (all when nil): empty when they are good.
    func badPieces(
        ofFileAt path: String, total: Int64, within: Range<Int64>? = nil
    ) throws(OptionError) -> [Range<Int64>] {
        let span = within ?? 0..<total
        guard fit(total), span.lowerBound >= 0, span.upperBound <= total else { return [] }
        let first = Int(span.lowerBound.dividedRoundingUp(by: length))
        // A piece ends at a multiple of the length, or at the end of the file.
        let last = span.upperBound >= total ? hashes.count : Int(span.upperBound / length)
        guard first < last, last <= hashes.count else { return [] }
        let start = Int64(first) * length
        let actual = try Checksum.digests(
            ofFileAt: path, algorithm: algorithm, pieceLength: length,
            range: start..<min(Int64(last) * length, total))
        return (first..<last).compactMap { index in
            guard index - first >= actual.count || actual[index - first] != hashes[index] else { return nil }
            let pieceStart = Int64(index) * length
            return pieceStart..<min(pieceStart + length, total)
        }
    }
}
