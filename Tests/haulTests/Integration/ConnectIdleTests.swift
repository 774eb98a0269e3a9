import Foundation
import HaulTestSupport
import Testing

// MARK: - ConnectIdleTests

/// `haul --connect` on an idle queue costs what an idle local UI does: a poll or two a second
/// (and at once when the daemon's WebSocket announces a change), never a loop of calls. Counted
/// through a link emulator between the UI and the daemon, over 10 s, against `haul daemon` and
/// against `aria2c --enable-rpc`.
@Suite(
    "haul --connect at rest", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct ConnectIdleTests {
    /// The calls the UI attached through `link` made in 10 s, and its processor time meanwhile.
    private static func idleCost(through link: LinkEmulator, in directory: URL) async throws -> (Int, Double) {
        let session = try TmuxSession.haul(
            ["--connect", "http://127.0.0.1:\(link.port)/jsonrpc", "--rpc-secret", "sesame"], in: directory)
        let attached = await session.wait { $0.contains("attached to http://127.0.0.1:\(link.port)/jsonrpc") }
        #expect(attached.held, "\(attached.text)")
        let pid = try #require(session.program())
        // The first polls and the WebSocket's opening are over within a second.
        try await Task.sleep(for: .seconds(1))
        let (calls, processor) = (link.requests.count, TmuxSession.processorSeconds(of: pid) ?? 0)
        // The window measured, not a wait for something to happen.
        try await Task.sleep(for: .seconds(10))
        let used = (TmuxSession.processorSeconds(of: pid) ?? .infinity) - processor
        try session.send("q")
        return (link.requests.count - calls, used)
    }

    @Test("an idle attached UI makes at most 3 calls a second and uses under 3% of a core: haul daemon, aria2c")
    func idleOnBoth() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let daemon = try await DaemonProcess.start(in: directory, ["--rpc-secret", "sesame"])
        defer { daemon.stop() }
        let aria2 = try await Aria2cProcess(saving: directory.appendingPathComponent("aria2"))
        defer { aria2.stop() }
        for (name, port) in [("haul daemon", daemon.port), ("aria2c", aria2.port)] {
            let link = try LinkEmulator(targetPort: port)
            defer { link.shutdown() }
            let view = directory.appendingPathComponent("view-\(port)")
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: true)
            let (calls, processor) = try await Self.idleCost(through: link, in: view)
            #expect(calls <= 30, "\(name): \(calls) calls in 10 s")
            #expect(processor < 0.3, "\(name): \(processor) s of processor time in 10 s")
        }
    }
}
