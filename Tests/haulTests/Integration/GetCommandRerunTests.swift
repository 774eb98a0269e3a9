import Foundation
import HaulTestSupport
import Testing

/// Running the same command again, as wget -c and aria2c -c users expect: a file an earlier run
/// saved, still there and unchanged, is complete; overwriting or a changed file fetches again.
@Suite("haul get run again")
struct GetCommandRerunTests {
    @Test("the same URL and list again download nothing; --allow-overwrite or a changed file fetch again")
    func rerun() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString, listKey = UUID().uuidString
        let url = server.url("/file/20000?key=\(key)").absoluteString
        let listed = server.url("/file/10000?key=\(listKey)").absoluteString
        try "\(listed)\n  out=listed.bin\n".write(
            to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)

        for _ in 0..<2 {
            let run = try await HaulProcess.run(["get", url, "-d", "dl"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let list = try await HaulProcess.run(["get", "-i", "list.txt", "-d", "dl"], in: directory)
            #expect(list.status == 0, "\(list.stderr)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("dl").path)
            .sorted()
        #expect(files == ["20000", "listed.bin"])
        #expect(
            server.fileRequests.requests(for: key).count == 1 && server.fileRequests.requests(for: listKey).count == 1)
        let again = try await HaulProcess.run(["get", url, "-d", "dl"], in: directory)
        #expect(again.stderr.contains("20000 is complete already"), "\(again.stderr)")
        // Beside a download that runs, a file saved already is not counted as waiting.
        let slow = server.url("/file/600000?key=\(UUID())&pace=32768").absoluteString
        let beside = try await HaulProcess.run(["get", url, slow, "-d", "dl"], in: directory)
        #expect(beside.status == 0 && beside.stderr.contains("600000  "), "\(beside.stderr)")
        #expect(!beside.stderr.contains("waiting"), "\(beside.stderr)")

        let overwrite = try await HaulProcess.run(["get", url, "-d", "dl", "--allow-overwrite"], in: directory)
        #expect(overwrite.status == 0, "\(overwrite.stderr)")
        #expect(server.fileRequests.requests(for: key).count == 2)

        let saved = directory.appendingPathComponent("dl/20000")
        let handle = try FileHandle(forWritingTo: saved)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("edited".utf8))
        try handle.close()
        let changed = try await HaulProcess.run(["get", url, "-d", "dl"], in: directory)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(server.fileRequests.requests(for: key).count == 3)
        #expect(try Data(contentsOf: directory.appendingPathComponent("dl/20000.1")).count == 20_000)
    }

    @Test(
        "data kept from a server with no validator: the failure says a later run starts it over, the next run says it does, -c continues it"
    )
    func noValidator() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        for (key, continues) in [(UUID().uuidString, false), (UUID().uuidString, true)] {
            let url = server.url("/file/3000000?key=\(key)&drop=1600000&validators=none").absoluteString
            let options = ["-d", "dl", "-o", "\(key).bin", "--resumable-above=0"]
            let first = try await HaulProcess.run(["get", url, "-m", "1"] + options, in: directory)
            #expect(first.status != 0)
            #expect(first.stderr.contains("a later run starts it over unless -c is given"), "\(first.stderr)")
            let second = try await HaulProcess.run(["get", url] + options + (continues ? ["-c"] : []), in: directory)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stderr.contains("\(key).bin starts over") != continues, "\(second.stderr)")
            let ranges = server.fileRequests.requests(for: key).map(\.range)
            #expect(ranges.count == 2 && (ranges.last.flatMap { $0 } != nil) == continues, "\(ranges)")
            let data = try Data(contentsOf: directory.appendingPathComponent("dl/\(key).bin"))
            #expect(data.count == 3_000_000 && TestPattern.matches(data))
        }
    }
}

/// A store that cannot be written (the disk is full) fails the run, so the user knows a later
/// run will not know what this one saved.
@Suite("haul get with a store it cannot write")
struct GetCommandStoreFailureTests {
    @Test(
        "a checkpoint that fails (a file-size limit stands in for a full disk) makes the exit status 1; the next run finds the file complete by its mark"
    )
    func storeWriteFails() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let url = server.url("/file/1000?key=\(key)").absoluteString
        // 125 KiB lets the store open and its schema be written (16 KiB pages, one transaction),
        // and stops the write-ahead log at the first checkpoint (112 KiB stops the schema, since
        // torrents' resume data took a table; at 134 KiB the one checkpoint of a download that
        // leaves only its history fits); the 1000-byte download itself fits.
        let run = try await HaulProcess.run(["get", url], in: directory, fileSizeLimitKiB: 125)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("store could not be written"), "\(run.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("1000")).count == 1000)

        let again = try await HaulProcess.run(["get", url], in: directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("complete already"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("1000.1").path))
        #expect(server.fileRequests.requests(for: key).count == 1)
    }
}
