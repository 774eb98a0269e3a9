import Foundation

// MARK: - Request

/// What to load: a URL plus everything that shapes the transfer. A value type; a `Connection`
/// keeps the original and reports each redirected hop as a new `Request`.
///
/// A request is copied at every step from a queue's plan to the engine's transfer, and some
/// twenty of its fields are counted references (strings, the URL, the headers). So its copies
/// share one box of fields until one of them changes it (copy on write, as the standard
/// library's collections do): a copy costs one reference count, not twenty.
public struct Request: Sendable {
    private var box: Box

    public var url: URL {
        get { box.fields.url }
        _modify {
            makeUnique()
            yield &box.fields.url
        }
    }

    /// The HTTP method. `HEAD` sends no body back; a body with `GET` is sent as `POST`.
    public var method: String {
        get { box.fields.method }
        _modify {
            makeUnique()
            yield &box.fields.method
        }
    }

    public var headers: HTTPHeaders {
        get { box.fields.headers }
        _modify {
            makeUnique()
            yield &box.fields.headers
        }
    }

    public var body: RequestBody? {
        get { box.fields.body }
        _modify {
            makeUnique()
            yield &box.fields.body
        }
    }

    /// Seconds the load may spend connecting, or without receiving a byte, before it fails
    /// with `ConnectionError.Kind.timedOut`.
    public var timeoutInterval: TimeInterval {
        get { box.fields.timeoutInterval }
        _modify {
            makeUnique()
            yield &box.fields.timeoutInterval
        }
    }

    /// Seconds the load may spend connecting (DNS, TCP, TLS), when that differs from
    /// `timeoutInterval` (aria2's `connect-timeout`).
    public var connectTimeout: TimeInterval? {
        get { box.fields.connectTimeout }
        _modify {
            makeUnique()
            yield &box.fields.connectTimeout
        }
    }

    public var cachePolicy: CachePolicy {
        get { box.fields.cachePolicy }
        _modify {
            makeUnique()
            yield &box.fields.cachePolicy
        }
    }

    /// Asks for part of the resource (`Range: bytes=…`).
    public var byteRange: ByteRange? {
        get { box.fields.byteRange }
        _modify {
            makeUnique()
            yield &box.fields.byteRange
        }
    }

    /// Caps this transfer's receive speed in bytes per second; nil for no cap.
    public var maxReceiveSpeed: Int64? {
        get { box.fields.maxReceiveSpeed }
        _modify {
            makeUnique()
            yield &box.fields.maxReceiveSpeed
        }
    }

    /// A transfer slower than this (bytes a second) for `timeoutInterval` fails with `timedOut`;
    /// nil fails only a transfer that receives nothing at all for that long.
    public var lowestSpeed: Int64? {
        get { box.fields.lowestSpeed }
        _modify {
            makeUnique()
            yield &box.fields.lowestSpeed
        }
    }

    /// Sent with HTTP Basic authentication, and only to the origin of the URL that carries them:
    /// a redirect to another origin drops them.
    public var credentials: Credentials? {
        get { box.fields.credentials }
        _modify {
            makeUnique()
            yield &box.fields.credentials
        }
    }

    /// Sent to the proxy (Basic or Digest, as its 407 challenge asks).
    public var proxyCredentials: Credentials? {
        get { box.fields.proxyCredentials }
        _modify {
            makeUnique()
            yield &box.fields.proxyCredentials
        }
    }

    public var tls: TLSOptions {
        get { box.fields.tls }
        _modify {
            makeUnique()
            yield &box.fields.tls
        }
    }

    /// Which proxy each hop goes through; unset, libcurl reads `http_proxy`, `https_proxy`,
    /// `all_proxy` and `no_proxy` from the environment.
    public var proxies: Proxies {
        get { box.fields.proxies }
        _modify {
            makeUnique()
            yield &box.fields.proxies
        }
    }

    /// Ask for and decode compressed bodies (gzip, deflate, br where libcurl has them).
    public var acceptsEncodedContent: Bool {
        get { box.fields.acceptsEncodedContent }
        _modify {
            makeUnique()
            yield &box.fields.acceptsEncodedContent
        }
    }

    public var userAgent: String {
        get { box.fields.userAgent }
        _modify {
            makeUnique()
            yield &box.fields.userAgent
        }
    }

    /// Redirect hops followed before the load fails with `tooManyRedirects`.
    public var maxRedirects: Int {
        get { box.fields.maxRedirects }
        _modify {
            makeUnique()
            yield &box.fields.maxRedirects
        }
    }

    /// The load runs on a TCP connection of its own, never as a stream multiplexed onto
    /// another load's HTTP/2 connection: one of several connections of a split download, each
    /// of which a link may cap on its own. It speaks HTTP/1.1 (see the README's "One file over
    /// many connections" for why), and may reuse an idle connection, never a busy one.
    public var ownsConnection: Bool {
        get { box.fields.ownsConnection }
        _modify {
            makeUnique()
            yield &box.fields.ownsConnection
        }
    }

    /// The load goes over this Unix socket rather than TCP (a local daemon's); the URL still
    /// names the host and path the request asks for.
    public var unixSocketPath: String? {
        get { box.fields.unixSocketPath }
        _modify {
            makeUnique()
            yield &box.fields.unixSocketPath
        }
    }

    /// FTP in active mode: the server connects back to this machine (`EPRT`/`PORT`), for a
    /// server or firewall that refuses passive data connections.
    public var ftpActive: Bool {
        get { box.fields.ftpActive }
        _modify {
            makeUnique()
            yield &box.fields.ftpActive
        }
    }

    /// How an SFTP load logs in and knows the server.
    public var ssh: SSHOptions {
        get { box.fields.ssh }
        _modify {
            makeUnique()
            yield &box.fields.ssh
        }
    }

    /// The URL schemes a connection loads, and the only ones a redirect may lead to.
    public static let supportedSchemes: Set<String> = ["http", "https", "ftp", "ftps", "sftp"]

    public static let defaultUserAgent = "haul/0.1"

    public init(url: URL) {
        box = Box(Fields(url: url))
    }

    /// Gives this request a box of its own before one of its fields changes.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }

    /// The fields, each described at its accessor above.
    private struct Fields {
        var url: URL
        var method: String = "GET"
        var headers: HTTPHeaders = HTTPHeaders()
        var body: RequestBody?
        var timeoutInterval: TimeInterval = 60
        var connectTimeout: TimeInterval?
        var cachePolicy: CachePolicy = .useProtocolPolicy
        var byteRange: ByteRange?
        var maxReceiveSpeed: Int64?
        var lowestSpeed: Int64?
        var credentials: Credentials?
        var proxyCredentials: Credentials?
        var tls: TLSOptions = TLSOptions()
        var proxies: Proxies = Proxies()
        var acceptsEncodedContent: Bool = false
        var userAgent: String = Request.defaultUserAgent
        var maxRedirects: Int = 20
        var ownsConnection: Bool = false
        var unixSocketPath: String?
        var ftpActive: Bool = false
        var ssh: SSHOptions = SSHOptions()
    }

    /// The shared fields. Changed only after `makeUnique`, so only while one request holds the
    /// box: no other thread can see it then.
    private final class Box: Sendable {
        nonisolated(unsafe) var fields: Fields

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
    /// connection with `bodyStream` (contract rule 6). It is a provider on the request rather
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
    public init(verifyPeer: Bool = true, caFile: String? = nil) {
        self.verifyPeer = verifyPeer
        self.caFile = caFile
    }
}
