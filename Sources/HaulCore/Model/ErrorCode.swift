import Foundation
import HaulNet

// MARK: - ErrorCode

/// Why a download failed, numbered as aria2 numbers it (its manual's "Exit Status"), so scripts
/// written for aria2c tell failures apart the same way: `haul get` exits with the code of the
/// last download that failed, and a download's `errorCode` in aria2's RPC is the same number.
public enum ErrorCode: Int32, Sendable, Equatable, CaseIterable {
    case unknown = 1
    case timedOut = 2
    case notFound = 3
    case network = 6
    /// Downloads were left unfinished when haul was stopped (SIGINT, SIGTERM).
    case unfinished = 7
    case diskFull = 9
    case fileExists = 13
    case renameFailed = 14
    case cannotCreateFile = 16
    case fileIO = 17
    case cannotCreateDirectory = 18
    case nameResolution = 19
    case metalinkParse = 20
    case badResponse = 22
    case tooManyRedirects = 23
    case authorization = 24
    /// A .torrent that is not bencoded, or a torrent whose files' names the gate refuses.
    case torrentParse = 26
    case magnetParse = 27
    /// A bad or unknown option, or an unexpected argument.
    case badOption = 28
    case serverOverloaded = 29
    case checksumMismatch = 32

    /// What the code says, for the manual's table.
    public var meaning: String {
        switch self {
        case .unknown: "another error (a TLS certificate not verified, a bad URL…)"
        case .timedOut: "the server did not answer in time"
        case .notFound: "the file was not found (404, 410, FTP 550)"
        case .network: "a network problem: the connection was refused, reset or lost"
        case .unfinished: "stopped with downloads unfinished (the same command continues)"
        case .diskFull: "not enough disk space (or a file-size limit)"
        case .fileExists: "the file already exists and auto-file-renaming=false"
        case .renameFailed: "the finished file could not be given its name"
        case .cannotCreateFile: "the partial file could not be created"
        case .fileIO: "writing or reading the file failed"
        case .cannotCreateDirectory: "the directory could not be created"
        case .nameResolution: "the host name could not be resolved"
        case .metalinkParse: "a Metalink document could not be read"
        case .badResponse: "the server's answer was bad or unexpected"
        case .tooManyRedirects: "too many redirects"
        case .authorization: "the login was refused or missing (401, 403, 407)"
        case .torrentParse: "a .torrent could not be read, or its files' names were refused"
        case .magnetParse: "a magnet link could not be read"
        case .badOption: "a bad option or argument (command line or config.toml)"
        case .serverOverloaded: "the server was overloaded or in maintenance (429, 503)"
        case .checksumMismatch: "the file's checksum did not match --checksum"
        }
    }

    /// The code in a word or two, for a queue row.
    public var shortText: String {
        switch self {
        case .unknown: "failed"
        case .timedOut: "timed out"
        case .notFound: "not found"
        case .network: "network error"
        case .unfinished: "stopped"
        case .diskFull: "disk full"
        case .fileExists: "file exists"
        case .renameFailed: "rename failed"
        case .cannotCreateFile, .fileIO: "file error"
        case .cannotCreateDirectory: "no directory"
        case .nameResolution: "unknown host"
        case .metalinkParse: "bad Metalink"
        case .badResponse: "bad answer"
        case .tooManyRedirects: "redirect loop"
        case .authorization: "login refused"
        case .torrentParse: "bad torrent"
        case .magnetParse: "bad magnet"
        case .badOption: "bad option"
        case .serverOverloaded: "server busy"
        case .checksumMismatch: "bad checksum"
        }
    }

    /// A failed attempt in a word or two, for a queue row: the status and its reason when the
    /// server answered (`404 Not Found`), `refused` when no connection was made, else the code's
    /// `shortText`.
    ///
    /// - Parameters:
    ///   - failure: What failed the attempt.
    ///   - reason: The response's reason phrase, when the server answered.
    /// - Returns: Such as `404 Not Found`, `refused` or `timed out`.
    public static func note(for failure: RetryPolicy.Failure, reason: String?) -> String {
        switch failure {
        case .status(let code, _):
            guard let reason, !reason.isEmpty else { return String(code) }
            return "\(code) \(TextSanitizer.visible(reason))"
        case .transport(.cannotConnect):
            return "refused"
        default:
            return ErrorCode(failure).shortText
        }
    }

    /// Every code and its meaning, one a line, for `--help` and the manual.
    public static var table: String {
        // Numbers right-aligned in two columns.
        let codes = ["0  every download completed"] + allCases.map { "\($0.rawValue)  \($0.meaning)" }
        return codes.map { ($0.hasPrefix("0 ") || $0.dropFirst().hasPrefix(" ") ? "   " : "  ") + $0 }
            .joined(separator: "\n")
    }

    /// The code for a failed attempt.
    ///
    /// - Parameter failure: What failed the attempt.
    public init(_ failure: RetryPolicy.Failure) {
        switch failure {
        case .status(let code, _): self.init(status: code)
        case .transport(let kind): self.init(kind)
        case .local(let code): self = code
        case .badPieces: self = .checksumMismatch
        }
    }

    /// The code for an HTTP (or FTP reply mapped to HTTP) status that failed a download.
    ///
    /// - Parameter status: The status code.
    public init(status: Int) {
        switch status {
        case 404, 410: self = .notFound
        case 401, 403, 407: self = .authorization
        case 408, 504: self = .timedOut
        case 429, 503: self = .serverOverloaded
        default: self = .badResponse
        }
    }

    /// The code for a transfer that failed with `kind`.
    ///
    /// - Parameter kind: The engine's kind of failure.
    public init(_ kind: ConnectionError.Kind) {
        switch kind {
        case .cannotResolveHost: self = .nameResolution
        case .timedOut: self = .timedOut
        case .cannotConnect, .connectionLost, .tlsHandshake, .transport: self = .network
        case .tooManyRedirects: self = .tooManyRedirects
        case .httpStatus(let code, _): self.init(status: code)
        case .badResponse, .redirectRefused: self = .badResponse
        case .remoteFileNotFound: self = .notFound
        case .accessDenied, .authenticationCancelled: self = .authorization
        case .fileWrite: self = .fileIO
        case .badURL, .unsupportedScheme, .tlsFailure, .sshHostKey, .bodyStream, .notInCache, .tooLarge: self = .unknown
        }
    }

    /// The code for a file-system failure with `errno`: a full disk (or quota) is told apart.
    ///
    /// - Parameters:
    ///   - errno: The failed operation's `errno`, or nil when unknown.
    ///   - otherwise: The code when it is not a full disk.
    public init(fileError errno: Int32?, otherwise: ErrorCode = .fileIO) {
        self = errno == ENOSPC || errno == EDQUOT || errno == EFBIG ? .diskFull : otherwise
    }
}
