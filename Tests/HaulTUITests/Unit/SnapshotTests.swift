import Foundation
import HaulCore
import Testing

@testable import HaulTUI

/// Whole frames as text, at the sizes people use and at the smallest that works.
@Suite("Snapshots")
struct SnapshotTests {
    @Test("the queue at 120×40, 80×24 and 40×12", arguments: [(120, 40), (80, 24), (40, 12)])
    func queue(size: (Int, Int)) {
        let state = Fixtures.state(width: size.0, height: size.1)
        expectSnapshot(ScreenRenderer.render(state), named: "queue-\(size.0)x\(size.1)")
    }

    @Test("the detail pane of a failed download")
    func detail() {
        var state = Fixtures.state(width: 100, height: 30)
        _ = state.reduce(.keys([.down, .down, .down, .down, .enter]))
        expectSnapshot(ScreenRenderer.render(state), named: "detail-failed-100x30")
    }

    @Test("at 80×24 a running download's 8 connections all show, its earlier error muted and wrapped whole")
    func detailAt80x24() {
        var running = Fixtures.download(1, name: "big.iso", state: .active, total: 64 << 20, done: 8 << 20)
        running.attempts = 2
        running.lastError =
            "could not connect to the server: Failed to connect to 127.0.0.1 port 8443 after 0 ms: Couldn't "
            + "connect to server; check that the server is up and the port is right"
        let segments = (0..<8).map { index in
            DownloadActivity.Segment(
                range: Int64(index) * (8 << 20)..<Int64(index + 1) * (8 << 20), written: 1 << 20,
                mirror: "https://example.com/files/big.iso", speed: 2_097_152)
        }
        var state = Fixtures.state(width: 80, height: 24, [running], speeds: [running.id: 16_777_216])
        _ = state.reduce(.queue(.activity(id: running.id, .connections(8, segments: segments))))
        _ = state.reduce(.keys([.enter]))
        let screen = ScreenRenderer.render(state)
        expectSnapshot(screen, named: "detail-running-80x24")
        #expect((1...8).allSatisfy { screen.text.contains("connection \($0)") })
        #expect(screen.text.contains("port is right") && screen.text.contains("earlier error"))
        let errorRow =
            screen.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains("earlier error")
            } ?? 0
        #expect(screen[20, errorRow].role == .muted)
    }

    @Test("the selected row is highlighted and keeps its progress bar")
    func selectedRowKeepsBar() {
        let state = Fixtures.state(width: 80, height: 24)
        let grid = ScreenRenderer.render(state)
        let roles = (0..<grid.width).map { grid[$0, AppState.listTop].role }
        #expect(roles.contains(.progressDone) || roles.contains(.progressTodo), "\(roles)")
        #expect(roles.filter { $0 == .selectedRow }.count > grid.width / 2)
    }

    @Test("the detail pane of a split download: its live connections, why so many, and a dropped mirror")
    func splitDetail() {
        var split = Fixtures.download(
            1, name: "big.iso", state: .active, total: 64 << 20, done: 20 << 20)
        split.uris.append("https://mirror.example.org/big.iso")
        split.uris.append("https://gone.example.net/big.iso")
        split.completed = ByteRanges([0..<(12 << 20), (32 << 20)..<(36 << 20), (48 << 20)..<(52 << 20)])
        let segments = [
            DownloadActivity.Segment(
                range: 0..<(32 << 20), written: 12 << 20, mirror: "https://example.com/files/big.iso", speed: 16_777_216
            ),
            DownloadActivity.Segment(
                range: (32 << 20)..<(48 << 20), written: 4 << 20, mirror: "https://mirror.example.org/big.iso",
                speed: 25_165_824),
            DownloadActivity.Segment(
                range: (48 << 20)..<(64 << 20), written: 4 << 20, mirror: "https://mirror.example.org/big.iso",
                speed: 8_388_608),
        ]
        var state = Fixtures.state(width: 100, height: 30, [split], speeds: [split.id: 50_331_648])
        _ = state.reduce(.queue(.activity(id: split.id, .connections(3, segments: segments))))
        _ = state.reduce(
            .queue(
                .activity(id: split.id, .mirrorDropped("https://gone.example.net/big.iso: it answered 404 Not Found"))))
        _ = state.reduce(.queue(.activity(id: split.id, .splitChoice("3 connections: the server refused more (503)"))))
        _ = state.reduce(.keys([.enter]))
        expectSnapshot(ScreenRenderer.render(state), named: "detail-split-100x30")
    }

    @Test(
        "a filter shows in the header; a waiting row's detail: its file name as title, where it goes, the error wrapped"
    )
    func filterAndWaitingDetail() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = state.reduce(.keys([.character("/")] + "list".map { .character($0) } + [.enter, .enter]))
        expectSnapshot(ScreenRenderer.render(state), named: "filter-detail-80x24")
    }

    @Test("with a bandwidth schedule the header says when the limit changes and to what, as room allows")
    func schedule() throws {
        let now = Date(timeIntervalSince1970: 1_795_500_000)
        let status = BandwidthScheduler.Status(
            limit: 1_048_576, nextChange: now.addingTimeInterval(3 * 3600), nextLimit: nil)
        var wide = Fixtures.state(width: 120, height: 40)
        var narrow = Fixtures.state(width: 80, height: 24)
        for index in [0, 1] {
            var state = index == 0 ? wide : narrow
            state.timeZone = try #require(TimeZone(identifier: "UTC"))
            _ = state.reduce(.tick(now))
            _ = state.reduce(.scheduledLimit(status))
            if index == 0 { wide = state } else { narrow = state }
        }
        let wideHeader = ScreenRenderer.render(wide).line(0)
        #expect(wideHeader.hasSuffix("limit 1.0 MiB/s until 09:00, then none "), "\(wideHeader)")
        expectSnapshot(ScreenRenderer.render(narrow), named: "schedule-80x24")
        _ = narrow.reduce(.scheduledLimit(BandwidthScheduler.Status(limit: nil, nextChange: nil, nextLimit: nil)))
        #expect(narrow.message?.text == "bandwidth schedule: no limit", "a change after the first is told")
    }

    @Test("the help screen at 80×24 scrolls to every key; a stray key keeps it; ?, Esc or q close it")
    func help() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = state.reduce(.keys([.character("?")]))
        expectSnapshot(ScreenRenderer.render(state), named: "help-80x24")
        _ = state.reduce(.keys([.character("x"), .end]))
        #expect(state.mode == .help)
        expectSnapshot(ScreenRenderer.render(state), named: "help-80x24-end")
        let shown = ScreenRenderer.render(state).text
        for binding in state.keyMap.bindings.suffix(3) {
            #expect(shown.contains(String(binding.help.prefix(40))), "\(binding.help)")
        }
        _ = state.reduce(.keys([.pageUp, .home]))
        #expect(state.helpScroll == 0 && state.mode == .help)
        _ = state.reduce(.keys([.character("q")]))
        for close in [Key.character("?"), .escape, .character("q")] {
            _ = state.reduce(.keys([.character("?"), .pageDown, close]))
            #expect(state.mode == .normal && state.helpScroll == 0, "\(close)")
        }
    }

    @Test("below 40×12 a note says the terminal is too small")
    func tooSmall() {
        let state = Fixtures.state(width: 30, height: 8)
        expectSnapshot(ScreenRenderer.render(state), named: "too-small-30x8")
    }

    @Test("a prompt and a question on the message line")
    func prompts() {
        var state = Fixtures.state(width: 80, height: 24)
        _ = state.reduce(.keys([.character("a")] + "https://example.com/x.iso".map { .character($0) }))
        expectSnapshot(ScreenRenderer.render(state), named: "prompt-add-80x24")
        _ = state.reduce(.keys([.escape, .character("d")]))
        expectSnapshot(ScreenRenderer.render(state), named: "confirm-remove-80x24")
    }
}
