import Foundation

// MARK: - Request

/// What to load: a URL plus everything that shapes the transfer (its `Fields`, read and set as
/// the request's own properties: `request.url`, `request.headers`). A value type; a
/// `Connection` keeps the original and reports each redirected hop as a new `Request`.
///
/// A request is copied at every step from a queue's plan to the engine's transfer, and some
/// twenty of its fields are counted references (strings, the URL, the headers). So its fields
/// are kept in a box that never changes, which its copies share: a copy costs one reference
/// count, not twenty. Changing a field gives the request a new box; a request made with many
/// fields set is built as its `Fields` and boxed once (`init(_:)`).
@dynamicMemberLookup
public struct Request: Sendable {
    @usableFromInline var box: Box

    /// A GET of `url` with every other field at its default.
    ///
    /// - Parameter url: What to load.
    public init(url: URL) {
        box = Box(Fields(url: url))
    }

    /// A request with `fields`, boxed once (for a request built with many fields set).
    ///
    /// - Parameter fields: Every field of the request.
    public init(_ fields: Fields) {
        box = Box(fields)
    }

    /// The fields, to build a changed request from.
    public var fields: Fields { box.fields }

    /// Changes several fields at once, in one new box.
    ///
    /// - Parameter change: Sets the fields; runs once, at once.
    @inlinable
    public mutating func modify(_ change: (inout Fields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    /// A field, read from the shared box; set in a new box.
    ///
    /// - Parameter field: The field's key path in `Fields`.
    /// - Returns: The field's value.
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        set { modify { $0[keyPath: field] = newValue } }
    }

    /// The URL schemes a connection loads, and the only ones a redirect may lead to.
    public static let supportedSchemes: Set<String> = ["http", "https", "ftp", "ftps", "sftp"]

    public static let defaultUserAgent = "haul/0.1"

    /// What a request holds.
    public struct Fields: Sendable {
        public var url: URL
        /// The HTTP method. `HEAD` sends no body back; a body with `GET` is sent as `POST`.
        public var method: String = "GET"
        public var headers: HTTPHeaders = HTTPHeaders()
        public var body: RequestBody?
        /// Seconds the load may spend connecting, or without receiving a byte, before it fails
        /// with `ConnectionError.Kind.timedOut`.
        public var timeoutInterval: TimeInterval = 60
        /// Seconds the load may spend connecting (DNS, TCP, TLS), when that differs from
        /// `timeoutInterval` (aria2's `connect-timeout`).
        public var connectTimeout: TimeInterval?
        public var cachePolicy: CachePolicy = .useProtocolPolicy
        /// Asks for part of the resource (`Range: bytes=…`).
        public var byteRange: ByteRange?
        /// Caps this transfer's receive speed in bytes per second; nil for no cap.
        public var maxReceiveSpeed: Int64?
        /// A transfer slower than this (bytes a second) for `timeoutInterval` fails with `timedOut`;
        /// nil fails only a transfer that receives nothing at all for that long.
        public var lowestSpeed: Int64?
        /// Sent with HTTP Basic authentication, and only to the origin of the URL that carries them:
        /// a redirect to another origin drops them.
        public var credentials: Credentials?
        /// Sent to the proxy (Basic or Digest, as its 407 challenge asks).
        public var proxyCredentials: Credentials?
        public var tls: TLSOptions = TLSOptions()
        /// Which proxy each hop goes through; unset, libcurl reads `http_proxy`, `https_proxy`,
        /// `all_proxy` and `no_proxy` from the environment.
        public var proxies = Proxies()
        /// Ask for and decode compressed bodies (gzip, deflate, br where libcurl has them).
        public var acceptsEncodedContent = false
        public var userAgent: String = Request.defaultUserAgent
        /// Redirect hops followed before the load fails with `tooManyRedirects`.
        public var maxRedirects = 20
        /// The load runs on a TCP connection of its own, never as a stream multiplexed onto
        /// another load's HTTP/2 connection: one of several connections of a split download, each
        /// of which a link may cap on its own. It speaks HTTP/1.1 (see the README's "One file over
        /// many connections" for why), and may reuse an idle connection, never a busy one.
        public var ownsConnection = false
        /// The load goes over this Unix socket rather than TCP (a local daemon's); the URL still
        /// names the host and path the request asks for.
        public var unixSocketPath: String?
        /// FTP in active mode: the server connects back to this machine (`EPRT`/`PORT`), for a
        /// server or firewall that refuses passive data connections.
        public var ftpActive = false
        /// How an SFTP load logs in and knows the server.
        public var ssh = SSHOptions()

        /// A GET of `url` with every other field at its default.
        ///
        /// - Parameter url: What to load.
        public init(url: URL) {
            self.url = url
        }
    }

    /// The fields copies of a request share.
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let fields: Fields

        @usableFromInline
        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

// MARK: - Parts of a request

/// A request body: bytes in memory, or a stream opened anew each time the body must be sent.
public enum RequestBody: Sendable {
    case bytes([UInt8])
    /// `length` nil sends the body chunked. `open` is called on the engine thread each time the
    /// body is sent: first, after a 307 or 308, and when libcurl must send it again on the same
    /// hop (an authentication retry). It must return a fresh, unread stream; nil fails the
    /// connection with `bodyStream` (docs/connection-contract.md, rule 6). It is a provider on the request rather
    /// than a delegate message because libcurl asks for the rewind inside a callback on the
    /// engine thread, which must not wait for the delegate queue.
    case stream(length: Int64?, open: @Sendable () -> (any RequestBodyStream)?)

    /// The body's length in bytes, when known.
    public var length: Int64? {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .stream(let length, _): length
        }
    }
}

/// A source of request-body bytes, read on the engine thread.
public protocol RequestBodyStream: AnyObject {
    /// Fills `buffer` with up to its count of bytes and returns how many it wrote; 0 at the end.
    ///
    /// - Parameter buffer: Where to put the bytes; never empty.
    /// - Returns: How many bytes were written into `buffer`, or 0 when the body has ended.
    /// - Throws: Any error: the upload is aborted and the load fails with `.bodyStream`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Which stored response, if any, may answer a request.
public enum CachePolicy: Sendable, Equatable {
    /// Follow the response's own cache headers.
    case useProtocolPolicy
    /// Always load from the origin, asking intermediaries not to answer from their caches.
    case reloadIgnoringCache
    /// Use a stored response whatever its age; load only when none is stored.
    case returnCacheDataElseLoad
    /// Use a stored response; never load.
    case returnCacheDataDontLoad
}

/// A byte range of a resource: `lowerBound...upperBound`, or from `lowerBound` to the end.
public struct ByteRange: Sendable, Equatable {
    public var lowerBound: Int64
    public var upperBound: Int64?
    /// The bytes from `lowerBound` through `upperBound` (inclusive), or to the end when it is nil.
    ///
    /// - Parameters:
    ///   - lowerBound: The first byte's offset.
    ///   - upperBound: The last byte's offset, or nil for the end of the resource.
    public init(from lowerBound: Int64, through upperBound: Int64? = nil) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }
    /// The value libcurl's CURLOPT_RANGE takes, e.g. `100-199` or `100-`.
    var curlValue: String { "\(lowerBound)-\(upperBound.map(String.init) ?? "")" }
}

/// A user name and password for HTTP authentication.
public struct Credentials: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String
    /// A login of `user` with `password`.
    ///
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password; kept out of `description`.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
    /// Never shows the password.
    public var description: String { "\(user):***" }
}

/// How TLS peers are checked. Verification is on unless turned off.
public struct TLSOptions: Sendable, Equatable {
    public var verifyPeer = true
    /// A PEM file of certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// TLS checks, on by default.
    ///
    /// - Parameters:
    ///   - verifyPeer: Whether the peer's certificate and name are verified (`--insecure` turns it off).
    ///   - caFile: A PEM file of certificate authorities to trust instead of the system's.
    public init(verifyPeer: Bool = true, caFile: String? = nil) {
        self.verifyPeer = verifyPeer
        self.caFile = caFile
    }
}
