// MARK: - ExpectedChecksum

/// A digest a download must match: `--checksum=TYPE=HEX` as aria2 writes it.
public struct ExpectedChecksum: Sendable, Equatable, CustomStringConvertible {
    public enum Algorithm: String, Sendable, CaseIterable {
        case md5, sha1 = "sha-1", sha224 = "sha-224", sha256 = "sha-256", sha384 = "sha-384", sha512 = "sha-512"

        /// Hex digits in a digest of this kind.
        public var hexLength: Int {
            switch self {
            case .md5: 32
            case .sha1: 40
            case .sha224: 56
            case .sha256: 64
            case .sha384: 96
            case .sha512: 128
            }
        }
    }

    public let algorithm: Algorithm
    /// Lower-case hex.
    public let hex: String

    /// Parses `TYPE=HEX`; the message of the error says what is wrong.
    ///
    /// - Parameter text: `--checksum`'s value, such as `sha-256=6b86b2…`.
    /// - Throws: `OptionError` when the form, the algorithm or the digest's length or digits are wrong.
    public init(parsing text: String) throws(OptionError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw OptionError("must be TYPE=HEX, e.g. sha-256=6b86b2…")
        }
        let algorithm = try Self.algorithm(named: parts[0])
        let hex = parts[1].lowercased()
        guard hex.count == algorithm.hexLength, hex.allSatisfy(\.isHexDigit) else {
            throw OptionError("a \(algorithm.rawValue) digest is \(algorithm.hexLength) hex digits")
        }
        self.algorithm = algorithm
        self.hex = hex
    }

    public var description: String { "\(algorithm.rawValue)=\(hex)" }

    /// The digest `name` names: aria2 writes `sha-256`; sha256sum's users write `sha256`; both
    /// name one algorithm.
    ///
    /// - Parameter name: An algorithm's name in any case: `sha-256`, `sha256`, `md5`…
    /// - Returns: The algorithm.
    /// - Throws: `OptionError` listing the names haul knows when `name` is none of them.
    public static func algorithm(named name: String) throws(OptionError) -> Algorithm {
        let lowered = name.lowercased()
        guard
            let algorithm = Algorithm.allCases.first(where: {
                $0.rawValue == lowered || $0.rawValue.replacing("-", with: "") == lowered
            })
        else {
            let known = Algorithm.allCases.map(\.rawValue).joined(separator: ", ")
            throw OptionError("unknown digest '\(TextSanitizer.visible(name))' (use one of \(known))")
        }
        return algorithm
    }

    /// The strongest of `checksums` (SHA-512 first, MD5 last), or nil when there is none.
    static func strongest(_ checksums: [ExpectedChecksum]) -> ExpectedChecksum? {
        let order = Algorithm.allCases
        return checksums.max { (order.firstIndex(of: $0.algorithm) ?? 0) < (order.firstIndex(of: $1.algorithm) ?? 0) }
    }

    /// A digest known to be well formed.
    init(algorithm: Algorithm, hex: String) {
        self.algorithm = algorithm
        self.hex = hex.lowercased()
    }
}
