import Foundation
import HaulText

// MARK: - Origin

/// Where a URL's connections go: its scheme, host and port, compared as a browser compares
/// origins (RFC 6454): scheme and host without regard to case, and a port the scheme implies the
/// same as none. `https://h/`, `https://h:443/` and `HTTPS://H` are one origin. The one place a
/// host is normalised: the queue's per-host count, the stream pool, redirects (which keep
/// credentials within an origin) and the notification listener all ask it.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// Lowercase; empty for text with no `scheme://`.
    public let scheme: String
    /// Lowercase, without a login; an IPv6 address in brackets.
    public let host: String
    /// The port, nil when it is the scheme's own (or none was given).
    public let port: Int?

    /// The origin of `url`, nil when it has no host.
    ///
    /// - Parameter url: An absolute URL.
    public init?(_ url: URL) {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let scheme = url.scheme?.lowercased() ?? ""
        self.init(scheme: scheme, host: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host, port: url.port)
    }

    /// The origin of `uri` read as text, without parsing a URL (the queue asks it of every
    /// download it admits): the scheme, and the authority after any login, ASCII folded to
    /// lowercase. Text with no `scheme://` is a host of its own, whole.
    ///
    /// - Parameter uri: A URI as a queue file or a client wrote it.
    public init(uri: String) {
        let (scheme, host, port) = uri.withUTF8Bytes { bytes -> (String, String, Int?) in
            let (schemeEnd, authority) = URIText.authority(inBytes: bytes)
            guard let schemeEnd else { return ("", Origin.folded(bytes[...]), nil) }
            let loginEnd = bytes[authority].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authority.lowerBound
            var hostEnd = authority.upperBound
            var port: Int?
            // A port is digits after the last colon, past any IPv6 address's closing bracket.
            if let colon = bytes[loginEnd..<authority.upperBound].lastIndex(of: UInt8(ascii: ":")),
                !bytes[colon..<authority.upperBound].contains(UInt8(ascii: "]"))
            {
                hostEnd = colon
                port = Origin.number(bytes[(colon + 1)..<authority.upperBound])
            }
            return (Origin.folded(bytes[..<(schemeEnd - 3)]), Origin.folded(bytes[loginEnd..<hostEnd]), port)
        }
        self.init(scheme: scheme, host: host, port: port)
    }

    private init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port == Origin.defaultPort(of: scheme) ? nil : port
    }

    /// The port connections go to: the one given, else the scheme's own.
    public var effectivePort: Int? { port ?? Origin.defaultPort(of: scheme) }

    /// `scheme://host`, with `:port` when it is not the scheme's own; the host alone for text
    /// with no scheme.
    public var description: String {
        scheme.isEmpty ? host : "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    /// The port a scheme implies, nil for one haul does not know.
    ///
    /// - Parameter scheme: A lowercase scheme.
    /// - Returns: 80, 443, 21, 990 or 22 for http(s), ws(s), ftp(s) and sftp.
    public static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        case "ftp": 21
        case "ftps": 990
        case "sftp": 22
        default: nil
        }
    }

    /// `bytes` as a string, ASCII capitals made lowercase.
    private static func folded(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset] = ASCIIText.folded(byte)
            }
            return bytes.count
        }
    }

    /// The decimal number `bytes` spell, nil when they are not digits or name no port.
    private static func number(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 5 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= 65_535 ? value : nil
    }
}
