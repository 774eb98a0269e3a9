import Foundation
import Testing

/// What `--help` and a usage error show a user.
@Suite("haul help")
struct HelpTests {
    @Test("haul --help starts with haul [<url> ...] [-i <file>] [-d <dir>] and lists the exit codes")
    func rootHelp() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await HaulProcess.run(["--help"], in: directory, keepingStdout: true)
        let text = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.status == 0 && text.hasPrefix("USAGE: haul [<url> ...] [-i <file>] [-d <dir>]"), "\(text)")
        #expect(text.contains(" 19  the host name could not be resolved"), "\(text)")
    }

    @Test("haul get --help groups the options by task with short value names")
    func getHelp() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await HaulProcess.run(["get", "--help"], in: directory, keepingStdout: true)
        let text = String(decoding: run.stdout, as: UTF8.self)
        for group in ["BASIC:", "CONNECTIONS:", "RETRIES:", "FILES:", "HTTP:", "PROXY:", "TLS:"] {
            #expect(text.contains("\n\(group)\n"), "\(group) in \(text)")
        }
        #expect(text.contains("-j, --max-concurrent-downloads <n>") && !text.contains("<max-concurrent-downloads>"))
        // With no flags haul splits by itself: -x, -s and -k say so, not aria2's 1, 5 and 20M alone.
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (option, said) in [
            ("-x, --max-connection-per-server <n>", "Default: automatic, 1 then 4 then up to 16"),
            ("-s, --split <n>", "Default: automatic (--split-mode auto)"),
            ("-k, --min-split-size <size>", "Default: 1M while splitting automatically"),
        ] {
            let after = flat.components(separatedBy: option).dropFirst().first ?? ""
            #expect(after.prefix(260).contains(said), "\(option): \(after.prefix(260))")
        }
    }

    @Test("a usage error shows the failing command's usage and exits 28, aria2's bad-option code; -x4 is -x 4")
    func usageError() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let run = try await HaulProcess.run(["get", "--bogus"], in: directory)
        #expect(run.status == 28 && run.stderr.contains("Usage: haul get"), "\(run.stderr)")
        let badValue = try await HaulProcess.run(["get", "-j", "x", "http://127.0.0.1:1/f"], in: directory)
        #expect(badValue.status == 28 && badValue.stderr.contains("Usage: haul get"), "\(badValue.stderr)")
        let joined = try await HaulProcess.run(
            ["get", "-x4", "-j2", "-m1", "--dry-run", "http://127.0.0.1:1/f"], in: directory)
        #expect(joined.status == 6, "\(joined.stderr)")
    }
}
