import Foundation
import HaulCore
import HaulRPC

// MARK: - LocalSocket

/// The Unix socket a full-screen UI or a daemon serves its queue on, in its state directory:
/// how a second `haul` or `haul get` hands it downloads (`LocalHandOff`), or attaches to it.
/// Mode 0600 in a directory of the user's, so no secret: only this user's processes reach it.
enum LocalSocket {
    /// Serves `queue`; nil, with the reason reported, when the socket cannot be made (the queue
    /// still runs, only hand-offs are refused).
    static func serve(
        _ queue: DownloadQueue, stateDirectory: String, settings: Aria2Methods.Settings, hub: NotificationHub,
        report: (String) -> Void
    ) -> RPCServer? {
        var settings = settings
        // This user's own processes may save anywhere this user may.
        settings.allowedDirectory = AllowedDirectory("/")
        settings.clientIsOwner = true
        let endpoint = RPCEndpoint(
            methods: Aria2Methods(queue: queue, settings: settings), secretGuard: SecretGuard(secret: nil))
        do {
            return try RPCServer.start(
                socketAt: RPCServer.socketPath(in: stateDirectory), endpoint: endpoint, hub: hub)
        } catch {
            report("another haul cannot hand this one downloads: \(error)")
            return nil
        }
    }

    /// The RPC settings of a queue run with `configuration` and the queue's options
    /// `queueSettings`: `getGlobalOption`'s options, the session file, where uploaded torrents
    /// are kept (in `stateDirectory`), and how to stop.
    static func settings(
        for configuration: DownloadQueue.Configuration, queue: DownloadQueue, queueSettings: QueueSettings,
        stateDirectory: String, saveSession path: String?, allowedDirectory: String?,
        stop: @escaping @Sendable () -> Void
    ) -> Aria2Methods.Settings {
        // What is in effect: haul's built-in values, under those the configuration sets.
        var global = Dictionary(BuiltInOptions.pairs, uniquingKeysWith: { first, _ in first })
        global["connect-timeout"] = global["timeout"]
        for (name, value) in configuration.defaults.pairs(includingSecrets: false) { global[name] = value }
        // As aria2 gives it, and as the queue saves into it: absolute.
        global["dir"] = queue.configuration.directory
        for (name, value) in queueSettings.pairs { global[name] = value }
        global["save-session"] = path
        var settings = Aria2Methods.Settings(
            allowedDirectory: AllowedDirectory(allowedDirectory ?? configuration.directory),
            version: Haul.version, globalOptions: global,
            saveSession: path.map { path in { @Sendable () throws -> Void in try queue.saveSession(to: path) } },
            shutdown: stop)
        settings.metainfoFolder = MetainfoFolder(path: stateDirectory + "/torrents")
        return settings
    }
}
