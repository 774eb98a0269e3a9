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
            of: data, at: torrent, kind: kind, pieceLength: 256 << 10, trackers: ["http://127.0.0.1:\(port)/announce"])
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

    @Test("-T names a .torrent as aria2c's does, and a queue file names one by its path from here")
    func torrentFileAndQueueFile() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: 2 << 20)
        defer { tracker.stop() }
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        defer { seeder.stop() }
        // Any name does for -T.
        let renamed = directory.appendingPathComponent("release.meta")
        try FileManager.default.copyItem(at: torrent, to: renamed)
        let byFlag = try await HaulProcess.run(
            ["get", "--seed-time=0", "-d", "flag"] + Self.loopback + ["-T", "release.meta"], in: directory)
        #expect(byFlag.status == 0, "\(byFlag.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("flag/data.bin"), size: 2 << 20))
        try Data("data.torrent\n  dir=listed\n".utf8).write(to: directory.appendingPathComponent("queue.txt"))
        let byList = try await HaulProcess.run(
            ["get", "--seed-time=0", "-i", "queue.txt"] + Self.loopback, in: directory)
        #expect(byList.status == 0, "\(byList.stderr)")
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("listed/data.bin"), size: 2 << 20))
        let missing = try await HaulProcess.run(["get", "-T", "nothing.torrent"], in: directory)
        #expect(missing.status != 0)
        #expect(
            missing.stderr.contains("-T/--torrent-file 'nothing.torrent' is not a readable file"), "\(missing.stderr)")
    }

    @Test("aria2c downloads whole a torrent haul seeds; haul stops seeding at ratio 1.0 and exits 0")
    func aria2FromHaul() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: 6 << 20)
        defer { tracker.stop() }
        // haul finds every piece on disk, seeds, and ends once it uploaded the torrent's size. The
        // .torrent beside its data is not a file "-c would continue".
        let beside = seeded.appendingPathComponent("data.torrent")
        try FileManager.default.copyItem(at: torrent, to: beside)
        let (haul, errors) = try HaulProcess.start(
            ["get", "-d", seeded.path] + Self.loopback + [beside.path], in: directory)
        let got = directory.appendingPathComponent("aria2")
        let leecher = try TorrentSwarm.aria2Leecher(of: torrent, into: got)
        #expect(leecher.wait() == 0)
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: 6 << 20))
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        haul.waitUntilExit()
        #expect(haul.terminationStatus == 0, "\(said)")
        #expect(said.contains("seeding"), "\(said)")
        #expect(!said.contains("exists:"), "\(said)")
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

// MARK: - A crash mid-torrent

extension GetCommandTorrentTests {
    @Test("kill -9 mid-torrent: the next run keeps every whole piece on disk, refetches only those in flight")
    func killedMidway() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let size = 48 << 20
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: size)
        defer { tracker.stop() }
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded, extra: ["--max-upload-limit=6M"])
        defer { seeder.stop() }
        let got = directory.appendingPathComponent("got")
        let file = got.appendingPathComponent("data.bin")
        let arguments = ["get", "--seed-time=0", "-d", got.path] + Self.loopback + [torrent.path]
        let (first, errors) = try HaulProcess.start(arguments, in: directory)
        // Killed once a third of the file is on disk, as a crash would.
        let deadline = Date().addingTimeInterval(30)
        while Self.allocated(file) < size / 3, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        let whole = try Self.wholePieces(of: file, pieceLength: 256 << 10)
        #expect(whole > 0)

        let second = try await HaulProcess.run(arguments, in: directory)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(HaulProcess.isWhole(file, size: size))
        // What it said it had at the start: every whole piece, less at most the pieces in flight
        // when it was said (the seeder sends 6 MiB a second, a second between statuses).
        let here = try #require(Self.continuedFrom(second.stderr), "\(second.stderr)")
        #expect(here <= Double(whole), "\(second.stderr)")
        #expect(here >= Double(whole) - Double(7 << 20), "had \(whole) whole; \(second.stderr)")
    }

    @Test("seeding goes on after a restart: the next run finds the torrent whole and seeds until its ratio")
    func seedingAcrossRestart() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let size = 4 << 20
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: size)
        defer { tracker.stop() }
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        let got = directory.appendingPathComponent("got")
        let file = got.appendingPathComponent("data.bin")
        let arguments = ["get", "-d", got.path] + Self.loopback + [torrent.path]
        // Whole, it seeds (ratio 1.0) with no one to seed to; stopped as a user stops it.
        let (first, errors) = try HaulProcess.start(arguments, in: directory)
        let deadline = Date().addingTimeInterval(30)
        while !HaulProcess.isWhole(file, size: size), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        seeder.stop()
        kill(first.processIdentifier, SIGINT)
        first.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(first.terminationStatus == 7, "\(said)")
        // The next run finds it whole and seeds to the one leecher there is (haul is the only
        // seeder now), then ends at ratio 1.0.
        let (second, secondErrors) = try HaulProcess.start(arguments, in: directory)
        let leecher = try TorrentSwarm.aria2Leecher(of: torrent, into: directory.appendingPathComponent("aria2"))
        #expect(leecher.wait() == 0)
        #expect(HaulProcess.isWhole(directory.appendingPathComponent("aria2/data.bin"), size: size))
        let secondSaid = String(decoding: secondErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0, "\(secondSaid)")
        #expect(secondSaid.contains("from 4.0 MiB already here"), "\(secondSaid)")
        #expect(secondSaid.contains("seeding until"), "\(secondSaid)")
    }

    /// Bytes the file takes on disk (its holes aside).
    static func allocated(_ file: URL) -> Int {
        var status = stat()
        guard stat(file.path, &status) == 0 else { return 0 }
        return Int(status.st_blocks) * 512
    }

    /// Bytes of `file` in whole pieces equal to the test pattern's.
    static func wholePieces(of file: URL, pieceLength: Int) throws -> Int {
        let data = try Data(contentsOf: file)
        var whole = 0
        var offset = 0
        while offset < data.count {
            let piece = data[offset..<min(offset + pieceLength, data.count)]
            if TestPattern.matches(piece, offset: offset) { whole += piece.count }
            offset += pieceLength
        }
        return whole
    }

    /// The bytes in "continuing … from 12.3 MiB already here", nil when not said.
    static func continuedFrom(_ text: String) -> Double? {
        guard let match = text.firstMatch(of: /from ([0-9.]+) (B|KiB|MiB|GiB) already here/),
            let number = Double(match.output.1)
        else { return nil }
        let units: [Substring: Double] = ["B": 1, "KiB": 1024, "MiB": 1_048_576, "GiB": 1_073_741_824]
        return number * (units[match.output.2] ?? 1)
    }
}

