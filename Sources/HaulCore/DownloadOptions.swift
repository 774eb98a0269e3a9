import Foundation
import HaulNet

// MARK: - DownloadOptions

/// The options of one download, named and parsed as aria2 names them, so the same values come
/// from the command line, a queue file's option lines, or the store. Nil means "not set":
/// the global value, then haul's default, applies.
///
/// The values live in one shared immutable box (replaced on change), so the many downloads of a
/// long queue that set no option all share one and each costs a pointer, not ~400 bytes.
@dynamicMemberLookup
public struct DownloadOptions: Sendable, Equatable {
    private final class Storage: Sendable {
        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }

    private static let unset = Storage(Values())
    private var storage: Storage

    public init() {
        storage = DownloadOptions.unset
    }

    /// All the option values.
    public var values: Values {
        get { storage.values }
        set { storage = Storage(newValue) }
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Values, Value>) -> Value {
        get { values[keyPath: keyPath] }
        set { values[keyPath: keyPath] = newValue }
    }

    public static func == (lhs: DownloadOptions, rhs: DownloadOptions) -> Bool {
        lhs.storage === rhs.storage || lhs.values == rhs.values
    }

    /// Whether these options and `other` share one box of values (see `Interner`).
    func sharesValues(with other: DownloadOptions) -> Bool {
        storage === other.storage
    }

    /// Sets the option `name` (aria2's name, without `--`) from its text. Throws when the name is
    /// unknown or the value does not fit, saying why.
    public mutating func set(_ name: String, _ value: String) throws(OptionError) {
        // Changed in place: the box is let go first, so the values (a long header list among
        // them) are not copied for each option set, which made n `header` options cost n².
        var changed = storage.values
        storage = DownloadOptions.unset
        defer { storage = Storage(changed) }
        try changed.set(name, value)
    }

    /// These options, with every option `defaults` sets and these do not (headers: both).
    public func merged(over defaults: DownloadOptions) -> DownloadOptions {
        // The shared box of no options first: comparing every value with none costs a
        // download's plan and answer several times over.
        if storage === DownloadOptions.unset || values == Values() { return defaults }
        var result = DownloadOptions()
        result.values = values.merged(over: defaults.values)
        return result
    }

    /// Every set option as (name, value) in a fixed order, as a queue file writes them. Without
    /// `includingSecrets`, `http-passwd`, `ftp-passwd` and Authorization, Cookie and Proxy-Authorization
    /// headers are left out.
    public func pairs(includingSecrets: Bool) -> [(String, String)] {
        values.pairs(includingSecrets: includingSecrets)
    }

}

// MARK: - DownloadOptions.Values

extension DownloadOptions {
    /// The option values themselves.
    public struct Values: Sendable, Equatable {
        public var dir: String?
        public var out: String?
        public var split: Int?
        public var maxConnectionPerServer: Int?
        public var minSplitSize: Int64?
        public var maxDownloadLimit: Int64?
        public var checksum: ExpectedChecksum?
        public var maxTries: Int?
        public var retryWait: Int?
        public var timeout: Int?
        public var connectTimeout: Int?
        public var lowestSpeedLimit: Int64?
        /// A body longer than this (or of unknown length, once it passes this) is written to
        /// `NAME.part` as it arrives, resumable after a crash; a shorter whole body goes to a file
        /// with no name, named when complete (`QueueConfiguration.unnamedFileLimit` when unset;
        /// 0 keeps every body resumable).
        public var resumableAbove: Int64?
        /// Accumulates: every `header` line adds one.
        public var headers: [String] = []
        public var userAgent: String?
        public var referer: String?
        public var httpUser: String?
        public var httpPasswd: String?
        /// FTP and FTPS logins (aria2's `ftp-user`, `ftp-passwd`); HTTP keeps its own.
        public var ftpUser: String?
        public var ftpPasswd: String?
        public var allProxy: String?
        public var httpProxy: String?
        public var httpsProxy: String?
        /// Hosts reached without a proxy (comma-separated; `*` for all).
        public var noProxy: String?
        public var pause: Bool?
        public var allowOverwrite: Bool?
        public var autoFileRenaming: Bool?
        public var conditionalGet: Bool?
        /// `continue`: an unfinished file of the download's name (aria2's, curl's, wget's) is
        /// continued rather than saved beside (`UnfinishedFile`).
        public var continueExisting: Bool?
        /// `dry-run`: ask for each file and take its name and size from the answer; save nothing.
        public var dryRun: Bool?
        /// Give the saved file the server's Last-Modified as its mtime.
        public var remoteTime: Bool?
        /// `ftp-pasv`: FTP in passive mode (the default); false asks the server to connect back
        /// (active mode, `PORT`/`EPRT`).
        public var ftpPasv: Bool?
        /// `stream-piece-selector`: how a split download's connections share the file; `inorder`
        /// fetches it front to back, to be played while it downloads.
        public var streamPieceSelector: SegmentPlanner.Order?
        /// haul's `priority` (-100 to 100, 0 when unset): a download is queued ahead of the
        /// waiting downloads of lower priority.
        public var priority: Int?
        /// `piece-hashes`: each piece's digest (from a Metalink); a bad piece is fetched again.
        public var pieceHashes: PieceHashes?
        /// aria2's `follow-metalink`: a saved answer of `application/metalink4+xml`, or named
        /// `.meta4` or `.metalink`, is read, and its files are downloaded (true, the default;
        /// aria2's `mem` is taken as true).
        public var followMetalink: Bool?
        /// SFTP: the private key to log in with, the known-hosts file, or the host key's digest.
        public var sshPrivateKey: String?
        public var sshKnownHosts: String?
        public var sshHostKeyMD: SSHHostKeyDigest?
        public var gid: GID?
        /// The directory a network RPC client's `dir` and `out` stay below, checked as the file is
        /// opened (`NameGate.openFolder`); nil for the user's own names. No option sets it: the
        /// daemon does, and the store keeps it (`DownloadStore.nameRootKey`).
        public var nameRoot: String?

