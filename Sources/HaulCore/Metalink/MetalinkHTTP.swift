import Foundation
import HaulNet

// MARK: - MetalinkHTTP

/// Metalink/HTTP (RFC 6249): a server names mirrors of the file in `Link: <URI>; rel=duplicate`
/// headers (with `pri`, lower first) and its digest in `Digest: SHA-256=BASE64` (RFC 3230,
/// RFC 5843). A download whose first answer carries them takes the mirrors (for its split and its
/// retries) and, when it has no checksum of its own, the digest. Pure: headers in, values out.
public enum MetalinkHTTP {
    /// The most mirrors taken from one answer.
    static let mirrorLimit = 16

    /// Takes the mirrors and the digest `response` names into `download`: mirrors it does not
    /// have yet (http, https, ftp and ftps only), and the digest when it has no checksum.
    static func adopt(_ response: Response, into download: inout Download) {
        let links = response.headers.values(for: "Link")
        if !links.isEmpty {
            let known = Set(download.uris)
            download.uris.append(contentsOf: duplicates(in: links).filter { !known.contains($0) }.prefix(mirrorLimit))
        }
        if download.options.checksum == nil, let digest = digest(in: response.headers.values(for: "Digest")) {
            download.options.checksum = digest
        }
    }

    /// The URIs of `rel=duplicate` links in `values` (Link header values), by `pri`, then in
    /// the order given.
    static func duplicates(in values: [String]) -> [String] {
        var found: [(uri: String, priority: Int, order: Int)] = []
        for link in values.flatMap(splitLinks) {
            guard link.hasPrefix("<"), let close = link.firstIndex(of: ">") else { continue }
            let uri = String(link[link.index(after: link.startIndex)..<close])
            var parameters: [String: String] = [:]
            for parameter in link[link.index(after: close)...].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
                if pair.count == 2 { parameters[pair[0].lowercased()] = pair[1] }
            }
            let relations = (parameters["rel"] ?? "").lowercased().split(separator: " ")
            guard relations.contains("duplicate"), isMirror(uri) else { continue }
            found.append((uri, parameters["pri"].flatMap(Int.init) ?? 999_999, found.count))
        }
        return found.sorted { ($0.priority, $0.order) < ($1.priority, $1.order) }.map(\.uri)
    }

    /// The strongest digest in `values` (Digest header values) haul knows: `SHA-512`, `SHA-384`,
    /// `SHA-256`, `SHA` (SHA-1) or `MD5`, each base64.
    ///
    /// - Parameter values: The response's `Digest` header values (`SHA-256=base64`, comma-separated).
    /// - Returns: The strongest known digest as a checksum to verify, or nil when none is usable.
    public static func digest(in values: [String]) -> ExpectedChecksum? {
        let names: [String: ExpectedChecksum.Algorithm] = [
            "md5": .md5, "sha": .sha1, "sha-256": .sha256, "sha-384": .sha384, "sha-512": .sha512,
        ]
        let digests = values.flatMap { $0.split(separator: ",") }.compactMap { item -> ExpectedChecksum? in
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let algorithm = names[pair[0].lowercased()],
                let bytes = Data(base64Encoded: pair[1]),
                bytes.count * 2 == algorithm.hexLength
            else { return nil }
            return ExpectedChecksum(algorithm: algorithm, hex: bytes.map { String(format: "%02x", $0) }.joined())
        }
        return ExpectedChecksum.strongest(digests)
    }

    /// A link header value split at the commas between links (not those inside `<…>` or quotes).
    private static func splitLinks(_ value: String) -> [String] {
        var links: [String] = []
        var current = ""
        var inURI = false
        var inQuotes = false
        for character in value {
            switch character {
            case "<" where !inQuotes: inURI = true
            case ">" where !inQuotes: inURI = false
            case "\"" where !inURI: inQuotes.toggle()
            case "," where !inURI && !inQuotes:
                links.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        links.append(current.trimmingCharacters(in: .whitespaces))
        return links.filter { !$0.isEmpty }
    }

    /// Whether a server may name `uri` as a mirror: a URI haul loads over http, https, ftp or
    /// ftps (never a file here, nor an SFTP login).
    private static func isMirror(_ uri: String) -> Bool {
        guard QueueEntry.uriProblem(uri) == nil, let scheme = URL(string: uri)?.scheme?.lowercased() else {
            return false
        }
        return ["http", "https", "ftp", "ftps"].contains(scheme)
    }
}
