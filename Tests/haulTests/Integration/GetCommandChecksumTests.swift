import Foundation
import HaulTestSupport
import Testing

/// `--checksum` as a user meets it: a mismatch keeps what was received and says where; a rerun
/// with the right digest checks that file instead of downloading it again.
@Suite("haul get --checksum")
struct GetCommandChecksumTests {
    @Test(
        "a wrong digest keeps NAME.part and says so; the rerun with the right digest (sha256=) completes without a request"
    )
    func correctedDigest() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let url = server.url("/file/30000?key=\(key)").absoluteString
        let body = Data(TestPattern.bytes(count: 30_000))
        let wrong = try await HaulProcess.run(
            ["get", url, "-o", "x.bin", "--checksum", "sha256=" + String(repeating: "0", count: 64)],
            in: directory)
        #expect(wrong.status == 32, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("checksum mismatch") && wrong.stderr.contains("x.bin.part"), "\(wrong.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("x.bin.part")) == body)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.bin").path))

        let digest = try HaulProcess.shell("sha256sum x.bin.part | cut -c1-64", in: directory)
        let right = try await HaulProcess.run(
            ["get", url, "-o", "x.bin", "--checksum", "sha256=\(digest)"], in: directory)
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("x.bin")) == body)
        #expect(server.fileRequests.requests(for: key).count == 1)
    }
}

/// What `haul get` says of a partial file: only one it wrote data to is "kept".
@Suite("haul get and partial files it did not make")
struct GetCommandForeignPartialTests {
    @Test("a NAME.part another program made is not reported as received data kept")
    func foreignPartial() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        try Data("mine".utf8).write(to: directory.appendingPathComponent("x.bin"))
        try Data("someone else's".utf8).write(to: directory.appendingPathComponent("x.bin.part"))
        let run = try await HaulProcess.run(
            ["get", server.url("/bytes/1000").absoluteString, "-o", "x.bin", "--conditional-get"],
            in: directory)
        #expect(run.status == 16, "\(run.stderr)")
        #expect(run.stderr.contains("cannot create"), "\(run.stderr)")
        #expect(!run.stderr.contains("received data kept"), "\(run.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("x.bin.part")) == Data("someone else's".utf8))
    }
}

/// Habits from curl: its -k, and --insecure.
@Suite("haul get and curl's habits")
struct GetCommandCurlHabitTests {
    @Test("-k with a URL says -k is --min-split-size here; --insecure skips the certificate check")
    func curlHabits() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let habit = try await HaulProcess.run(["get", "-k", "https://127.0.0.1:1/x"], in: directory)
        #expect(habit.status == 28)
        #expect(
            habit.stderr.contains("-k is --min-split-size here") && habit.stderr.contains("--insecure"),
            "\(habit.stderr)")

        let nginx = try NginxServer.start(files: ["f.bin": TestPattern.bytes(count: 5000)])
        defer { nginx.stop() }
        let insecure = try await HaulProcess.run(
            ["get", "--insecure", nginx.url("/f.bin").absoluteString], in: directory)
        #expect(insecure.status == 0, "\(insecure.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("f.bin")).count == 5000)
    }
}

/// A plain download keeps the server's validators, so a later conditional get is a 304.
@Suite("haul get --conditional-get against nginx")
struct GetCommandConditionalNginxTests {
    @Test("a file saved without flags is found unchanged by a later --conditional-get (nginx answers 304)")
    func notModified() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let nginx = try NginxServer.start(files: ["c.bin": TestPattern.bytes(count: 7000)])
        defer { nginx.stop() }
        let url = nginx.url("/c.bin").absoluteString
        let first = try await HaulProcess.run(["get", "--ca-certificate", nginx.caFile, url], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try await HaulProcess.run(
            ["get", "--ca-certificate", nginx.caFile, "--conditional-get", url], in: directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("up to date"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("c.1.bin").path))
    }
}

/// `haul --version`: haul's and libcurl's versions, and what libcurl speaks.
@Suite("haul --version")
struct VersionTests {
    @Test("--version names haul's version, libcurl's, its TLS library, its protocols and features")
    func version() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let process = Process()
        process.executableURL = HaulProcess.binary
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.hasPrefix("haul ") && text.contains("libcurl ") && text.contains("protocols:"), "\(text)")
        #expect(text.contains("https") && text.contains("features:") && text.contains("HTTP2"), "\(text)")
    }
}
