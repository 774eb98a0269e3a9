import Foundation
import HaulTestSupport
import Testing

/// `-c`, as wget and aria2 users expect: a file another tool left unfinished under the
/// download's name is continued with `Range`, not fetched again beside it.
@Suite("haul get -c")
struct GetCommandContinueTests {
    @Test("a file curl or wget left is continued from its size; without -c haul says -c would continue it")
    func curlLeft() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let url = server.url("/file/20000?key=\(key)").absoluteString
        let left = directory.appendingPathComponent("20000")
        try Data(TestPattern.bytes(count: 7000)).write(to: left)

        let continued = try await HaulProcess.run(["get", "-c", url], in: directory)
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stderr.contains("continuing"), "\(continued.stderr)")
        #expect(server.fileRequests.requests(for: key).map(\.range) == ["bytes=7000-"])
        let data = try Data(contentsOf: left)
        #expect(data.count == 20000 && TestPattern.matches(data))
        #expect(!FileManager.default.fileExists(atPath: left.path + ".1"))

        let otherKey = UUID().uuidString
        let other = server.url("/file/3000?key=\(otherKey)").absoluteString
        try Data(TestPattern.bytes(count: 1000)).write(to: directory.appendingPathComponent("3000"))
        let beside = try await HaulProcess.run(["get", other], in: directory)
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stderr.contains("3000 exists") && beside.stderr.contains("-c continues it"), "\(beside.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("3000.1")).count == 3000)
    }

    @Test("a whole file another tool left: the server's 416 says nothing follows, and it is kept as it is")
    func wholeFileLeft() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let nginx = try NginxServer.start(files: ["w.bin": TestPattern.bytes(count: 5000)])
        defer { nginx.stop() }
        try Data(TestPattern.bytes(count: 5000)).write(to: directory.appendingPathComponent("w.bin"))
        let run = try await HaulProcess.run(
            ["get", "-c", "--ca-certificate", nginx.caFile, nginx.url("/w.bin").absoluteString],
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["w.bin"])
        #expect(TestPattern.matches(try Data(contentsOf: directory.appendingPathComponent("w.bin"))))
    }

    @Test(
        "an aria2 control file, with -c or without (as aria2c): the pieces it lacks asked for, the control file gone",
        arguments: [["-c"], []])
    func controlFileLeft(continuing: [String]) async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let size = 3 << 20
        // aria2 allocated the whole file and wrote pieces 0 and 2 (of 1 MiB); piece 1 is zeros.
        var bytes = TestPattern.bytes(count: size)
        bytes.replaceSubrange((1 << 20)..<(2 << 20), with: [UInt8](repeating: 0, count: 1 << 20))
        try Data(bytes).write(to: directory.appendingPathComponent("f.bin"))
        var control: [UInt8] = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0]
        control +=
            [0, 0, 0, 0, 0, 0x30, 0, 0] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 1, 0b1010_0000, 0, 0, 0, 0]
        try Data(control).write(to: directory.appendingPathComponent("f.bin.aria2"))

        let url = server.url("/file/\(size)?key=\(key)").absoluteString
        let run = try await HaulProcess.run(["get"] + continuing + ["-o", "f.bin", url], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("from its aria2 control file: 2.0 MiB of 3.0 MiB there"), "\(run.stderr)")
        #expect(server.fileRequests.requests(for: key).map(\.range) == ["bytes=1048576-"])
        let data = try Data(contentsOf: directory.appendingPathComponent("f.bin"))
        #expect(data.count == size && TestPattern.matches(data))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["f.bin"])
    }

    @Test("a server without ranges: Ctrl-C says the file will start over and why, and so does the run after")
    func noRangesInterrupted() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        // Above --resumable-above (8 MiB), so that it has a partial file; 1.3 MB/s until lifted.
        let size = 10_000_000
        let url = server.url("/file/\(size)?key=\(key)&ranges=ignore&pace=131072").absoluteString
        let (process, errors) = try HaulProcess.start(["get", "-o", "f.bin", url], in: directory)
        let part = directory.appendingPathComponent("f.bin.part").path
        let deadline = Date().addingTimeInterval(20)
        while ((try? FileManager.default.attributesOfItem(atPath: part)[.size]) as? Int ?? 0) < 300_000,
            Date() < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGINT)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 7, "\(said)")
        #expect(
            said.contains("interrupted; run haul get again to continue, except:")
                && said.contains("f.bin will start over: its server did not say it takes ranges"), "\(said)")

        server.fileRequests.liftPace(for: key)
        let rerun = try await HaulProcess.run(["get", "-o", "f.bin", url], in: directory)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(
            rerun.stderr.contains("f.bin: starts over: asked for the rest from ")
                && rerun.stderr.contains("the server sent the whole file (200); it does not take ranges"),
            "\(rerun.stderr)")
        let data = try Data(contentsOf: directory.appendingPathComponent("f.bin"))
        #expect(data.count == size && TestPattern.matches(data))
    }

    @Test("a file aria2c -x4 left when stopped with SIGINT is finished by haul get -c over ranged requests")
    func realAria2() async throws {
        let aria2c = "/usr/bin/aria2c"
        try #require(FileManager.default.isExecutableFile(atPath: aria2c), "make test installs aria2")
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let size = 6 << 20
        let nginx = try NginxServer.start(files: ["big.bin": TestPattern.bytes(count: size)])
        defer { nginx.stop() }
        // 200 KB/s a connection: eight seconds for the whole file at aria2c's four.
        let slow = try LinkEmulator(targetPort: nginx.port, shape: .init(bytesPerSecond: 200_000))
        defer { slow.shutdown() }
        let aria2 = try SpawnedProcess(
            aria2c,
            [
                "-x4", "-s4", "-k1M", "--ca-certificate=\(nginx.caFile)",
                "-d", directory.path, slow.url("/big.bin"),
            ])
        // Stopped once a megabyte has crossed the link, watched from a thread of its own so that
        // a busy test run cannot make the watch late.
        let status = await Self.onThread {
            let deadline = Date().addingTimeInterval(20)
            while slow.bytesToClient.reduce(0, +) < 1 << 20, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return aria2.stop(with: SIGINT)
        }
        let file = directory.appendingPathComponent("big.bin").path
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        try #require(
            FileManager.default.fileExists(atPath: file + ".aria2"),
            "aria2c (exit \(status)) left no control file, only \(left)")

        // The same bytes from a server that counts the requests (nginx and it serve one pattern).
        let server = try FaultServer.shared()
        let key = UUID().uuidString
        let run = try await HaulProcess.run(
            [
                "get", "-c", "-x4", "-k1M", "-o", "big.bin",
                server.url("/file/\(size)?key=\(key)").absoluteString,
            ], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("from its aria2 control file"), "\(run.stderr)")
        let data = try Data(contentsOf: directory.appendingPathComponent("big.bin"))
        #expect(data.count == size && TestPattern.matches(data))
        // What aria2c had written was not asked for again: every request is ranged, none from 0.
        let ranges = server.fileRequests.requests(for: key).map(\.range)
        #expect(!ranges.isEmpty && ranges.allSatisfy { $0 != nil && $0 != "bytes=0-" }, "\(ranges)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["big.bin"])
    }

    /// `work`'s result, run on a thread of its own (not one of the test run's few).
    private static func onThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
