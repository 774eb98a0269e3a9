import Foundation
import Testing

/// haul loads libcurl as it starts rather than linking it (CCurl): one that cannot be loaded is
/// named, and the run ends with exit status 1 rather than a crash.
@Suite("haul loading libcurl")
struct LibcurlLoadTests {
    @Test("a libcurl.so.4 that is not a library is named, with the package that provides it, and haul exits 1")
    func unloadableLibcurl() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        // Found first through LD_LIBRARY_PATH, before the system's.
        let libraries = directory.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: libraries.appendingPathComponent("libcurl.so.4"))
        let environment = ["LD_LIBRARY_PATH": libraries.path]
        for arguments in [["--version"], ["get", "http://127.0.0.1:1/f"]] {
            let run = try await HaulProcess.run(arguments, in: directory, environment: environment)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("haul: \(libraries.path)/libcurl.so.4: ")
                    && run.stderr.contains("(Debian's package libcurl4 provides it)"),
                "\(arguments): \(run.stderr)")
        }
        // Help needs no libcurl: the engine's thread finds it unloadable and waits for a
        // command that needs it, which never comes.
        let help = try await HaulProcess.run(["--help"], in: directory, environment: environment, keepingStdout: true)
        #expect(help.status == 0 && help.stderr.isEmpty, "\(help.stderr)")
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("USAGE:"))
        let version = try await HaulProcess.run(["--version"], in: directory, keepingStdout: true)
        #expect(version.status == 0 && String(decoding: version.stdout, as: UTF8.self).contains("\nlibcurl "))
    }
}
