// MARK: - OptionSource

/// Who gave a download or one of its options, from the most trusted to the least: the order in
/// which the option table's `DownloadOption.settableBy` column is read. An option may be set by
/// its column's source and by every source above it; a source below it may still give the
/// option's built-in value, which grants nothing.
public enum OptionSource: UInt8, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// The user: the command line, config.toml, a live-queue key, this user's processes on the
    /// local socket.
    case owner
    /// A queue file the user names by its path (`-i list.txt`, a saved session).
    case queueFile
    /// A client of the daemon over the network, which holds the RPC secret: its names stay below
    /// `--rpc-allowed-dir`.
    case networkClient
    /// A list loaded by URL (`-i https://…`) or a Metalink a server sent: anyone could have
    /// written it.
    case remoteList

    public static func < (lhs: OptionSource, rhs: OptionSource) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Whether a download from this source is the user's own: it logs in with the user's netrc
    /// entries, SSH keys and agent, and takes the credentials the user gave every download
    /// (`--header`, `--http-user`). Downloads a network client or a remote list added carry
    /// only the credentials their source gave.
    public var isUsers: Bool { self <= .queueFile }

    /// The source as a sentence names it (`a list loaded by URL`).
    public var description: String {
        switch self {
        case .owner: "the command line"
        case .queueFile: "a queue file"
        case .networkClient: "a network RPC client"
        case .remoteList: "a list loaded by URL"
        }
    }

    /// Where an option this source is the least trusted to set is given instead, when a less
    /// trusted one gave it.
    public var whereToGive: String {
        switch self {
        case .owner: "on the command line or in config.toml"
        case .queueFile, .networkClient, .remoteList: "on the command line or in a queue file you name by its path"
        }
    }

    /// The places this source covers, for the table in docs/safety.md.
    public var places: String {
        switch self {
        case .owner: "the command line, config.toml, the live queue, the local socket"
        case .queueFile: "a queue file named by its path (`-i list.txt`, a saved session)"
        case .networkClient: "an RPC client over the network (it holds the secret)"
        case .remoteList: "a list loaded by URL (`-i https://…`), a server's Metalink"
        }
    }

    /// The store's and the option lines' word for the source (`remote-list`).
    var key: String {
        switch self {
        case .owner: "owner"
        case .queueFile: "queue-file"
        case .networkClient: "network-client"
        case .remoteList: "remote-list"
        }
    }

    /// The source whose key is `key`, or nil.
    init?(key: some StringProtocol) {
        guard let source = OptionSource.allCases.first(where: { $0.key == key }) else { return nil }
        self = source
    }
}