// MARK: - A hostile peer

extension GetCommandTorrentTests {
    @Test("a seeder sending corrupt pieces: they fail their hash, are fetched again, and the file is whole")
    func corruptSeeder() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let size = 16 << 20
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: size)
        defer { tracker.stop() }
        // A copy with every fourth piece's bytes flipped, seeded without a check, as a hostile
        // or broken peer would.
        let corrupt = directory.appendingPathComponent("corrupt")
        try FileManager.default.createDirectory(at: corrupt, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: seeded.appendingPathComponent("data.bin"))
        for piece in stride(from: 0, to: size, by: 4 * (256 << 10)) { bytes[piece] ^= 0xFF }
        try bytes.write(to: corrupt.appendingPathComponent("data.bin"))
        let hostile = try TorrentSwarm.aria2Seeder(
            of: torrent, in: corrupt, checking: false, extra: ["--bt-seed-unverified=true"])
        defer { hostile.stop() }
        let honest = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded, extra: ["--max-upload-limit=4M"])
        defer { honest.stop() }
        let got = directory.appendingPathComponent("got")
        let run = try await HaulProcess.run(
            ["get", "--seed-time=0", "-d", got.path] + Self.loopback + [torrent.path], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: size))
        #expect(run.stderr.contains("failed their hash and were fetched again"), "\(run.stderr)")
    }
}

// MARK: - A .torrent from a web server

extension GetCommandTorrentTests {
    @Test("an HTTPS answer that is a .torrent is downloaded as its torrent (follow-torrent), or saved as it is")
    func followTorrent() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let (torrent, tracker, seeded, _) = try Self.swarm(directory, size: 2 << 20)
        defer { tracker.stop() }
        let seeder = try TorrentSwarm.aria2Seeder(of: torrent, in: seeded)
        defer { seeder.stop() }
        let nginx = try NginxServer.start(files: ["release.torrent": Array(try Data(contentsOf: torrent))])
        defer { nginx.stop() }
        let url = nginx.url("/release.torrent").absoluteString
        let got = directory.appendingPathComponent("got")
        let run = try await HaulProcess.run(
            ["get", "--seed-time=0", "--ca-certificate", nginx.caFile, "-d", got.path] + Self.loopback + [url],
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(HaulProcess.isWhole(got.appendingPathComponent("data.bin"), size: 2 << 20), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: got.appendingPathComponent("release.torrent").path))

        let kept = directory.appendingPathComponent("kept")
        let plain = try await HaulProcess.run(
            ["get", "--follow-torrent=false", "--ca-certificate", nginx.caFile, "-d", kept.path] + Self.loopback
                + [url], in: directory)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept.path) == ["release.torrent"])
    }
}