        public init() {}

        // MARK: - Setting by name

        /// Sets the option `name` from its text; see `DownloadOptions.set`.
        public mutating func set(_ name: String, _ value: String) throws(OptionError) {
            // No option's value holds a line break, an escape or another control character (a
            // tab aside): one would end up in a request header, a path, or a saved queue file
            // that reads back otherwise.
            guard !value.unicodeScalars.contains(where: { $0 != "\t" && TextSanitizer.isUnsafe($0) }) else {
                throw OptionError("'\(TextSanitizer.visible(value))' holds a control character")
            }
            switch name {
            case "dir": dir = try Self.nonEmpty(value)
            case "out": out = try Self.relativeName(value)
            case "split": split = try Self.integer(value, in: 1...1024)
            case "max-connection-per-server": maxConnectionPerServer = try Self.integer(value, in: 1...64)
            case "min-split-size": minSplitSize = try Self.size(value, atLeast: 1 << 20)
            case "max-download-limit": maxDownloadLimit = try Self.size(value, atLeast: 0)
            case "checksum": checksum = try ExpectedChecksum(parsing: value)
            case "max-tries": maxTries = try Self.integer(value, in: 0...Int(Int32.max))
            case "retry-wait": retryWait = try Self.integer(value, in: 0...600)
            case "timeout": timeout = try Self.integer(value, in: 1...600)
            case "connect-timeout": connectTimeout = try Self.integer(value, in: 1...600)
            case "lowest-speed-limit": lowestSpeedLimit = try Self.size(value, atLeast: 0)
            case "resumable-above": resumableAbove = try Self.size(value, atLeast: 0)
            case "header":
                guard Self.headerField(value) != nil else {
                    throw OptionError(
                        "'\(TextSanitizer.visible(value))' is not a header: "
                            + "write \"Name: value\" on one line, the name of letters, digits and -")
                }
                headers.append(value)
            case "user-agent": userAgent = value
            case "referer": referer = value
            case "http-user": httpUser = value
            case "http-passwd": httpPasswd = value
            case "ftp-user": ftpUser = value
            case "ftp-passwd": ftpPasswd = value
            case "all-proxy": allProxy = try Self.proxy(value)
            case "http-proxy": httpProxy = try Self.proxy(value)
            case "https-proxy": httpsProxy = try Self.proxy(value)
            case "no-proxy": noProxy = value
            case "pause": pause = try Self.boolean(value)
            case "allow-overwrite": allowOverwrite = try Self.boolean(value)
            case "auto-file-renaming": autoFileRenaming = try Self.boolean(value)
            case "conditional-get": conditionalGet = try Self.boolean(value)
            case "continue": continueExisting = try Self.boolean(value)
            case "dry-run": dryRun = try Self.boolean(value)
            case "remote-time": remoteTime = try Self.boolean(value)
            case "ftp-pasv": ftpPasv = try Self.boolean(value)
            case "follow-metalink": followMetalink = value == "mem" ? true : try Self.boolean(value)
            case "piece-hashes": pieceHashes = try PieceHashes(parsing: value)
            case "priority": priority = try Self.integer(value, in: -100...100)
            case "stream-piece-selector":
                guard let order = SegmentPlanner.Order(rawValue: value) else {
                    throw OptionError("'\(value)' is not a piece order haul has: 'default' or 'inorder'")
                }
                streamPieceSelector = order
            case "ssh-private-key": sshPrivateKey = value
            case "ssh-known-hosts": sshKnownHosts = value
            case "ssh-host-key-md": sshHostKeyMD = try SSHHostKeyDigest(parsing: value)
            case "gid":
                guard let number = GID(value) else { throw OptionError("a gid is 16 hex digits, not all zero") }
                gid = number
            default:
                throw OptionError.unknownOption(name)
            }
        }

        // MARK: - Merging

