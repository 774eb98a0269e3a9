import COpenSSL
import Foundation
import HaulText

// MARK: - Checksum

/// Computes a file's digest to compare with an `ExpectedChecksum`, with OpenSSL's EVP digests:
/// libcurl already loads libcrypto, and it has all six digests the queue format names
/// (swift-crypto has no SHA-224).
public enum Checksum {
    /// The lower-case hex digest of the file at `path`, read in 1 MiB pieces.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - algorithm: The digest to take.
    /// - Returns: The digest of the whole file, in lower-case hex.
    /// - Throws: `OptionError` when the file cannot be read or OpenSSL lacks the algorithm.
    public static func digest(
        ofFileAt path: String, algorithm: ExpectedChecksum.Algorithm
    ) throws(OptionError) -> String {
        let digests = try digests(ofFileAt: path, algorithm: algorithm, pieceLength: nil)
        return digests.first ?? ""
    }

    /// The lower-case hex digests of the file at `path` (of its bytes in `range`, when given)
    /// taken `pieceLength` bytes at a time (the last piece may be shorter), or of all of it when
    /// `pieceLength` is nil.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - algorithm: The digest to take.
    ///   - pieceLength: The length of each piece (a Metalink's piece hashes), or nil for one digest.
    ///   - range: The bytes to read, or nil for the whole file.
    /// - Returns: One lower-case hex digest per piece, in order.
    /// - Throws: `OptionError` when the file cannot be read or OpenSSL lacks the algorithm.
    public static func digests(
        ofFileAt path: String, algorithm: ExpectedChecksum.Algorithm, pieceLength: Int64?,
        range: Range<Int64>? = nil
    ) throws(OptionError) -> [String] {
        guard let digest = EVP_get_digestbyname(openSSLName(algorithm)), let context = EVP_MD_CTX_new() else {
            throw OptionError("OpenSSL has no \(algorithm.rawValue) digest")
        }
        defer { EVP_MD_CTX_free(context) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OptionError("cannot read '\(path)' to check its digest")
        }
        defer { try? handle.close() }
        var digests: [String] = []
        let chunkLimit = Int64(1 << 20)
        EVP_DigestInit_ex(context, digest, nil)
        var inPiece: Int64 = 0
        var left = range.map { Int64($0.count) } ?? Int64.max
        do {
            if let range { try handle.seek(toOffset: UInt64(range.lowerBound)) }
            while left > 0 {
                let room = min(pieceLength.map { min($0 - inPiece, chunkLimit) } ?? chunkLimit, left)
                guard let chunk = try handle.read(upToCount: Int(room)), !chunk.isEmpty else { break }
                chunk.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
                inPiece += Int64(chunk.count)
                left -= Int64(chunk.count)
                if let pieceLength, inPiece == pieceLength {
                    digests.append(finish(context))
                    EVP_DigestInit_ex(context, digest, nil)
                    inPiece = 0
                }
            }
        } catch {
            throw OptionError("cannot read '\(path)' to check its digest: \(error.localizedDescription)")
        }
        if pieceLength == nil || inPiece > 0 { digests.append(finish(context)) }
        return digests
    }

    private static func openSSLName(_ algorithm: ExpectedChecksum.Algorithm) -> String {
        switch algorithm {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// The digest so far as lower-case hex.
    private static func finish(_ context: OpaquePointer) -> String {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &output, &length)
        return HexDigits.lowercase(output.prefix(Int(length)))
    }
}
