import Foundation
import HaulTestSupport
import Testing

/// `haul get` with cookie files, conditional gets and remote times, as a user runs it.
@Suite("haul get with cookies and conditional gets")
struct GetCommandCookieTests {
    @Test("--load-cookies sends them to every download; --save-cookies keeps what servers set, mode 0600")
    func cookies() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let jar = directory.appendingPathComponent("jar.txt").path
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc123\n".write(toFile: jar, atomically: true, encoding: .utf8)
        let saved = directory.appendingPathComponent("saved.txt").path
        let run = try await HaulProcess.run(
            [
                "get", "-j", "1", server.url("/cookies?theme=dark").absoluteString,
                server.url("/headers").absoluteString, "--load-cookies", jar, "--save-cookies", saved, "-d", "out",
            ],
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("1 cookie loaded"))
        let echoed = try String(contentsOf: directory.appendingPathComponent("out/headers"), encoding: .utf8)
        #expect(echoed.contains("sid=abc123") && echoed.contains("theme=dark"), "\(echoed)")
        let kept = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(kept.contains("\tsid\tabc123") && kept.contains("\ttheme\tdark"))
        #expect(try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? Int == 0o600)

        let missing = try await HaulProcess.run(
            ["get", server.url("/bytes/1").absoluteString, "--load-cookies", "/nonexistent/jar"], in: directory)
        #expect(missing.status == 28 && missing.stderr.contains("--load-cookies"))
    }

    @Test("-R then --conditional-get: the second run transfers nothing and keeps the file")
    func conditionalRun() async throws {
        let server = try FaultServer.shared()
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let key = UUID().uuidString
        let url = server.url("/file/40000?key=\(key)").absoluteString
        let first = try await HaulProcess.run(["get", "-R", url], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let path = directory.appendingPathComponent("40000").path
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(modified == Date(timeIntervalSince1970: 1_788_256_800))
        let second = try await HaulProcess.run(["get", "--conditional-get", url], in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("up to date"), "\(second.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["40000"])
        #expect(server.fileRequests.requests(for: key).count == 2)
    }
}
