import Foundation
import HaulCore
import Synchronization

// MARK: - Aria2Methods

/// aria2's RPC methods (its manual's "RPC Interface") on a `DownloadQueue`: each call reads the
/// queue or gives it a command, and answers as aria2 answers. The secret is checked before a
/// call gets here (`RPCEndpoint`). Any thread: the queue's commands are; `saveSession` writes a
/// file, so the endpoint calls methods off any event loop.
package final class Aria2Methods: Sendable {
    /// What the methods need besides the queue.
    package struct Settings: Sendable {
        /// Where clients may save (`--rpc-allowed-dir`).
        package var allowedDirectory: AllowedDirectory
        /// Whether the client is this user's own process (the local socket): it may name files on
        /// this machine in options (an SSH key, a known-hosts file), and its names are the user's.
        /// A network client's names stay below `allowedDirectory` when its files are opened
        /// (`DownloadOptions.nameRoot`, `NameGate`).
        package var clientIsOwner = false
        /// `getVersion`'s version.
        package var version: String
        /// aria2's global options as `getGlobalOption` shows them.
        package var globalOptions: [String: String]
        /// Writes the queue to the `--save-session` file; nil when none was named.
        package var saveSession: (@Sendable () throws -> Void)?
        /// Stops the daemon (`shutdown`, `forceShutdown`), after the reply is sent.
        package var shutdown: @Sendable () -> Void
        /// Where an option a client gave that haul does not apply is said, once.
        package var notices: RefusalLog?
        /// Where `addTorrent` keeps the .torrent files clients upload; nil: `addTorrent` is
        /// refused.
        package var metainfoFolder: MetainfoFolder?

        package init(
            allowedDirectory: AllowedDirectory, version: String, globalOptions: [String: String] = [:],
            saveSession: (@Sendable () throws -> Void)? = nil, shutdown: @escaping @Sendable () -> Void = {}
        ) {
            self.allowedDirectory = allowedDirectory
            self.version = version
            self.globalOptions = globalOptions
            self.saveSession = saveSession
            self.shutdown = shutdown
        }
    }

    let queue: DownloadQueue
    let settings: Settings
    let sessionID: String
    /// The global options as they are now (`changeGlobalOption` changes them).
    let globalOptions: Mutex<[String: String]>
    /// The options every download a client adds gets under its own (`changeGlobalOption` of a
    /// download's option, such as `split`).
    let addedDefaults = Mutex(DownloadOptions())

    package init(queue: DownloadQueue, settings: Settings) {
        self.queue = queue
        self.settings = settings
        globalOptions = Mutex(settings.globalOptions)
        sessionID = (0..<5).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined()
    }

    /// Whether `method` only reads: its name says so (`tellStatus`, `getFiles`, `getVersion`…).
    static func changesNothing(_ method: String) -> Bool {
        ["aria2.tell", "aria2.get", "system.list"].contains { method.hasPrefix($0) }
    }

    /// Every method a client may call, as `system.listMethods` lists them.
    package static let names: [String] = [
        "aria2.addUri", "aria2.addTorrent", "aria2.addMetalink", "aria2.remove", "aria2.forceRemove",
        "aria2.pause", "aria2.pauseAll", "aria2.forcePause", "aria2.forcePauseAll", "aria2.unpause",
        "aria2.unpauseAll", "aria2.tellStatus", "aria2.getUris", "aria2.getFiles", "aria2.getPeers",
        "aria2.getServers", "aria2.tellActive", "aria2.tellWaiting", "aria2.tellStopped", "aria2.changePosition",
        "aria2.changeUri", "aria2.getOption", "aria2.changeOption", "aria2.getGlobalOption",
        "aria2.changeGlobalOption", "aria2.getGlobalStat", "aria2.purgeDownloadResult",
        "aria2.removeDownloadResult", "aria2.getVersion", "aria2.getSessionInfo", "aria2.shutdown",
        "aria2.forceShutdown", "aria2.saveSession", "system.multicall", "system.listMethods",
        "system.listNotifications",
    ]

    /// Runs the `aria2.` method `name` with `params` (its secret taken off).
    func call(_ name: String, _ params: RPCParams) throws(RPCError) -> JSONValue {
        switch name {
        case "aria2.addUri": return try addUri(params)
        case "aria2.addMetalink": return try addMetalink(params)
        case "aria2.addTorrent": return try addTorrent(params)
        case "aria2.remove", "aria2.forceRemove": return try remove(params)
        case "aria2.pause", "aria2.forcePause": return try pause(params)
        case "aria2.pauseAll", "aria2.forcePauseAll": return pauseAll()
        case "aria2.unpause": return try unpause(params)
        case "aria2.unpauseAll": return unpauseAll()
        case "aria2.tellStatus": return try tellStatus(params)
        case "aria2.getUris": return .array(Aria2Status.uris(of: try download(params)))
        case "aria2.getFiles": return try files(params)
        case "aria2.getPeers": return try peers(params)
        case "aria2.getServers": return try servers(params)
        case "aria2.tellActive": return tellActive(params)
        case "aria2.tellWaiting": return try tellList(params, states: [.queued, .paused])
        case "aria2.tellStopped": return try tellList(params, states: [.complete, .failed, .cancelled])
        case "aria2.changePosition": return try changePosition(params)
        case "aria2.changeUri": return try changeUri(params)
        case "aria2.getOption": return try option(params)
        case "aria2.changeOption": return try changeOption(params)
        case "aria2.getGlobalOption": return globalOption()
        case "aria2.changeGlobalOption": return try changeGlobalOption(params)
        case "aria2.getGlobalStat": return globalStat()
        case "aria2.purgeDownloadResult": return purgeDownloadResults()
        case "aria2.removeDownloadResult": return try removeDownloadResult(params)
        case "aria2.getVersion": return ["version": .string(settings.version), "enabledFeatures": features]
        case "aria2.getSessionInfo": return ["sessionId": .string(sessionID)]
        case "aria2.saveSession": return try saveSession()
        case "aria2.shutdown", "aria2.forceShutdown":
            settings.shutdown()
            return "OK"
        default: throw .noSuchMethod(name)
        }
    }

    /// aria2's names for what haul does: BitTorrent, TLS, gzip bodies, cookie files, digests
    /// (checksums and piece hashes), Metalink and SFTP; not asynchronous DNS or XML-RPC.
    private var features: JSONValue {
        ["BitTorrent", "Firefox3 Cookie", "GZip", "HTTPS", "Message Digest", "Metalink", "SFTP"]
    }

    // MARK: - Finding downloads

    /// The download the gid parameter names (parameter 1).
    func download(_ params: RPCParams) throws(RPCError) -> Download {
        let gid = try params.string(0, "gid")
        guard let id = GID(gid), let download = queue.download(id) else { throw .gidNotFound(gid) }
        return download
    }
}
