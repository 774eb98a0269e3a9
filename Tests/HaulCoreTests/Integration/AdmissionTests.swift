import Foundation
import HaulNet
import HaulTestSupport
import HaulText
import Testing

@testable import HaulCore

/// What runs when: the per-host cap, and the queue order as the user rearranges it.
@Suite("Admission")
struct AdmissionTests {
    /// The index in `events` of the first change of `id` satisfying `condition`.
    private func firstIndex(_ events: [DownloadEvent], _ id: GID, _ condition: (Download) -> Bool) -> Int? {
        events.firstIndex { event in
            if case .stateChanged(let download, _) = event { return download.id == id && condition(download) }
            return false
        }
    }

    @Test("a full host holds its downloads back while later ones from another host run")
    func hostCap() async throws {
        let stalledServer = try FaultServer.shared()
        let fastServer = try FaultServer.start()
        defer { fastServer.shutdown() }
        let harness = try QueueHarness(maxConcurrent: 4, maxPerHost: 1)
        defer { harness.cleanUp() }
        // The first answers 1000 bytes and then nothing: its host stays full for the whole test.
        let held = try (0..<3).map { _ in try harness.add(stalledServer.url("/file/400000?key=\(UUID())&stall=1000")) }
        let fast = try (0..<3).map { _ in try harness.add(fastServer.url("/file/1000?key=\(UUID())")) }
        #expect(await harness.recorder.wait(for: fast))
        #expect(fast.allSatisfy { harness.recorder.latest($0)?.state == .complete })
        #expect(harness.recorder.latest(held[0])?.state == .active)
        #expect(
            held.dropFirst().allSatisfy { harness.recorder.latest($0)?.state == .queued },
            "the full host's other downloads wait")

        var active: [String: Set<GID>] = [:]
        var most = 0
        for event in harness.recorder.events {
            guard case .stateChanged(let download, _) = event, let uri = download.uris.first else { continue }
            let host = QueueCore.hostKey(uri)
            if download.state == .active {
                active[host, default: []].insert(download.id)
            } else {
                active[host]?.remove(download.id)
            }
            most = max(most, active[host]?.count ?? 0)
        }
        #expect(most == 1)
        for id in held { harness.queue.cancel(id) }
        #expect(await harness.recorder.wait(for: held))
    }

    @Test("the host key is scheme, host and port (none for the scheme's own), without user info or case")
    func hostKey() {
        #expect(QueueCore.hostKey("HTTPS://User:pw@Example.COM:8443/a?b") == "https://example.com:8443")
        #expect(QueueCore.hostKey("http://example.com") == "http://example.com")
        #expect(QueueCore.hostKey("ftp://a@b@host/x#y") == "ftp://host")
        // The scheme's own port is the same host as none (`Origin`).
        #expect(QueueCore.hostKey("HTTP://Host:80?q=1") == "http://host")
        #expect(QueueCore.hostKey("http://h#frag") == "http://h")
        #expect(QueueCore.hostKey("Not A URI") == "not a uri")
        // Only ASCII folds; offsets past multi-byte characters land where they belong.
        #expect(QueueCore.hostKey("HTTP://Ünï:pw@HÖST.test/ä") == "http://hÖst.test")
        #expect(URIText.shown("http://Ünï:pw@HÖST.test/ä", includingSecrets: false) == "http://Ünï@HÖST.test/ä")
        #expect(URIText.withoutUserInfo("ftp://ü@é@h/ß") == "ftp://h/ß")
    }

    @Test("a download moved to the top starts before those it passed; moves are events")
    func move() async throws {
        let server = try FaultServer.shared()
        let harness = try QueueHarness(maxConcurrent: 1)
        defer { harness.cleanUp() }
        let first = try harness.add(server.url("/file/300000?key=\(UUID())&pace=65536"))
        let waiting = try (0..<3).map { _ in try harness.add(server.url("/file/1000?key=\(UUID())")) }
        harness.queue.move(waiting[2], .top)
        harness.queue.move(waiting[0], .bottom)
        harness.queue.move(waiting[1], .down)
        harness.queue.move(first, .up)
        #expect(harness.queue.ids == [first, waiting[2], waiting[0], waiting[1]])
        #expect(await harness.recorder.wait(for: [first] + waiting))
        let events = harness.recorder.events
        #expect(events.contains(.moved(id: waiting[2], to: 0)))
        let started = [waiting[2], waiting[0], waiting[1]].map { id in
            firstIndex(events, id) { $0.state == .active } ?? -1
        }
        #expect(started == started.sorted() && !started.contains(-1), "admitted in the new order")
    }
}
