import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Which bodies go to a file with no name, named when complete, and how such an attempt ends,
/// as input → effects tables on the pure core.
@Suite("Queue core: files with no name")
struct QueueCoreUnnamedTests {
    /// The options `reason` names, for the tables of what keeps a body out of a file with no name.
    private static func options(for reason: String) throws -> (inout DownloadOptions) -> Void {
        let digest = try ExpectedChecksum(parsing: "sha-256=" + String(repeating: "a", count: 64))
        return { options in
            switch reason {
            case "a digest": options.checksum = digest
            case "allow-overwrite": options.allowOverwrite = true
            case "auto-file-renaming=false": options.autoFileRenaming = false
            case "a split", "a split at the limit":
                options.split = 4
                options.maxConnectionPerServer = 4
                options.minSplitSize = 1 << 20
            case "conditional-get": options.conditionalGet = true
            case "dry-run": options.dryRun = true
            default: break
            }
        }
    }

    @Test("a small whole body goes to a file with no name; the engine names it, and it is saved as named")
    func small() {
        var core = CoreHarness()
        _ = core.add(["d"])
        #expect(
            core.answer(1, 200, ["Content-Length": "5000"]) == [
                "d shows response 200", "name c1 from 0 of 5000 unnamed",
            ])
        #expect(core.name(1, "/dl/d", unnamed: true) == ["d updated", "write c1 unnamed d in /dl"])
        let id = core.connection(1)
        #expect(core.send(.bodyDone(id, path: "/dl/d.1")) == ["d updated"], "no rename: it has its name")
        #expect(core.send(.finished(id)) == ["d complete"])
        #expect(core.download("d")?.destination == "/dl/d.1")
    }

    @Test("a body of unknown length spills to a partial file past the limit and ends as an ordinary one")
    func spill() {
        var core = CoreHarness()
        _ = core.add(["u"])
        #expect(core.answer(1, 200) == ["u shows response 200", "name c1 from 0 of -1 unnamed until 8388608"])
        #expect(core.name(1, "/dl/u", unnamed: true) == ["u updated", "write c1 unnamed u in /dl until 8388608"])
        let id = core.connection(1)
        #expect(core.send(.spilled(id, path: "/dl/u.1.part")) == ["u updated"])
        #expect(core.download("u")?.destination == "/dl/u.1")
        #expect(core.send(.bodyDone(id, path: "/dl/u.1.part")) == ["finish c1 /dl/u.1.part"], "renamed as usual")
    }

    @Test(
        "what keeps a body out of a file with no name",
        arguments: ["longer than the limit", "a digest", "allow-overwrite", "auto-file-renaming=false", "a split"])
    func kept(reason: String) throws {
        var core = CoreHarness()
        _ = core.add(["k"], try QueueCoreUnnamedTests.options(for: reason))
        // A split needs two segments of at least the minimum size: 5 MB in 1 MiB pieces.
        let length = reason == "longer than the limit" ? 9_000_000 : reason == "a split" ? 5_000_000 : 5000
        let effects = core.answer(1, 200, ["Content-Length": "\(length)", "Accept-Ranges": "bytes", "ETag": "\"e\""])
        #expect(effects.last == "name c1 from 0 of \(length)", "\(reason)")
    }

    @Test("a resumed body, or a queue that turned files with no name off, goes to the partial file")
    func resumedOrOff() {
        var resumed = CoreHarness()
        _ = resumed.add(["r"], { _ in }, QueueCoreResumeTests.partial)
        #expect(resumed.answer(1, 206, QueueCoreResumeTests.ranged(400, 1000)).last == "name c1 from 400 of 1000")
        var off = CoreHarness { $0.unnamedFiles = false }
        _ = off.add(["o"])
        #expect(off.answer(1, 200, ["Content-Length": "10"]).last == "name c1 from 0 of 10")
    }

    @Test("a plain download's connection answers its own 200: the core files the body as unnamed, asking no name")
    func presumed() {
        var core = CoreHarness()
        _ = core.add(["p"])
        #expect(core.presumedLimit(1) == 8_388_608)
        #expect(
            core.answer(1, 200, ["Content-Length": "5000"], presumed: true) == ["p shows response 200", "p updated"])
        #expect(core.download("p")?.totalBytes == 5000)
        let id = core.connection(1)
        #expect(core.send(.bodyDone(id, path: "/dl/p.1")) == ["p updated"])
        #expect(core.send(.finished(id)) == ["p complete"])
        #expect(core.download("p")?.destination == "/dl/p.1")
    }

    @Test(
        "what keeps a connection from answering its own response",
        arguments: [
            "a digest", "allow-overwrite", "auto-file-renaming=false", "a split at the limit", "conditional-get",
            "dry-run", "a partial file", "files with no name off",
        ])
    func notPresumed(reason: String) throws {
        var core = CoreHarness { $0.unnamedFiles = reason != "files with no name off" }
        _ = core.add(
            ["n"], try QueueCoreUnnamedTests.options(for: reason),
            reason == "a partial file" ? QueueCoreResumeTests.partial : { _ in })
        #expect(core.presumedLimit(1) == nil, "\(reason)")
    }

    @Test("a presumed answer for an attempt stopped meanwhile, or over the limit, is cancelled")
    func presumedRefused() {
        var paused = CoreHarness()
        _ = paused.add(["s"])
        _ = paused.send(.pause("s"))
        #expect(paused.answer(1, 200, ["Content-Length": "10"], presumed: true) == ["answer c1 cancel"])
        var over = CoreHarness()
        _ = over.add(["o"])
        let effects = over.answer(1, 200, ["Content-Length": "9000000"], presumed: true)
        #expect(effects.contains("answer c1 cancel") && !effects.contains { $0.hasPrefix("name") }, "\(effects)")
    }
}
