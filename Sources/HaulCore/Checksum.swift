import COpenSSL
import Foundation

// MARK: - Checksum

/// Computes a file's digest to compare with an `ExpectedChecksum`, with OpenSSL's EVP digests:
/// libcurl already loads libcrypto, and it has all six digests the queue format names
/// (swift-crypto has no SHA-224).
public enum Checksum {
    /// The lower-case hex digest of the file at `path`, read in 1 MiB pieces.
    public static func digest(
        ofFileAt path: String, algorithm: ExpectedChecksum.Algorithm
    ) throws(OptionError) -> String {
        let name =
            switch algorithm {
            case .md5: "MD5"
            case .sha1: "SHA1"
            case .sha224: "SHA224"
            case .sha256: "SHA256"
            case .sha384: "SHA384"
            case .sha512: "SHA512"
            }
        guard let digest = EVP_get_digestbyname(name), let context = EVP_MD_CTX_new() else {
            throw OptionError("OpenSSL has no \(algorithm.rawValue) digest")
        }
        defer { EVP_MD_CTX_free(context) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OptionError("cannot read '\(path)' to check its digest")
        }
        defer { try? handle.close() }
        EVP_DigestInit_ex(context, digest, nil)
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            }
        } catch {
            throw OptionError("cannot read '\(path)' to check its digest: \(error.localizedDescription)")
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &output, &length)
        let hexDigits = Array("0123456789abcdef")
        return String(output.prefix(Int(length)).flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0xF)]] })
    }
}
