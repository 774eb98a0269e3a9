import Foundation
import HaulTestSupport
import Testing

/// `haul get` run as a user runs it: the built binary, against the fault server.
@Suite("haul get")
struct GetCommandTests {
    struct Run {
        let status: Int32
        let stderr: String
    }

    /// The `haul` binary built beside this test bundle.
    static let binary: URL = {
        var directory = Bundle.main.bundleURL
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("haul").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("haul")
    }()

    func haul(_ arguments: [String], in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = GetCommandTests.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: String(decoding: output, as: UTF8.self))
    }

    func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-get-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("downloads several URLs, names them, exits 0")
    func downloads() throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try haul(["get", server.url("/bytes/3000000").absoluteString, server.url("/chain/2").absoluteString,
                            "-d", "out"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let saved = try Data(contentsOf: directory.appendingPathComponent("out/3000000"))
        #expect(saved.count == 3_000_000 && TestPattern.matches(saved))
        #expect(try Data(contentsOf: directory.appendingPathComponent("out/0")).count == 100)
        #expect(run.stderr.contains("2 downloads: 2 saved, 0 failed"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/3000000.part").path))
    }

    @Test("a hostile Content-Disposition cannot escape the directory or reach the terminal")
    func hostileName() throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let value = "attachment; filename=\"../../evil\u{1B}[2J.txt\""
        let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let run = try haul(["get", server.url("/disposition?value=\(query)").absoluteString], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["_.._evil.txt"])
        #expect(!run.stderr.contains("\u{1B}[2J"))
    }

    @Test("an error status, a dropped body and a bad flag each exit non-zero with a clear message")
    func failures() throws {
        let server = try FaultServer.shared()
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try haul(["get", server.url("/status/404").absoluteString], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the server answered 404 Not Found"))

        let dropped = try haul(["get", server.url("/drop/100000").absoluteString, "-o", "d.bin"], in: directory)
        #expect(dropped.status == 1)
        #expect(dropped.stderr.contains("connection was lost"))
        #expect(dropped.stderr.contains("d.bin.part"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("d.bin").path))

        let badFlag = try haul(["get", "--max-download-limit", "fast", server.url("/bytes/1").absoluteString], in: directory)
        #expect(badFlag.status == 64)
        #expect(badFlag.stderr.contains("'fast' is not a size"))

        let badScheme = try haul(["get", "file:///etc/passwd"], in: directory)
        #expect(badScheme.status == 64)
        #expect(badScheme.stderr.contains("not file"))
    }
}

/// `haul get` over HTTPS against nginx with a certificate made at test time.
@Suite("haul get over HTTPS")
struct GetCommandHTTPSTests {
    @Test("--ca-certificate makes verification pass; without it the download fails clearly")
    func caCertificate() throws {
        let nginx = try NginxServer.start(files: ["secure.bin": TestPattern.bytes(count: 123_456)])
        defer { nginx.stop() }
        let runner = GetCommandTests()
        let directory = try runner.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = nginx.url("/secure.bin").absoluteString

        let trusted = try runner.haul(["get", "--ca-certificate", nginx.caFile, url], in: directory)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let saved = try Data(contentsOf: directory.appendingPathComponent("secure.bin"))
        #expect(saved.count == 123_456 && TestPattern.matches(saved))

        let untrusted = try runner.haul(["get", "-o", "other.bin", url], in: directory)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("TLS certificate could not be verified"))
        #expect(untrusted.stderr.contains("--ca-certificate"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("other.bin").path))
    }
}
