import Foundation
import Testing

/// haul grows its table of file descriptors as it starts, while it is one thread: grown later,
/// in a process of several threads, each growth waits for an RCU grace period (10 to 17 ms on a
/// virtual machine), and the thread that opened the 65th descriptor (the engine's, in a run of
/// small files) stood still meanwhile.
@Suite("the descriptor table")
struct DescriptorTableTests {
    @Test("a running haul has room for 1024 descriptors (or its limit) before it opens its 65th")
    func grownAtStart() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory)
        defer { daemon.stop() }
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        let size = status.split(separator: "\n").first { $0.hasPrefix("FDSize:") }
            .flatMap { Int($0.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)) }
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/fd")
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let expected = Int(min(1024, limit.rlim_cur))
        // Grown by use alone, the table would reach 1024 slots only past 512 descriptors open:
        // the daemon has far fewer, so the table is as big as haul made it at start.
        #expect(open.count <= 512, "\(open.count) descriptors open")
        #expect(size == expected, "\(status)")
    }
}
