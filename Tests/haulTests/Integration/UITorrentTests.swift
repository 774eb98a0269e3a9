import Foundation
import HaulTestSupport
import Testing

/// A torrent in the full-screen UI, as a person uses one: `i` with a .torrent, its row's
/// swarm columns, its detail pane (files, the aria2c seeder among the peers by its client's name), a file skipped
/// with `]` and `f`, then seeding stopped with `S`; on loopback, an aria2c seeder and
/// opentracker.
@Suite(
    "haul full-screen UI: torrents", .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct UITorrentTests {
    @Test("i adds a .torrent; its row and pane show the swarm and files; ] f skip a file; S stops seeding")
    func torrent() async throws {
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let swarm = try DaemonTorrentTests.Swarm(in: directory)
        defer { swarm.stop() }
        // Slow enough to be looked at while it downloads.
        let tmux = try TmuxSession.haul(
            [
                "-d", "dl", "--enable-dht=false", "--interface=127.0.0.1", "--listen-port=0",
                "--max-overall-download-limit=600K",
            ], in: directory)
        #expect(await tmux.wait { $0.contains("the queue is empty") }.held)
        try tmux.send("i")
        try tmux.send("-l", swarm.torrent.path)
        try tmux.send("Enter")
        let row = await tmux.wait { $0.contains("S/P") && $0.contains("▶ active  album") }
        #expect(row.held, "\(row.text)")
        try tmux.send("Enter")
        let pane = await tmux.wait {
            $0.contains("files (2)") && $0.contains("aria2/1.36") && $0.contains("pieces")
        }
        #expect(pane.held, "\(pane.text)")
        // The second file (a.bin: the torrent lists disc/b.bin first) is skipped.
        try tmux.send("]")
        try tmux.send("f")
        let skipped = await tmux.wait { $0.contains("▸[ ] album/a.bin") }
        #expect(skipped.held, "\(skipped.text)")
        let seeding = await tmux.wait(seconds: 30) { $0.contains("▲ seeding album") }
        #expect(seeding.held, "\(seeding.text)")
        try tmux.send("S")
        let done = await tmux.wait { $0.contains("✔ done    album") }
        #expect(done.held, "\(done.text)")
        try tmux.send("q")
        #expect(await tmux.wait { $0.contains("EXIT=0") }.held)
        let saved = directory.appendingPathComponent("dl/album/disc/b.bin")
        #expect(
            FileManager.default.contentsEqual(
                atPath: saved.path, andPath: directory.appendingPathComponent("seeded/album/disc/b.bin").path))
    }
}