        /// These values, each unset one taken from `defaults`, field by field (headers: the
        /// defaults' first, then these).
        func merged(over defaults: Values) -> Values {
            var merged = self
            func fill<Value>(_ field: WritableKeyPath<Values, Value?>) {
                if merged[keyPath: field] == nil { merged[keyPath: field] = defaults[keyPath: field] }
            }
            fill(\.dir)
            fill(\.out)
            fill(\.split)
            fill(\.maxConnectionPerServer)
            fill(\.minSplitSize)
            fill(\.maxDownloadLimit)
            fill(\.checksum)
            fill(\.maxTries)
            fill(\.retryWait)
            fill(\.timeout)
            fill(\.connectTimeout)
            fill(\.lowestSpeedLimit)
            fill(\.resumableAbove)
            fill(\.userAgent)
            fill(\.referer)
            fill(\.httpUser)
            fill(\.httpPasswd)
            fill(\.ftpUser)
            fill(\.ftpPasswd)
            fill(\.allProxy)
            fill(\.httpProxy)
            fill(\.httpsProxy)
            fill(\.noProxy)
            fill(\.pause)
            fill(\.allowOverwrite)
            fill(\.autoFileRenaming)
            fill(\.conditionalGet)
            fill(\.continueExisting)
            fill(\.dryRun)
            fill(\.remoteTime)
            fill(\.ftpPasv)
            fill(\.streamPieceSelector)
            fill(\.priority)
            fill(\.pieceHashes)
            fill(\.followMetalink)
            fill(\.sshPrivateKey)
            fill(\.sshKnownHosts)
            fill(\.sshHostKeyMD)
            fill(\.gid)
            fill(\.nameRoot)
            merged.headers = defaults.headers + headers
            return merged
        }

        // MARK: - Writing

        /// Every set option as (name, value); see `DownloadOptions.pairs`.
        public func pairs(includingSecrets: Bool) -> [(String, String)] {
            let proxy = { (value: String?) in value.map { URIText.shown($0, includingSecrets: includingSecrets) } }
            var pairs: [(String, String?)] = [
                ("dir", dir), ("out", out), ("split", split.map(String.init)),
                ("max-connection-per-server", maxConnectionPerServer.map(String.init)),
                ("min-split-size", minSplitSize.map(String.init)),
                ("max-download-limit", maxDownloadLimit.map(String.init)),
                ("checksum", checksum?.description), ("max-tries", maxTries.map(String.init)),
                ("retry-wait", retryWait.map(String.init)), ("timeout", timeout.map(String.init)),
                ("connect-timeout", connectTimeout.map(String.init)),
                ("lowest-speed-limit", lowestSpeedLimit.map(String.init)),
                ("resumable-above", resumableAbove.map(String.init)),
                ("user-agent", userAgent),
                ("referer", referer.map { URIText.shown($0, includingSecrets: includingSecrets) }),
                ("http-user", httpUser),
                ("http-passwd", includingSecrets ? httpPasswd : nil), ("ftp-user", ftpUser),
                ("ftp-passwd", includingSecrets ? ftpPasswd : nil),
                ("all-proxy", proxy(allProxy)), ("http-proxy", proxy(httpProxy)), ("https-proxy", proxy(httpsProxy)),
                ("no-proxy", noProxy),
                ("pause", pause.map(String.init)), ("allow-overwrite", allowOverwrite.map(String.init)),
                ("auto-file-renaming", autoFileRenaming.map(String.init)),
                ("conditional-get", conditionalGet.map(String.init)), ("continue", continueExisting.map(String.init)),
                ("dry-run", dryRun.map(String.init)),
                ("remote-time", remoteTime.map(String.init)), ("ftp-pasv", ftpPasv.map(String.init)),
                ("stream-piece-selector", streamPieceSelector?.rawValue), ("priority", priority.map(String.init)),
                ("piece-hashes", pieceHashes?.description), ("follow-metalink", followMetalink.map(String.init)),
                ("ssh-private-key", sshPrivateKey), ("ssh-known-hosts", sshKnownHosts),
                ("ssh-host-key-md", sshHostKeyMD?.description), ("gid", gid?.description),
            ]
            for header in headers where includingSecrets || !Self.isSecretHeader(header) {
                pairs.append(("header", header))
            }
            return pairs.compactMap { name, value in value.map { (name, $0) } }
        }

        /// The name and value of a `Name: value` header line, or nil when it is not one: the name
        /// is a non-empty HTTP token (RFC 9110), and neither holds a line break or another
        /// control character but tab, which could smuggle in a header of their own.
        public static func headerField(_ line: String) -> (name: String, value: String)? {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenScalar),
                !value.unicodeScalars.contains(where: { $0 != "\t" && TextSanitizer.isUnsafe($0) })
            else {
                return nil
            }
            return (name, value)
        }

        private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }

        /// Whether a header carries a credential: Authorization, Cookie, or a name that says it
        /// holds a token, key, secret, password or session (`X-Auth-Token`, `X-API-Key`…).
        static func isSecretHeader(_ header: String) -> Bool {
            let name = header.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces).lowercased()
            return ["authorization", "cookie", "auth", "token", "key", "secret", "passw", "session", "credential"]
                .contains { name.contains($0) }
        }
    }
}
