import Foundation
import HaulTestSupport
import Testing

// MARK: - DaemonAriaNgTests

/// AriaNg 1.3.2, the web UI most aria2 users drive their daemon with, in headless Chromium
/// (Debian's `chromium` and `chromium-driver`, `selenium` from `.build/venv`, which `make test`
/// installs) against `haul daemon`: its settings pages (a global and a download's option, seen
/// kept after a reload), its lists, starting a paused download, retrying a failed one, and
/// adding a URL with options from its New page.
@Suite(
    "haul daemon driven by AriaNg", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") || Aria2pTools.required))
struct DaemonAriaNgTests {
    /// AriaNg's build, in the project's parent directory (`shared/clients/ariang`).
    static let ariang = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/clients/ariang")

    @Test(
        "AriaNg changes settings, lists, starts a paused download, retries a failed one and adds a URL; each is kept")
    func drive() async throws {
        let python = try #require(Aria2pTools.python, "make test makes .build/venv with selenium")
        try #require(
            FileManager.default.fileExists(atPath: Self.ariang.appendingPathComponent("index.html").path),
            "AriaNg is read from shared/clients/ariang beside the project, at \(Self.ariang.path)")
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        // As the manual starts it: with a secret, which is what AriaNg's calls are judged by.
        let daemon = try await DaemonProcess.start(in: directory, ["--rpc-secret", "sesame"])
        defer { daemon.stop() }
        let failKey = UUID().uuidString
        var gids: [String] = []
        for (uri, options) in [
            (server.url("/bytes/3000?paused").absoluteString, "{\"pause\":\"true\",\"out\":\"paused.bin\"}"),
            (
                server.url("/file/4000?key=\(failKey)&fail=404&times=1").absoluteString,
                "{\"max-tries\":\"1\",\"out\":\"retried.bin\"}"
            ),
        ] {
            let added = try await daemon.post(
                "{\"id\":1,\"method\":\"aria2.addUri\",\"params\":[\"token:sesame\",[\"\(uri)\"],\(options)]}")
            #expect(added.status == 200, "\(added)")
            gids.append(try Self.result(added.body))
        }
        for _ in 0..<100 where !daemon.stderr.contains("failed") { try await Task.sleep(for: .milliseconds(50)) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/ariang_drive.py").path
        let output = try await DaemonAria2pTests.run(
            python,
            [
                script, Self.ariang.path, String(daemon.port), "sesame", gids[0], "paused.bin", "retried.bin",
                server.url("/bytes/2000").absoluteString, "2000",
            ])
        let seen = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
        for step in [
            "connected", "waiting_lists_paused", "paused_started", "stopped_lists_failed", "retried",
            "new_download_listed",
        ] {
            #expect(seen[step] as? Bool == true, "\(step): \(output)")
        }
        #expect(seen["global_kept"] as? [String] == ["3", "True"], "\(output)")
        #expect(seen["download_option_kept"] as? String == "2", "\(output)")
        #expect(seen["error_dialog"] as? Bool == false)
        #expect((seen["warnings"] as? [String])?.isEmpty == true, "\(output)")
        let out = directory.appendingPathComponent("out")
        for _ in 0..<100 where (try? FileManager.default.contentsOfDirectory(atPath: out.path).count) ?? 0 < 3 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let saved = (try? FileManager.default.contentsOfDirectory(atPath: out.path).sorted()) ?? []
        #expect(saved == ["2000", "paused.bin", "retried.bin"], "\(saved)\n\(daemon.stderr)\n\(output)")
        #expect(server.fileRequests.requests(for: failKey).count == 2)
        // What the pages showed is the daemon's: the global options, the paused download's split,
        // and the new download's limit (its ignored file-allocation logged once).
        let global = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.getGlobalOption\",\"params\":[\"token:sesame\"]}")
        #expect(global.body.contains("\"max-concurrent-downloads\":\"3\""), "\(global)")
        #expect(global.body.contains("\"check-integrity\":\"true\""), "\(global)")
        let paused = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.getOption\",\"params\":[\"token:sesame\",\"\(gids[0])\"]}")
        #expect(paused.body.contains("\"split\":\"2\""), "\(paused)")
        let stopped = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.tellStopped\",\"params\":[\"token:sesame\",0,10,[\"gid\",\"files\"]]}")
        let added = try #require(Self.gid(of: "/2000", in: stopped.body), "\(stopped)")
        let limited = try await daemon.post(
            "{\"id\":1,\"method\":\"aria2.getOption\",\"params\":[\"token:sesame\",\"\(added)\"]}")
        #expect(limited.body.contains("\"max-download-limit\":\"1048576\""), "\(limited)")
        #expect(daemon.stderr.contains("'file-allocation' is not one haul implements"), "\(daemon.stderr)")
    }

    /// The gid of the download, in a `tellStopped` reply, whose file's path ends in `suffix`.
    static func gid(of suffix: String, in body: String) -> String? {
        let reply = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        let downloads = reply?["result"] as? [[String: Any]] ?? []
        return downloads.first { download in
            (download["files"] as? [[String: Any]] ?? []).contains {
                ($0["path"] as? String)?.hasSuffix(suffix) == true
            }
        }?["gid"] as? String
    }

    /// The `result` string of a JSON-RPC reply.
    static func result(_ body: String) throws -> String {
        let reply = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return try #require(reply?["result"] as? String, "\(body)")
    }
}
