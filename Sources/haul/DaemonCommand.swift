import Dispatch
import Foundation
import HaulCore
import HaulRPC

// MARK: - DaemonCommand

/// `haul daemon` (or aria2's spelling, `haul --enable-rpc`): the stored queue kept running with
/// no terminal, driven over aria2's JSON-RPC (`HaulRPC`), logging one line per event to stderr.
struct DaemonCommand: HaulCommand {
    static let about = CommandAbout(
        name: "daemon",
        abstract: "Run the queue with no terminal, driven by aria2's JSON-RPC (aria2p, AriaNg, haul --connect).",
        discussion: """
            Listens on 127.0.0.1:6800 (/jsonrpc over HTTP and WebSocket) unless --rpc-listen-all, \
            which needs --rpc-secret. The queue is the full-screen UI's (the same state directory), \
            so downloads added over RPC survive a restart, even kill -9. Stops on SIGINT or SIGTERM, \
            or aria2.shutdown.
            """)

    static let groups = queueGroups + [OptionGroup("RPC", RPCOptions.options).lifted(\DaemonCommand.rpc)]

    var options = QueueOptions()
    var rpc = RPCOptions()

    func validate() throws {
        try options.validate()
        try rpc.validate()
    }

    func run() throws {
        signal(SIGXFSZ, SIG_IGN)
        let report: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("haul daemon: \($0)\n".utf8)) }
        DescriptorTable.raiseLimit()
        let secret = try rpc.resolvedSecret(report: report)
        if rpc.allowOriginAll, secret == nil {
            report(
                "warning: --rpc-allow-origin-all without --rpc-secret: any web page open in a browser on this "
                    + "machine can add, change and remove downloads; set --rpc-secret")
        }
        let (entries, _) = try options.startup.entries(report: report)
        let configuration = try options.configuration(warn: report)
        try options.startup.startCookies(report: report)
        let hub = NotificationHub()
        let hooks = try options.startup.hookRunner(report: report)
        let quiet = options.basic.quiet
        let stored = try options.startup.openStore(
            at: options.stateDirectoryPath, configuration: configuration,
            maxDownloadResults: options.basic.maxDownloadResult, report: report,
            onStoreError: { report("\($0)") },
            onEvent: { event in
                hooks?.handle(event)
                if !quiet, let line = DaemonLog.line(for: event) {
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                }
                if let notification = Aria2Notification(event) { hub.post(notification) }
            })
        let stop = DispatchSemaphore(value: 0)
        // Stopping is handled before anything is announced: a service manager (or a test) that
        // stops the daemon as soon as it says it listens is heard, never ignored.
        let handlers = StopSignals.handle([SIGINT, SIGTERM]) { stop.signal() }
        var settings = LocalSocket.settings(
            for: configuration, queue: stored.queue, queueSettings: options.connections.queue,
            stateDirectory: options.stateDirectoryPath, saveSession: options.basic.saveSession,
            allowedDirectory: rpc.allowedDirectory, stop: { stop.signal() })
        settings.globalOptions.merge(globalOptions, uniquingKeysWith: { _, daemon in daemon })
        let refusals = RefusalLog(write: report)
        settings.notices = refusals
        let endpoint = RPCEndpoint(
            methods: Aria2Methods(queue: stored.queue, settings: settings),
            secretGuard: SecretGuard(secret: secret), refusals: refusals)
        let server: RPCServer
        do {
            var configuration = serverConfiguration
            configuration.refusals = refusals
            server = try RPCServer.start(configuration, endpoint: endpoint, hub: hub)
        } catch {
            stored.close()
            report("\(error)")
            throw ExitStatus(1)
        }
        let local = LocalSocket.serve(
            stored.queue, stateDirectory: options.stateDirectoryPath, settings: settings, hub: hub, report: report)
        // Said once both ways in are open: a client that reads it finds the local socket too.
        report(
            "listening on \(rpc.listenAll ? "every address" : "127.0.0.1"), port \(server.port) "
                + "(JSON-RPC at /jsonrpc over \(rpc.secure ? "HTTPS and WSS" : "HTTP and WebSocket"); "
                + "\(secret == nil ? "no secret" : "secret required"))")
        stored.restoreAll(adding: entries)
        let scheduler = options.startup.startSchedule(on: stored.queue) { status in
            report("bandwidth schedule: \(status)")
        }
        defer { scheduler?.stop() }
        withExtendedLifetime(handlers) { stop.wait() }
        report("stopping")
        server.stop()
        local?.stop()
        if let path = options.basic.saveSession {
            do {
                try stored.queue.saveSession(to: path)
            } catch {
                report("\(error)")
            }
        }
        stored.close()
        hooks?.waitForRunning()
        _ = options.startup.keepCookies(report: report)
    }

    /// The daemon's own options in force, for `getGlobalOption`, as aria2c gives them; never the
    /// secret, nor the hooks' commands (which may carry one) to a client that may be remote.
    private var globalOptions: [String: String] {
        var global = [
            "enable-rpc": "true", "rpc-listen-port": String(rpc.port), "rpc-listen-all": String(rpc.listenAll),
            "rpc-allow-origin-all": String(rpc.allowOriginAll), "rpc-secure": String(rpc.secure),
            "rpc-max-request-size": String(rpc.maxRequestSize), "quiet": String(options.basic.quiet),
            "max-download-result": String(options.basic.maxDownloadResult), "no-netrc": String(!options.http.netrc),
        ]
        for (name, value) in [
            ("input-file", options.basic.inputFile), ("netrc-path", options.http.netrcPath ?? Netrc.defaultPath),
            ("load-cookies", options.http.loadCookies), ("save-cookies", options.http.saveCookies),
            ("rpc-certificate", rpc.certificate), ("rpc-private-key", rpc.privateKey),
        ] {
            global[name] = value
        }
        return global
    }

    private var serverConfiguration: RPCServer.Configuration {
        var configuration = RPCServer.Configuration()
        configuration.port = rpc.port
        configuration.listenAll = rpc.listenAll
        configuration.allowOriginAll = rpc.allowOriginAll
        configuration.maxRequestSize = Int(rpc.maxRequestSize)
        if rpc.secure, let certificate = rpc.certificate, let key = rpc.privateKey {
            configuration.tls = (certificate, key)
        }
        return configuration
    }
}
