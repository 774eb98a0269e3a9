import Foundation
import HaulTestSupport
import HaulTorrent
import Synchronization
import Testing

@Suite("A libtorrent session on loopback, with aria2c in the swarm", .serialized)
struct TorrentSessionTests {
    /// Settings for tests: loopback only, no discovery.
    static let loopback = TorrentSettings(listenInterfaces: "127.0.0.1:0", enableDHT: false)

    @Test("a torrent aria2c seeds downloads whole, and the session says it finished")
    func leechesFromAria2() throws {
        let folder = try ScratchDirectory.make("leech")
        let seeded = folder.appendingPathComponent("seed")
        try FileManager.default.createDirectory(at: seeded, withIntermediateDirectories: true)
        let content = Array(TestPattern.bytes(count: 3_000_000))
        try Data(content).write(to: seeded.appendingPathComponent("data.bin"))
        let torrent = folder.appendingPathComponent("data.torrent")
        _ = try TorrentSwarm.makeTorrent(of: seeded.appendingPathComponent("data.bin"), at: torrent)
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        defer { seeder.stop() }

        let events = EventLog()
        let session = try TorrentSession(settings: Self.loopback, statusInterval: 0.2) { events.append($0) }
        defer { session.close() }
        var addition = TorrentAddition(
            key: 7, source: .metainfo(Array(try Data(contentsOf: torrent))),
            savePath: folder.appendingPathComponent("got").path)
        addition.peers = [seeder.address]
        try session.add(addition)
        try events.wait(upTo: 60) { $0.contains(.finished(7)) }
        let got = try Data(contentsOf: folder.appendingPathComponent("got/data.bin"))
        #expect(Array(got) == content)
        let files = try #require(session.files(of: 7))
        #expect(files.map(\.done) == [3_000_000])
    }
}

/// The events a session handed out, and a wait for one that a test expects.
final class EventLog: Sendable {
    private let events = Mutex<[TorrentEvent]>([])
    private let changed = Condition()

    func append(_ event: TorrentEvent) {
        events.withLock { $0.append(event) }
        changed.signal()
    }

    var all: [TorrentEvent] { events.withLock { $0 } }

    /// Waits until `done` holds of the events (checked as each arrives), up to `seconds`.
    func wait(upTo seconds: Double, until done: ([TorrentEvent]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let seen = changed.generation
            if done(all) { return }
            guard changed.wait(after: seen, until: deadline) else {
                throw TimedOut(description: "no such event within \(seconds) s; had \(all.suffix(5))")
            }
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }
}

/// A condition variable with a deadline.
final class Condition: Sendable {
    private let condition = NSCondition()
    private let count = Mutex(0)

    func signal() {
        condition.lock()
        count.withLock { $0 += 1 }
        condition.broadcast()
        condition.unlock()
    }

    /// How many signals were sent so far.
    var generation: Int { count.withLock { $0 } }

    /// Waits for a signal after the `seen`th; false when `deadline` passed first.
    func wait(after seen: Int, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count.withLock({ $0 }) == seen {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }
}
