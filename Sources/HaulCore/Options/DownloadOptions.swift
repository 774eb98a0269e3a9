import Foundation
import HaulNet

// MARK: - DownloadOptions

/// The options of one download, named and parsed as aria2 names them (`DownloadOptionTable`),
/// so the same values come from the command line, a queue file's option lines, the store, or
/// an RPC client. Nil means "not set": the global value, then haul's (`BuiltInOptions`), applies.
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

    /// No option set: every value comes from whatever these are merged over.
    public init() {
        storage = DownloadOptions.unset
    }

    /// All the option values.
    public var values: Values {
        get { storage.values }
        set { storage = Storage(newValue) }
    }

    /// An option's value, by its key path in `Values` (`options.maxTries`).
    ///
    /// - Parameter keyPath: The option's field.
    /// - Returns: The field's value; an optional field is nil while its option is not set.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Values, Value>) -> Value {
        get { values[keyPath: keyPath] }
        set { values[keyPath: keyPath] = newValue }
    }

    public static func == (lhs: DownloadOptions, rhs: DownloadOptions) -> Bool {
        lhs.storage === rhs.storage || lhs.values == rhs.values
    }

    /// Who added the download (`Values.addedBy`).
    public var addedBy: OptionSource { values.addedBy }

    /// Whether these options and `other` share one box of values (see `Interner`).
    func sharesValues(with other: DownloadOptions) -> Bool {
        storage === other.storage
    }

    /// Sets the option `name` (aria2's name, without `--`) from its text. Throws when the name is
    /// unknown or the value does not fit, saying why.
    ///
    /// - Parameters:
    ///   - name: A long option name, such as `max-tries`.
    ///   - value: The option's text, as on the command line.
    /// - Throws: `OptionError` when the name is unknown (`isUnknownOption`) or the value does not fit.
    public mutating func set(_ name: String, _ value: String) throws(OptionError) {
        // Changed in place: the box is let go first, so the values (a long header list among
        // them) are not copied for each option set, which made n `header` options cost n².
        var changed = storage.values
        storage = DownloadOptions.unset
        defer { storage = Storage(changed) }
        try changed.set(name, value)
    }

    /// These options, with every option `defaults` sets and these do not (headers: both).
    ///
    /// - Parameter defaults: The options to fall back on (the run's, or the built-in ones).
    /// - Returns: The options in effect.
    public func merged(over defaults: DownloadOptions) -> DownloadOptions {
        // The shared box of no options first: comparing every value with none costs a
        // download's plan and answer several times over.
        if storage === DownloadOptions.unset || values == Values() { return defaults }
        // A download given the run's options when it was added (`Merger`) holds the defaults
        // already: merging them again changes nothing, and option by option it costs a download's
        // plan and answer a good share of their time.
        if storage === defaults.storage || values == defaults.values { return self }
        var result = DownloadOptions()
        result.values = values.merged(over: defaults.values)
        return result
    }

    /// Every set option as (name, value) in a fixed order, as a queue file writes them. Without
    /// `includingSecrets`, `http-passwd`, `ftp-passwd` and Authorization, Cookie and Proxy-Authorization
    /// headers are left out.
    ///
    /// - Parameter includingSecrets: Whether passwords and secret headers are written.
    /// - Returns: The pairs, in the option table's order; `header` may appear several times.
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
        public var splitMode: SplitMode?
        public var maxDownloadLimit: SpeedLimit?
        public var checksum: ExpectedChecksum?
        public var maxTries: Int?
        public var retryWait: Int?
        public var timeout: Int?
        public var connectTimeout: Int?
        public var lowestSpeedLimit: SpeedLimit?
        /// A body longer than this (or of unknown length, once it passes this) is written to
        /// `NAME.part` as it arrives, resumable after a crash; a shorter whole body goes to a file
        /// with no name, named when complete (`BuiltInOptions.resumableAbove` when unset; 0 keeps
        /// every body resumable).
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
        /// BitTorrent: when seeding stops (`SeedingPolicy`): a share ratio, and minutes.
        public var seedRatio: Double?
        public var seedTime: Double?
        /// BitTorrent: the files of a torrent to download (1-based indexes), all when unset.
        public var selectFile: FileSelection?
        /// BitTorrent: trackers besides the torrent's own (comma-separated URIs).
        public var btTracker: String?
        /// BitTorrent: peer connections of one torrent.
        public var btMaxPeers: Int?
        /// BitTorrent: cap a torrent's upload.
        public var maxUploadLimit: SpeedLimit?
        /// BitTorrent: take the files on disk as whole without checking them.
        public var btSeedUnverified: Bool?
        /// aria2's `follow-torrent`: a saved answer that is a .torrent is downloaded as a torrent.
        public var followTorrent: Bool?
        /// SFTP: the private key to log in with, the known-hosts file, or the host key's digest.
        public var sshPrivateKey: String?
        public var sshKnownHosts: String?
        public var sshHostKeyMD: SSHHostKeyDigest?
        /// TLS: the certificate authorities to trust, and whether certificates are checked.
        public var caCertificate: String?
        public var checkCertificate: Bool?
        public var gid: GID?
        /// The directory a network RPC client's `dir` and `out` stay below, checked as the file is
        /// opened (`NameGate.openFolder`); nil for the user's own names. No option sets it: the
        /// daemon does, and the store keeps it (`DownloadStore.nameRootKey`).
        public var nameRoot: String?
        /// Who added the download, when not the user (`OptionSource.isUsers`): a network client or a
        /// list loaded by URL. Such a download carries only the credentials its source gave: no netrc
        /// login, no SSH key or agent of the user's, and none of the defaults' secret headers,
        /// users and passwords. No option sets it; the store keeps it (`DownloadStore.sourceKey`).
        public var source: OptionSource?

        /// Who added the download: its `source`, else the user.
        public var addedBy: OptionSource { source ?? .owner }

        /// Every option unset.
        public init() {}

        // MARK: - Setting by name

        /// Sets the option `name` from its text (`DownloadOptionTable`); see `DownloadOptions.set`.
        ///
        /// - Parameters:
        ///   - name: A long option name, such as `max-tries`.
        ///   - value: The option's text, as on the command line.
        /// - Throws: `OptionError` when the name is unknown, the value holds a control character or does
        ///   not fit.
        public mutating func set(_ name: String, _ value: String) throws(OptionError) {
            // No option's value holds a line break, an escape or another control character (a
            // tab aside): one would end up in a request header, a path, or a saved queue file
            // that reads back otherwise.
            guard !value.unicodeScalars.contains(where: { $0 != "\t" && TextSanitizer.isUnsafe($0) }) else {
                throw OptionError("'\(TextSanitizer.visible(value))' holds a control character")
            }
            guard let option = DownloadOptionTable.option(named: name) else { throw OptionError.unknownOption(name) }
            try option.assign(&self, value)
        }

        // MARK: - Merging

        /// These values, each unset one taken from `defaults`, option by option (headers: the
        /// defaults' first, then these, each line once, so merging twice changes nothing). The
        /// name root and the source are no options: they are filled the same way. A download of a
        /// source not the user's takes none of the defaults' credentials.
        func merged(over defaults: Values) -> Values {
            var merged = self
            let defaults = addedBy.isUsers ? defaults : defaults.withoutCredentials
            for option in DownloadOptionTable.all { option.fill(&merged, defaults) }
            if merged.nameRoot == nil { merged.nameRoot = defaults.nameRoot }
            if merged.source == nil { merged.source = defaults.source }
            return merged
        }

        /// These values without the credentials they carry: secret headers, users and passwords.
        public var withoutCredentials: Values {
            var values = self
            values.headers.removeAll(where: HTTPHeaders.isCredential)
            (values.httpUser, values.httpPasswd, values.ftpUser, values.ftpPasswd) = (nil, nil, nil, nil)
            return values
        }

        // MARK: - Writing

        /// Every set option as (name, value); see `DownloadOptions.pairs`.
        ///
        /// - Parameter includingSecrets: Whether passwords and secret headers are written.
        /// - Returns: The pairs, in the option table's order.
        public func pairs(includingSecrets: Bool) -> [(String, String)] {
            DownloadOptionTable.all.flatMap { option in
                option.texts(self, includingSecrets).map { (option.name, $0) }
            }
        }

        /// The name and value of a `Name: value` header line, or nil when it is not one: the name
        /// is a non-empty HTTP token (RFC 9110), and neither holds a line break or another
        /// control character but tab, which could smuggle in a header of their own.
        static func headerField(_ line: String) -> (name: String, value: String)? {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = String(line[..<colon].trimmingHTTPWhitespace(lineEnds: false))
            let value = String(line[line.index(after: colon)...].trimmingHTTPWhitespace(lineEnds: false))
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenScalar),
                !value.unicodeScalars.contains(where: { $0 != "\t" && TextSanitizer.isUnsafe($0) })
            else {
                return nil
            }
            return (name, value)
        }

        /// A character of an HTTP token (RFC 9110): ASCII letters and digits and `!#$%&'*+-.^_`|~`.
        /// Tested as bytes: a store's downloads are read with every header line checked.
        private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            default: "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
            }
        }

    }
}
