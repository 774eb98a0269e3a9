import Foundation
import HaulTestSupport
import Testing

/// `haul get` with torrents, on loopback, with the real peers users meet: aria2c seeding and
/// leeching, libtorrent seeding v2 and hybrid torrents (which aria2c cannot read), and Debian's
/// opentracker introducing them. No DHT: peers meet only through the tracker or a magnet's x.pe.
@Suite("haul get: torrents", .serialized)
struct GetCommandTorrentTests {
    /// What every run here gives: no DHT, any free port on loopback.
    static let loopback = ["--enable-dht=false", "--interface=127.0.0.1", "--listen-port=0"]

    /// A folder with `data.bin` (`size` bytes of the test pattern) and its torrent of `kind`,
    /// announcing to a tracker that knows it; returns the torrent, the tracker and the data's folder.
    static func swarm(
        _ directory: URL, size: Int, kind: TorrentSwarm.Kind = .v1
    ) throws -> (torrent: URL, tracker: Tracker, seeded: URL, hash: String) {
        let seeded = directory.appendingPathComponent("seeded")
        try FileManager.default.createDirectory(at: seeded, withIntermediateDirectories: true)
        let data = seeded.appendingPathComponent("data.bin")
        FileManager.default.createFile(atPath: data.path, contents: nil)
        let handle = try FileHandle(forWritingTo: data)
        var offset = 0
        while offset < size {
            let count = min(1 << 20, size - offset)
            try handle.write(contentsOf: TestPattern.bytes(offset: offset, count: count))
            offset += count
        }
        try handle.close()
        // The tracker's port is in the torrent: it starts first, whitelisting a hash learnt after.
        let trackerFolder = directory.appendingPathComponent("tracker")
        let port = try LoopbackPort.free()
        let torrent = directory.appendingPathComponent("data.torrent")
        let hash = try TorrentSwarm.makeTorrent(
            of: data, at: torrent, kind: kind, trackers: ["http://127.0.0.1:\(port)/announce"])
        let tracker = try TorrentSwarm.tracker(for: [String(hash.prefix(40))], in: trackerFolder, port: port)
        return (torrent, tracker, seeded, hash)
    }

    @Test("a .torrent aria2c seeds downloads whole through the tracker, and haul exits 0 with --seed-time=0")
    func fromAria2() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: 8 << 20)
        defer { tracker.stop() }
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        defer { seeder.stop() }
        let got = directory.appendingPathComponent("got")
        let run = try await HaulProcess.run(
            ["get", "--seed-time=0", "-d", got.path] + Self.loopback + [torrent.path], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("saved \(got.path)/data.bin"), "\(run.stderr)")
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: 8 << 20))
    }

    @Test("aria2c downloads whole a torrent haul seeds; haul stops seeding at ratio 1.0 and exits 0")
    func aria2FromHaul() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: 6 << 20)
        defer { tracker.stop() }
        // haul finds every piece on disk, seeds, and ends once it uploaded the torrent's size.
        let (haul, errors) = try HaulProcess.start(
            ["get", "-d", seeded.path] + Self.loopback + [torrent.path], in: directory)
        let got = directory.appendingPathComponent("aria2")
        let leecher = try TorrentSwarm.aria2Leecher(of: torrent, into: got)
        #expect(leecher.wait() == 0)
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: 6 << 20))
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        haul.waitUntilExit()
        #expect(haul.terminationStatus == 0, "\(said)")
        #expect(said.contains("seeding"), "\(said)")
    }

    @Test(
        "BitTorrent v2 and hybrid torrents (which aria2c cannot read) download whole from libtorrent",
        arguments: [TorrentSwarm.Kind.v2, .hybrid])
    func v2AndHybrid(kind: TorrentSwarm.Kind) async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: 5 << 20, kind: kind)
        defer { tracker.stop() }
        let seeder = try TorrentSwarm.libtorrentSeeder(of: torrent, in: seeded)
        defer { seeder.stop() }
        let got = directory.appendingPathComponent("got")
        let run = try await HaulProcess.run(
            ["get", "--seed-time=0", "-d", got.path] + Self.loopback + [torrent.path], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: 5 << 20))
    }

    @Test("a magnet link with the seeder as x.pe fetches its metadata from aria2c, then the file")
    func magnetWithPeer() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, hash) = try Self.swarm(directory, size: 3 << 20)
        tracker.stop()
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        defer { seeder.stop() }
        let got = directory.appendingPathComponent("got")
        let magnet = "magnet:?xt=urn:btih:\(hash)&dn=data.bin&x.pe=\(seeder.address)"
        let run = try await HaulProcess.run(
            ["get", "--seed-time=0", "-d", got.path] + Self.loopback + [magnet], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: 3 << 20))
    }

    @Test("a .torrent that is not one, and a magnet link without a hash, fail with what was wrong")
    func badInput() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let bad = directory.appendingPathComponent("bad.torrent")
        try Data("d8:announce3:abce".utf8).write(to: bad)
        let run = try await HaulProcess.run(["get"] + Self.loopback + [bad.path], in: directory)
        #expect(run.status == 26, "\(run.stderr)")
        #expect(run.stderr.contains("bad.torrent: not a usable .torrent"), "\(run.stderr)")
        let magnet = try await HaulProcess.run(["get", "magnet:?dn=nothing"], in: directory)
        #expect(magnet.status != 0)
        #expect(magnet.stderr.contains("magnet link without a BitTorrent hash"), "\(magnet.stderr)")
    }
}
