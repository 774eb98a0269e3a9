import Foundation
import HaulText

// MARK: - ConnectionError

/// Why a load failed: a typed kind, the URL that failed, libcurl's code and message when
/// libcurl reported it, and advice a person can act on.
public struct ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case badURL
        case unsupportedScheme(String)
        case cannotResolveHost
        case cannotConnect
        case timedOut
        /// The server closed the connection or sent less than it announced.
        case connectionLost
        /// The server's certificate was refused.
        case tlsFailure
        /// The TLS handshake broke off before a certificate was checked: the server closed the
        /// connection, or does not speak TLS on that port.
        case tlsHandshake
        /// An SFTP server's host key is not the one known for it (`--ssh-known-hosts`,
        /// `--ssh-host-key-md`), or none is known.
        case sshHostKey
        case tooManyRedirects(limit: Int)
        /// A redirect to a scheme haul does not follow (only http, https, ftp, ftps and sftp).
        case redirectRefused(scheme: String)
        /// The server answered with an HTTP error status (used by `Fetcher`).
        case httpStatus(code: Int, reason: String)
        /// Writing a downloaded body to its file failed (errno in `systemError`).
        case fileWrite
        /// The request body's stream failed or could not be opened.
        case bodyStream
        /// The server asked for credentials and the delegate cancelled the challenge.
        case authenticationCancelled
        /// The cache policy forbids loading and no stored response answers the request.
        case notInCache
        /// A body kept in memory (a `Fetcher` load) would pass its limit of `limit` bytes.
        case tooLarge(limit: Int64)
        /// The server's response broke HTTP: headers too large, a reply that is not HTTP.
        case badResponse
        /// The server has no file at the URL's path (FTP 550, SFTP "no such file").
        case remoteFileNotFound
        /// The server refused the login or access to the file.
        case accessDenied
        /// Any other failure libcurl reported.
        case transport
    }

    public let kind: Kind
    public let url: URL?
    /// libcurl's CURLcode, when libcurl reported the failure.
    public let curlCode: Int?
    /// libcurl's own words (its error buffer, else curl_easy_strerror).
    public let curlMessage: String?
    /// errno, for failures of the file system.
    public let systemError: Int32?
    /// Extra detail: the file path, the refused Location, the stream's error.
    public let detail: String?
    /// Whether the server refused the request before answering it: the connection was refused,
    /// or libcurl's own tries of it (an HTTP/2 stream refused, a connection that died) ran out
    /// before a response head. Not a stream the server reset with an error of its own.
    public var isRefusal = false

    /// A failure of `kind` while loading `url`.
    ///
    /// - Parameters:
    ///   - kind: What failed, for the caller to choose what to do.
    ///   - url: The URL being loaded, or nil when there was none yet.
    ///   - curlCode: libcurl's `CURLcode`, when libcurl reported it.
    ///   - curlMessage: libcurl's own description of the failure.
    ///   - systemError: The `errno` of a failed file operation.
    ///   - detail: A path, a refused `Location` or a stream's error, for the message.
    public init(
        kind: Kind, url: URL?, curlCode: Int? = nil, curlMessage: String? = nil,
        systemError: Int32? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.url = url
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.systemError = systemError
        self.detail = detail
    }

    // MARK: - Words for people

    /// What went wrong, in one sentence.
    public var message: String {
        switch kind {
        case .badURL: "the URL is not valid"
        case .unsupportedScheme(let scheme): "the scheme '\(scheme)' is not supported"
        case .cannotResolveHost: "the host name could not be resolved"
        case .cannotConnect: "could not connect to the server"
        case .timedOut: "the server did not answer in time"
        case .connectionLost: "the connection was lost before the whole body arrived"
        case .tlsFailure: "the server's TLS certificate could not be verified"
        case .tlsHandshake: "the TLS handshake with the server failed"
        case .sshHostKey: "the SSH server's host key is not one known for it"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .redirectRefused(let scheme): "refused a redirect to a '\(scheme)' URL"
        case .httpStatus(let code, let reason): "the server answered \(code) \(reason)"
        case .fileWrite: "could not write the file"
        case .bodyStream: "the request body could not be read"
        case .authenticationCancelled: "the server asked for a user name and password, and none was given"
        case .notInCache: "no stored response answers this request, and its cache policy forbids loading"
        case .tooLarge(let limit): "the body is larger than the limit of \(limit) bytes"
        case .badResponse: "the server's response breaks its protocol"
        case .remoteFileNotFound: "the server has no such file"
        case .accessDenied: "the server refused the login or access to the file"
        case .transport: "the transfer failed"
        }
    }

    /// How `detail` begins for a transfer sent through a proxy.
    static let proxyDetail = "through the proxy"

    /// What the person can do about it.
    public var advice: String {
        switch kind {
        case .badURL, .unsupportedScheme: "check the URL; haul loads http, https, ftp, ftps and sftp URLs"
        case .cannotResolveHost: "check the host name and your DNS or network"
        case .cannotConnect:
            detail?.hasPrefix(Self.proxyDetail) == true
                ? "check that the proxy is up and its port is right, or reach the server without it (--no-proxy)"
                : "check that the server is up and the port is right"
        case .timedOut: "try again later, or raise the timeout"
        case .connectionLost: "retry; resuming continues from the bytes already received"
        case .tlsFailure:
            "pass the issuer with --ca-certificate, or turn checking off with --check-certificate=false "
                + "if you trust this server"
        case .sshHostKey:
            "if this is the right server, add its key to --ssh-known-hosts (default ~/.ssh/known_hosts; "
                + "ssh-keyscan -p PORT HOST prints it), or give its digest with --ssh-host-key-md=sha-256=…"
        case .tlsHandshake:
            "check that the server speaks TLS on this port (a plain one needs an http:// URL); "
                + "retry if it was only busy"
        case .tooManyRedirects: "the server may be redirecting in a loop"
        case .redirectRefused: "haul follows redirects to http, https, ftp, ftps and sftp only"
        case .httpStatus: "check the URL and your access to it"
        case .fileWrite: "check free space and permissions in the target directory"
        case .bodyStream: "check the source of the upload"
        case .authenticationCancelled: "give credentials (--http-user and --http-passwd, or a netrc entry for the host)"
        case .notInCache: "load it with a cache policy that allows loading"
        case .tooLarge: "raise the limit if you trust the source"
        case .badResponse: "the server is misbehaving; try again later or tell its operator"
        case .remoteFileNotFound: "check the path in the URL"
        case .accessDenied:
            "check the user name and password (in the URL, or a netrc entry) and your access to the file"
        case .transport: "retry; if it persists, check the network"
        }
    }

    public var description: String { text(namingURL: true) }

    /// What went wrong, why and what to do, without the URL: for a line that names the
    /// download already.
    public var descriptionWithoutURL: String { text(namingURL: false) }

    private func text(namingURL: Bool) -> String {
        // Joined once, so the text takes its own length in memory, not a growth buffer's: a
        // queue of 100,000 failures keeps 100,000 of them.
        var parts = [message]
        if let detail { parts.append(" (\(detail))") }
        if let systemError { parts.append(": \(String(cString: strerror(systemError)))") }
        if let curlMessage, !curlMessage.isEmpty { parts.append(": \(curlMessage)") }
        if namingURL, let url { parts.append(" [\(url.redactedString)]") }
        parts.append("; " + advice)
        return parts.joined()
    }
}
