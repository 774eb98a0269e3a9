import Foundation
import HaulTestSupport
import Testing

/// A download keeps every option it was started with: `haul get` with no arguments continues it
/// with its certificate authority, headers and limits, whatever the new command line says.
@Suite("haul get: options kept across a restart", .serialized)
struct GetCommandKeptOptionsTests {
    @Test("a download started with --ca-certificate, killed, is continued by a bare haul get over HTTPS")
    func certificateKept() async throws {
        let size = 3 << 20
        let nginx = try NginxServer.start(files: ["kept.bin": TestPattern.bytes(count: size)])
        defer { nginx.stop() }
        // 512 KiB/s: the first run is killed with most of the file still to come.
        let link = try LinkEmulator(targetPort: nginx.port, shape: LinkEmulator.Shape(bytesPerSecond: 512 << 10))
        defer { link.shutdown() }
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let partial = directory.appendingPathComponent("out/kept.bin.part")
        try await HaulProcess.killed(
            [
                "get", link.url("/kept.bin"), "--ca-certificate", nginx.caFile, "-d", "out", "--header",
                "X-Kept: yes", "--resumable-above=0", "--checkpoint-interval", "0.2",
            ],
            in: directory, once: partial, holds: 256 << 10)
        let left = (try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int) ?? 0
        #expect(left > 0 && left < size, "killed with \(left) bytes")

        let continued = try await HaulProcess.run(["get"], in: directory)
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stderr.contains("continu"), "\(continued.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("out/kept.bin"), size: size))
    }
}
