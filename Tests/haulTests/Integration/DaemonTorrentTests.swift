import Foundation
import HaulTestSupport
import Testing

// MARK: - DaemonTorrentTests

/// aria2's BitTorrent RPC, differentially: the same torrent added with `aria2.addTorrent` to
/// `haul daemon` and to `aria2c --enable-rpc`, both leeching from an aria2c seeder through
/// opentracker on loopback; what `tellStatus`, `getFiles` and `getPeers` say must agree, and a
/// `changeOption` of `select-file` must end the same.
@Suite(
    "haul daemon: BitTorrent RPC against aria2c", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct DaemonTorrentTests {
    /// A folder of two files (3,000,000 and 2,000,000 bytes), its torrent, its tracker and an
    /// aria2c seeding it.
    struct Swarm {
        let torrent: URL
        let hash: String
        let tracker: Tracker
        let seeder: Aria2Peer

        /// - Parameters:
        ///   - directory: Where its files, torrent and tracker go.
        ///   - name: The torrent's folder (each name makes another torrent).
        /// - Throws: When a file, the torrent, its tracker or its seeder cannot be made.
        init(in directory: URL, name: String = "album") throws {
            let seeded = directory.appendingPathComponent("seeded")
            let folder = seeded.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("disc"), withIntermediateDirectories: true)
            let shift = name.utf8.count
            try Data(TestPattern.bytes(offset: shift, count: 3_000_000)).write(
                to: folder.appendingPathComponent("a.bin"))
            try Data(TestPattern.bytes(offset: shift + 7, count: 2_000_000)).write(
                to: folder.appendingPathComponent("disc/b.bin"))
            let port = try LoopbackPort.free()
            torrent = directory.appendingPathComponent(name + ".torrent")
            hash = try TorrentSwarm.makeTorrent(
                of: folder, at: torrent, pieceLength: 256 << 10, trackers: ["http://127.0.0.1:\(port)/announce"])
            tracker = try TorrentSwarm.tracker(
                for: [String(hash.prefix(40))], in: directory.appendingPathComponent("tracker"), port: port)
            seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        }

        func stop() {
            seeder.stop()
            tracker.stop()
        }
    }

    /// aria2c and haul daemon as RPC daemons leeching on loopback, each in its own folder.
    private static func daemons(
        in directory: URL, _ extra: [String] = []
    ) async throws -> (Aria2cProcess, DaemonProcess, [Daemon]) {
        let quietSwarm = ["--enable-dht=false", "--bt-enable-lpd=false", "--enable-peer-exchange=false"]
        let aria2 = try await Aria2cProcess(
            saving: directory.appendingPathComponent("aria2"),
            quietSwarm + ["--enable-dht6=false", "--listen-port=\(try LoopbackPort.free())"] + extra)
        let haul = try await DaemonProcess.start(
            in: directory,
            ["--rpc-secret", "sesame", "--enable-dht=false", "--interface=127.0.0.1", "--listen-port=0"] + extra)
        return (
            aria2, haul,
            [
                Daemon(name: "aria2c", port: aria2.port, directory: directory.appendingPathComponent("aria2").path),
                Daemon(name: "haul", port: haul.port, directory: directory.appendingPathComponent("out").path),
            ]
        )
    }

    struct Daemon {
        let name: String
        let port: Int
        /// Where it saves.
        let directory: String

        /// The result of `method` with `params` (the secret first); throws on an error reply.
        func call(_ method: String, _ params: [Any]) async throws -> Any {
            let body: [String: Any] = [
                "jsonrpc": "2.0", "id": "t", "method": method, "params": ["token:sesame"] + params,
            ]
            let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let reply = try await DaemonProcess.post(text, port: port)
            let object = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
            guard let result = object?["result"] else {
                throw DaemonProcess.DaemonError(description: "\(name) \(method): \(reply.body)")
            }
            return result
        }

        /// `tellStatus` of `gid`, asked until `done` says so, for `seconds` at most (the swarm is on
        /// loopback).
        func status(
            of gid: String, within seconds: Double = 60, until done: ([String: Any]) -> Bool
        ) async throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                let status = try await call("aria2.tellStatus", [gid]) as? [String: Any] ?? [:]
                if done(status) || Date() > deadline { return status }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// What a client reads of a torrent's status, the daemon's own folder made `DIR`.
    private static func comparable(_ status: [String: Any], in directory: String) -> [String: String] {
        var shown: [String: String] = [:]
        for key in ["totalLength", "completedLength", "infoHash", "numPieces", "pieceLength", "seeder", "status"] {
            shown[key] = status[key] as? String
        }
        let bittorrent = status["bittorrent"] as? [String: Any] ?? [:]
        shown["mode"] = bittorrent["mode"] as? String
        shown["name"] = (bittorrent["info"] as? [String: Any])?["name"] as? String
        shown["announceList"] = "\(bittorrent["announceList"] ?? "")"
        shown["creationDate"] = "\(bittorrent["creationDate"] ?? "")"
        for (index, file) in (status["files"] as? [[String: Any]] ?? []).enumerated() {
            let path = (file["path"] as? String ?? "").replacingOccurrences(of: directory, with: "DIR")
            let fields = ["index", "length", "completedLength", "selected"].map { file[$0] as? String ?? "-" }
            shown["file\(index)"] = ([path] + fields).joined(separator: " ")
        }
        return shown
    }

    @Test("addTorrent with select-file: tellStatus's BitTorrent fields and getFiles as aria2c's; select-file changed")
    func sameStatus() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let swarm = try Swarm(in: directory)
        defer { swarm.stop() }
        let (aria2, haul, daemons) = try await Self.daemons(in: directory)
        defer { aria2.stop() }
        defer { haul.stop() }
        let metainfo = try Data(contentsOf: swarm.torrent).base64EncodedString()
        var seen: [[String: String]] = []
        var changed: [[String: String]] = []
        for daemon in daemons {
            let gid = try #require(
                try await daemon.call("aria2.addTorrent", [metainfo, [], ["select-file": "2", "seed-time": "10"]])
                    as? String)
            let whole = try await daemon.status(of: gid) { $0["seeder"] as? String == "true" }
            #expect(whole["seeder"] as? String == "true", "\(daemon.name): \(whole)")
            seen.append(Self.comparable(whole, in: daemon.directory))
            let files = try #require(try await daemon.call("aria2.getFiles", [gid]) as? [[String: Any]])
            #expect(
                "\(files.map { $0["selected"] ?? "" })"
                    == "\((whole["files"] as? [[String: Any]] ?? []).map { $0["selected"] ?? "" })")
            // The first file too: both daemons fetch it and say both are selected.
            #expect(try await daemon.call("aria2.changeOption", [gid, ["select-file": "1,2"]]) as? String == "OK")
            // Within 30 s: once whole, the seeder and haul may have parted, and libtorrent waited
            // a minute before it connected to a peer again (haul sets 10 s).
            let both = try await daemon.status(of: gid, within: 30) { $0["completedLength"] as? String == "5000000" }
            changed.append(Self.comparable(both, in: daemon.directory))
            #expect(
                FileManager.default.contentsEqual(
                    atPath: daemon.directory + "/album/disc/b.bin",
                    andPath: directory.appendingPathComponent("seeded/album/disc/b.bin").path), "\(daemon.name)")
        }
        #expect(seen.first == seen.last, "aria2c: \(seen.first ?? [:])\nhaul:   \(seen.last ?? [:])")
        // The torrent lists disc/b.bin first (libtorrent orders a folder's files so).
        #expect(seen.last?["file1"] == "DIR/album/a.bin 2 3000000 3000000 true", "\(seen.last ?? [:])")
        #expect(seen.last?["file0"]?.hasSuffix(" false") == true, "\(seen.last ?? [:])")
        #expect(
            changed.first?["file0"] == changed.last?["file0"],
            "aria2c: \(changed.first ?? [:])\nhaul: \(changed.last ?? [:])")
        #expect(changed.last?["file0"] == "DIR/album/disc/b.bin 1 2000000 2000000 true", "\(changed.last ?? [:])")
    }

    @Test("getPeers of a running torrent: the seeder, its peer id and pieces, as aria2c lists it")
    func samePeers() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let swarm = try Swarm(in: directory)
        defer { swarm.stop() }
        let (aria2, haul, daemons) = try await Self.daemons(in: directory)
        defer { aria2.stop() }
        defer { haul.stop() }
        let metainfo = try Data(contentsOf: swarm.torrent).base64EncodedString()
        for daemon in daemons {
            // Slow enough to be asked while it runs.
            let gid = try #require(
                try await daemon.call("aria2.addTorrent", [metainfo, [], ["max-download-limit": "200K"]]) as? String)
            let deadline = Date().addingTimeInterval(30)
            var seeder: [String: Any]?
            while seeder == nil, Date() < deadline {
                let peers = try await daemon.call("aria2.getPeers", [gid]) as? [[String: Any]] ?? []
                // Listed once its pieces are known (its bitfield came).
                seeder = peers.first {
                    $0["port"] as? String == String(swarm.seeder.port) && $0["seeder"] as? String == "true"
                }
                if seeder == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let found = try #require(seeder, "\(daemon.name) never listed the seeder")
            #expect(found["ip"] as? String == "127.0.0.1")
            // aria2c's peer id, percent-encoded as aria2 encodes it: all but letters and digits.
            #expect((found["peerId"] as? String)?.hasPrefix("A2%2D1%2D") == true, "\(daemon.name): \(found)")
            // 20 pieces: 20 bits set.
            #expect(found["bitfield"] as? String == "fffff0", "\(daemon.name): \(found)")
            // The status a second old at most says so too.
            let status = try await daemon.status(of: gid) { $0["numSeeders"] as? String == "1" }
            #expect(status["numSeeders"] as? String == "1", "\(daemon.name): \(status)")
            #expect(status["infoHash"] as? String == String(swarm.hash.prefix(40)), "\(daemon.name)")
            _ = try await daemon.call("aria2.remove", [gid])
        }
    }

    @Test(
        "AriaNg in Chromium adds a magnet link and a .torrent, shows peers and files, and changes select-file",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") || Aria2pTools.required))
    func ariaNg() async throws {
        let python = try #require(Aria2pTools.python, "make test makes .build/venv with selenium")
        let ariang = DaemonAriaNgTests.ariang
        try #require(FileManager.default.fileExists(atPath: ariang.appendingPathComponent("index.html").path))
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let album = try Swarm(in: directory)
        defer { album.stop() }
        let live = try Swarm(in: directory, name: "live")
        defer { live.stop() }
        // Slow enough that the magnet link's download is still running when its peers are looked at.
        let (aria2, haul, daemons) = try await Self.daemons(in: directory, ["--max-overall-download-limit=200K"])
        defer { aria2.stop() }
        defer { haul.stop() }
        let magnet =
            "magnet:?xt=urn:btih:\(live.hash.prefix(40))&dn=live&tr="
            + (live.tracker.announce.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/ariang_torrent.py").path
        var seen: [String: String] = [:]
        for daemon in daemons {
            let output = try await DaemonAria2pTests.run(
                python,
                [
                    script, ariang.path, String(daemon.port), "sesame", album.torrent.path, magnet,
                    String(live.seeder.port),
                ])
            let steps = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
            for step in [
                "connected", "magnet_listed", "peers_shown", "torrent_waiting", "files_shown", "overview_hash",
            ] {
                #expect(steps[step] as? Bool == true, "\(daemon.name) \(step): \(output)")
            }
            #expect(steps["select_file"] as? String == "2", "\(daemon.name): \(output)")
            #expect(steps["error_dialog"] as? Bool == false, "\(daemon.name): \(output)")
            #expect((steps["warnings"] as? [String])?.isEmpty == true, "\(daemon.name): \(output)")
            seen[daemon.name] = "\(steps["files"] ?? "")"
        }
        #expect(seen["haul"] == seen["aria2c"], "\(seen)")
        #expect(seen["haul"]?.contains("a.bin") == true, "\(seen)")
    }

    @Test("addTorrent refuses what is not a torrent, a web seed that is not HTTP, naming what was wrong")
    func refusals() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let haul = try await DaemonProcess.start(in: directory, ["--rpc-secret", "sesame", "--enable-dht=false"])
        defer { haul.stop() }
        let daemon = Daemon(name: "haul", port: haul.port, directory: "")
        let good = Data(HostileTorrent.single(name: "a.bin", length: 10)).base64EncodedString()
        let cases: [([Any], String)] = [
            (["not base64!"], "must be a .torrent file of at most 10 MB in base64"),
            ([Data("d4:spam4:eggse".utf8).base64EncodedString()], "not a usable .torrent"),
            ([good, ["file:///etc/passwd"]], "unsupported scheme"),
            ([good, ["sftp://host/a.bin"]], "cannot be a web seed"),
        ]
        for (params, reason) in cases {
            do {
                let added = try await daemon.call("aria2.addTorrent", params)
                Issue.record("\(params.dropFirst()) was added: \(added)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
        let waiting = try await daemon.call("aria2.tellWaiting", [0, 10]) as? [Any] ?? []
        #expect(waiting.isEmpty, "nothing was added")
    }
}
