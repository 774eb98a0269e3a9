import Foundation
import HaulTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - Aria2DifferentialTests

/// `haul daemon` and Debian's `aria2c --enable-rpc`, side by side, sent the same calls as
/// aria2's clients send them (AriaNg's settings page and retry, aria2p's adds): what clients read
/// must agree — the HTTP status, the error code, the result's type, the keys they read.
@Suite(
    "haul daemon against aria2c", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct Aria2DifferentialTests {
    /// One daemon under test: where it listens.
    struct Daemon {
        let name: String
        let port: Int

        /// Sends one call (the secret first) and returns the HTTP status and the parsed reply.
        func call(_ method: String, _ params: [Any], token: String = "sesame") async throws -> (Int, [String: Any]) {
            let body: [String: Any] = [
                "jsonrpc": "2.0", "id": "d", "method": method, "params": ["token:\(token)"] + params,
            ]
            return try await send(JSONSerialization.data(withJSONObject: body))
        }

        /// Sends `method` with `params` as written (no secret added): what a client that gets
        /// `params` wrong sends.
        func raw(_ method: String, params: String) async throws -> (Int, [String: Any]) {
            try await send(
                Data("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"\(method)\",\"params\":\(params)}".utf8))
        }

        private func send(_ body: Data) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: URL(fileURLWithPath: "/"))
            request.url = URL(string: "http://127.0.0.1:\(port)/jsonrpc")
            request.httpMethod = "POST"
            request.httpBody = body
            let (status, text) = try await DaemonProcess.send(request)
            let reply = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
            return (status, reply)
        }
    }

    /// aria2c and haul daemon, each saving to its own folder of `directory`, secret `sesame`.
    private static func start(in directory: URL) async throws -> (Aria2cProcess, DaemonProcess, [Daemon]) {
        let aria2 = try await Aria2cProcess(saving: directory.appendingPathComponent("aria2"))
        let haul = try await DaemonProcess.start(in: directory, ["--rpc-secret", "sesame"])
        return (aria2, haul, [Daemon(name: "aria2c", port: aria2.port), Daemon(name: "haul", port: haul.port)])
    }

    /// The error code of a reply, or nil for a result.
    private static func code(_ reply: [String: Any]) -> Int? {
        (reply["error"] as? [String: Any])?["code"] as? Int
    }

    @Test("AriaNg's and aria2p's calls: options by aria2's names, a retry with getOption, settings, errors")
    func sameAnswers() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (aria2, haul, daemons) = try await Self.start(in: directory)
        defer { aria2.stop() }
        defer { haul.stop() }
        for daemon in daemons {
            let who = daemon.name
            // An add with the options a client's settings page sends, aria2's all.
            let options: [String: Any] = [
                "pause": "true", "file-allocation": "none", "split": "4", "max-connection-per-server": "4",
                "allow-overwrite": "false", "auto-file-renaming": "true", "user-agent": "client/1",
            ]
            let (status, added) = try await daemon.call("aria2.addUri", [["http://127.0.0.1:9/a.bin"], options])
            #expect(status == 200, "\(who): \(added)")
            let gid = try #require(added["result"] as? String, "\(who): \(added)")
            // AriaNg's retry: the URIs again, with everything getOption gave.
            let (_, own) = try await daemon.call("aria2.getOption", [gid])
            let given = try #require(own["result"] as? [String: String], "\(who): \(own)")
            #expect(given["split"] == "4", "\(who): \(given)")
            let (retryStatus, retried) = try await daemon.call("aria2.addUri", [["http://127.0.0.1:9/a.bin"], given])
            #expect(retryStatus == 200 && retried["result"] is String, "\(who): \(retried)")
            // AriaNg's settings page, one option at a time as it sends them.
            for (name, value) in [
                ("max-concurrent-downloads", "3"), ("split", "6"), ("user-agent", "client/2"), ("max-tries", "4"),
                ("continue", "false"), ("max-connection-per-server", "2"), ("retry-wait", "1"),
                ("min-split-size", "2M"), ("allow-overwrite", "false"), ("max-overall-upload-limit", "0"),
                ("dir", directory.appendingPathComponent(daemon.name == "haul" ? "out/later" : "aria2/later").path),
            ] {
                let (status, changed) = try await daemon.call("aria2.changeGlobalOption", [[name: value]])
                #expect(status == 200 && changed["result"] as? String == "OK", "\(who) \(name): \(changed)")
            }
            // Where haul differs on purpose: a network client may not turn on what replaces files,
            // moves traffic or weakens TLS (docs/safety.md); aria2 takes it.
            for (name, value, builtIn) in [
                ("continue", "true", "false"), ("allow-overwrite", "true", "false"),
                ("all-proxy", "http://127.0.0.1:9", ""), ("check-certificate", "false", "true"),
            ] {
                let (status, changed) = try await daemon.call("aria2.changeGlobalOption", [[name: value]])
                let refused = status == 400 && Self.code(changed) == 1
                #expect(refused == (who == "haul"), "\(who) \(name): \(status) \(changed)")
                if !refused { _ = try await daemon.call("aria2.changeGlobalOption", [[name: builtIn]]) }
            }
            for (name, value) in [
                ("split", "2"), ("max-connection-per-server", "2"), ("min-split-size", "2M"),
                ("lowest-speed-limit", "0"), ("max-download-limit", "100K"),
            ] {
                let (status, changed) = try await daemon.call("aria2.changeOption", [gid, [name: value]])
                #expect(status == 200 && changed["result"] as? String == "OK", "\(who) \(name): \(changed)")
            }
            // A link refreshed: the mirror swapped, counted as aria2 counts.
            let (_, swapped) = try await daemon.call(
                "aria2.changeUri", [gid, 1, ["http://127.0.0.1:9/a.bin"], ["http://127.0.0.1:9/fresh.bin"]])
            #expect(swapped["result"] as? [Int] == [1, 1], "\(who): \(swapped)")
            // Errors: a bad value, a wrong secret, no such method, no such gid.
            let (badStatus, bad) = try await daemon.call("aria2.changeGlobalOption", [["split": "many"]])
            #expect(badStatus == 400 && Self.code(bad) == 1, "\(who): \(badStatus) \(bad)")
            let (secretStatus, secret) = try await daemon.call("aria2.getVersion", [], token: "wrong")
            #expect(secretStatus == 400 && Self.code(secret) == 1, "\(who): \(secretStatus) \(secret)")
            let (methodStatus, method) = try await daemon.call("aria2.noSuchMethod", [])
            #expect(methodStatus == 400 && Self.code(method) == 1, "\(who): \(methodStatus) \(method)")
            let (gidStatus, missing) = try await daemon.call("aria2.tellStatus", ["0123456789abcdef"])
            #expect(gidStatus == 400 && Self.code(missing) == 1, "\(who): \(gidStatus) \(missing)")
            // A parameter of the wrong type or missing is the method's error (1); params that
            // are not an array are the request's (-32602).
            for (method, params) in [
                ("aria2.tellStatus", [5]), ("aria2.tellStatus", []), ("aria2.tellWaiting", [0, -1]),
                ("aria2.addUri", [["http://127.0.0.1:9/b.bin"], "options"]), ("system.multicall", [5]),
            ] as [(String, [Any])] {
                let (status, reply) = try await daemon.call(method, params)
                #expect(status == 400 && Self.code(reply) == 1, "\(who) \(method) \(params): \(status) \(reply)")
            }
            let (arrayStatus, notArray) = try await daemon.raw("aria2.tellStatus", params: "\"x\"")
            #expect(arrayStatus == 500 && Self.code(notArray) == -32602, "\(who): \(arrayStatus) \(notArray)")
            // What a status gives, as strings.
            let (_, told) = try await daemon.call("aria2.tellStatus", [gid])
            let fields = try #require(told["result"] as? [String: Any], "\(who): \(told)")
            for key in ["gid", "status", "totalLength", "completedLength", "downloadSpeed", "connections", "dir"] {
                #expect(fields[key] is String, "\(who): \(key) in \(fields)")
            }
            // A settings page shows no blank field for what is in effect.
            let (_, global) = try await daemon.call("aria2.getGlobalOption", [])
            let settings = try #require(global["result"] as? [String: Any], "\(who): \(global)")
            for key in [
                "dir", "max-concurrent-downloads", "split", "user-agent", "continue", "max-connection-per-server",
                "min-split-size", "max-tries", "timeout", "allow-overwrite", "max-overall-download-limit",
            ] {
                #expect(settings[key] is String, "\(who): \(key) in \(settings.keys.sorted())")
            }
            let (_, version) = try await daemon.call("aria2.getVersion", [])
            let features = (version["result"] as? [String: Any])?["enabledFeatures"] as? [String] ?? []
            #expect(features.contains("HTTPS") && features.contains("Metalink"), "\(who): \(features)")
        }
    }

    /// The options docs/aria2-options.md says haul implements (those not "accepted and ignored").
    private static func implementedOptions() throws -> Set<String> {
        let table = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/aria2-options.md")
        let rows = try String(contentsOf: table, encoding: .utf8).split(separator: "\n")
        return Set(
            rows.filter { $0.hasPrefix("| `") && !$0.contains("accepted and ignored") }
                .compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) })
    }

    @Test("getGlobalOption as started: every option aria2c lists that haul implements, with dir absolute")
    func settingsAsStarted() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (aria2, haul, daemons) = try await Self.start(in: directory)
        defer { aria2.stop() }
        defer { haul.stop() }
        var settings: [String: [String: String]] = [:]
        for daemon in daemons {
            let (_, global) = try await daemon.call("aria2.getGlobalOption", [])
            settings[daemon.name] = try #require(global["result"] as? [String: String], "\(daemon.name): \(global)")
        }
        let ours = settings["haul"] ?? [:]
        let theirs = try #require(settings.first { $0.key != "haul" }?.value)
        let out = directory.appendingPathComponent("out").path
        let resolved = { (path: String) in (path as NSString).resolvingSymlinksInPath }
        #expect(ours["dir"].map(resolved) == resolved(out))
        // Blank on purpose: retry-wait (haul's default is a backoff from 1 s, which aria2's one
        // number cannot say) and ca-certificate (haul's default is the system's store, not a file).
        let blank: Set = ["retry-wait", "ca-certificate"]
        let missing = try Self.implementedOptions().subtracting(blank).filter { theirs[$0] != nil && ours[$0] == nil }
        #expect(missing.isEmpty, "\(missing.sorted())")
        #expect(ours.count >= 30, "\(ours.keys.sorted())")
        #expect(ours["rpc-secret"] == nil && theirs["rpc-secret"] == nil)
    }
}
