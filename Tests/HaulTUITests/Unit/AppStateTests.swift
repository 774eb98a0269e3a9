import HaulCore
import Testing

@testable import HaulTUI

/// The view model: every key and queue event as a pure state change plus effects.
@Suite("View model")
struct AppStateTests {
    private func keys(_ text: String) -> [Key] { text.map { .character($0) } }

    @Test("queue events keep counts, order, speed and selection")
    func events() {
        var state = Fixtures.state()
        #expect(state.counts[.active] == 2 && state.counts[.paused] == 1 && state.counts[.failed] == 1)
        #expect(state.visible == state.order && state.order.count == 8)
        #expect(state.selected == Fixtures.mixed[0].id)
        #expect(state.totalSpeed == 12_582_912 + 4_194_304)
        #expect(state.speedHistory.count == 8)

        var finished = Fixtures.mixed[0]
        finished.state = .complete
        _ = state.reduce(.queue(.stateChanged(finished, from: .active)))
        #expect(state.counts[.active] == 1 && state.counts[.complete] == 2)
        #expect(state.totalSpeed == 4_194_304)

        _ = state.reduce(.queue(.moved(id: Fixtures.mixed[6].id, to: 0)))
        #expect(state.order.first == Fixtures.mixed[6].id && state.selectedIndex == 1)

        _ = state.reduce(.queue(.removed(id: Fixtures.mixed[0].id)))
        #expect(state.order.count == 7 && state.selected == state.visible[1])
    }

    @Test("moving: arrows, j/k, pages, Home/End, click and wheel, all clamped")
    func moving() {
        let many = (1...100).map { Fixtures.download($0, name: "file\($0).bin") }
        var state = Fixtures.state(width: 80, height: 24, many)
        _ = state.reduce(.keys([.down, .character("j"), .character("j")]))
        #expect(state.selectedIndex == 3)
        _ = state.reduce(.keys([.character("k")]))
        #expect(state.selectedIndex == 2)
        _ = state.reduce(.keys([.pageDown]))
        #expect(state.selectedIndex == 2 + state.listHeight)
        _ = state.reduce(.keys([.end]))
        #expect(state.selectedIndex == 99 && state.scrollTop == 100 - state.listHeight)
        _ = state.reduce(.keys([.down, .down]))
        #expect(state.selectedIndex == 99)
        _ = state.reduce(.keys([.home, .up]))
        #expect(state.selectedIndex == 0 && state.scrollTop == 0)
        _ = state.reduce(.keys([.click(row: AppState.listTop + 4)]))
        #expect(state.selectedIndex == 4)
        _ = state.reduce(.keys([.wheelDown]))
        #expect(state.selectedIndex == 7)
        _ = state.reduce(.keys([.resize(width: 80, height: 12)]))
        #expect(state.height == 12 && state.selectedIndex! - state.scrollTop < state.listHeight)
    }

    @Test("pause, resume, cancel and retry ask the queue, or say why not")
    func commands() {
        var state = Fixtures.state()
        let ids = Fixtures.mixed.map(\.id)
        #expect(state.reduce(.keys([.character(" ")])) == [.pause([ids[0]])])
        _ = state.reduce(.keys([.down, .down]))
        #expect(state.reduce(.keys([.character("p")])) == [.resume([ids[2]])])
        #expect(state.reduce(.keys([.character("c")])) == [.cancel(ids[2])])
        #expect(state.reduce(.keys([.character("r")])) == [])
        #expect(state.message?.isError == true)
        _ = state.reduce(.keys([.down, .down]))
        #expect(state.reduce(.keys([.character("r")])) == [.retry([ids[4]])])
        #expect(state.reduce(.keys([.character("R")])) == [.retry([ids[4]])])
        #expect(state.reduce(.keys([.character("P")])) == [.pause([ids[0], ids[1], ids[5], ids[7]])])
        #expect(state.reduce(.keys([.character("+")])) == [.move(ids[4], .up)])
        #expect(state.reduce(.keys([.character("-")])) == [.move(ids[4], .down)])
        #expect(state.reduce(.keys([.character("t")])) == [.cycleTheme])
    }

    @Test("r says it retries; a download that fails again says so and why, and the detail counts the retries")
    func retriedFailsAgain() throws {
        var state = Fixtures.state()
        let failed = Fixtures.mixed[4]
        _ = state.reduce(.keys([.down, .down, .down, .down]))
        #expect(state.reduce(.keys([.character("r")])) == [.retry([failed.id])])
        #expect(state.message?.text == "retrying \(failed.shownName)" && state.message?.isError == false)
        for times in 1...2 {
            var again = failed
            again.state = .active
            _ = state.reduce(.queue(.stateChanged(again, from: .failed)))
            again.state = .failed
            again.lastError = "the server answered 404 Not Found"
            _ = state.reduce(.queue(.stateChanged(again, from: .active)))
            let said = times == 1 ? "failed again" : "failed again (retried 2 times)"
            let why = again.failureNote ?? "the server answered 404 Not Found"
            #expect(state.message?.text == "\(failed.shownName) \(said): \(why)")
            #expect(state.message?.isError == true)
            let shown = try #require(state.selectedDownload)
            let detail = DetailView.lines(of: shown, in: state, width: 120).map(\.text).joined(separator: "\n")
            #expect(detail.contains(times == 1 ? "(retried by hand)" : "(retried by hand 2 times)"), "\(detail)")
            if times == 1 { _ = state.reduce(.keys([.character("R")])) }
        }
    }

    @Test("on a tall screen the detail pane follows a short queue's rows, not the bottom of the screen")
    func detailFollowsRows() {
        var state = Fixtures.state(width: 200, height: 50, Array(Fixtures.mixed.prefix(2)))
        _ = state.reduce(.keys([.enter]))
        #expect(state.showDetail && state.detailTop == AppState.listTop + 2)
        var full = Fixtures.state(
            width: 80, height: 24, (1...30).map { Fixtures.download($0, name: "f\($0)", state: .queued) })
        _ = full.reduce(.keys([.enter]))
        #expect(full.detailTop == AppState.listTop + full.listHeight)
    }

    @Test("remove and quit ask first; anything but y keeps things")
    func confirmations() {
        var state = Fixtures.state()
        #expect(state.reduce(.keys([.character("d")])) == [])
        #expect(state.reduce(.keys([.character("n")])) == [])
        #expect(state.mode == .normal)
        #expect(
            state.reduce(.keys([.character("D"), .character("y")])) == [.remove(Fixtures.mixed[0].id, deleteFile: true)]
        )
        #expect(state.reduce(.keys([.character("q")])) == [])
        #expect(state.mode == .confirm(.quit(active: 2)))
        #expect(state.reduce(.keys([.character("y")])) == [.quit])

        var idle = Fixtures.state([Fixtures.download(1, name: "a", state: .complete)])
        #expect(idle.reduce(.keys([.character("q")])) == [.quit])
    }

    @Test("the add prompt edits a line; a paste of several URLs adds them all; bad ones are named")
    func addPrompt() {
        var state = Fixtures.state()
        _ = state.reduce(.keys([.character("a")] + keys("http://a/1")))
        _ = state.reduce(
            .keys([.left, .backspace, .character("2"), .end, .character("x"), .home, .delete, .character("h")]))
        guard case .prompt(let prompt) = state.mode else { Issue.record("no prompt"); return }
        #expect(String(prompt.text) == "http://a21x" && prompt.cursor == 1)
        _ = state.reduce(.keys([.escape]))

        let paste: [Key] =
            [.character("a")] + keys("https://x/1") + [.enter] + keys("https://x/2") + [.enter]
            + keys("file:///etc/passwd")
        _ = state.reduce(.keys(paste))
        #expect(state.reduce(.keys([.enter])) == [.add(["https://x/1", "https://x/2"])])
        #expect(state.message?.isError == true && state.message?.text.contains("file") == true)
    }

    @Test("the filter applies as it is typed; Esc clears it; sort cycles")
    func filterAndSort() {
        var state = Fixtures.state()
        _ = state.reduce(.keys([.character("/")] + keys("ISO")))
        #expect(
            state.visible.map { state.downloads[$0].map { AppState.name(of: $0) } ?? "" } == [
                "debian-12.4.0-amd64-netinst.iso", "broken.iso",
            ])
        _ = state.reduce(.keys([.enter]))
        #expect(state.filter == "ISO" && state.mode == .normal)
        #expect(state.reduce(.keys([.character("+")])) == [.move(state.selected!, .up)])
        _ = state.reduce(.keys([.character("/"), .escape]))
        #expect(state.filter.isEmpty && state.visible.count == 8)
        // Esc clears it outside the prompt too; a URL added meanwhile says the filter may hide it.
        _ = state.reduce(.keys([.character("/")] + keys("ISO") + [.enter, .character("a")] + keys("http://a/x")))
        _ = state.reduce(.keys([.enter]))
        #expect(state.message?.text == "added 1 download; the filter 'ISO' may hide it: Esc clears it")
        #expect(state.reduce(.keys([.escape])) == [])
        #expect(state.filter.isEmpty && state.visible.count == 8)
        #expect(state.message?.text == "filter cleared: showing all 8")

        _ = state.reduce(.keys([.character("s")]))
        #expect(state.sort == .name)
        #expect(state.reduce(.keys([.character("+")])) == [])
        _ = state.reduce(.keys([.character("s"), .character("s")]))
        #expect(state.sort == .speed && state.visible.first == Fixtures.mixed[0].id)
        _ = state.reduce(.keys([.character("s")]))
        #expect(state.sort == .size && state.visible.first == Fixtures.mixed[1].id)
    }

    @Test("limits take sizes, 0 for none, and refuse nonsense")
    func limits() {
        var state = Fixtures.state()
        #expect(state.reduce(.keys([.character("L")] + keys("2M") + [.enter])) == [.setGlobalLimit(2_097_152)])
        #expect(state.globalLimit == 2_097_152)
        // An attached daemon's limit, set there by any client, is shown as it is, without a word.
        let said = state.message
        #expect(state.reduce(.daemonLimit(409_600)) == [] && state.limitSummary(.none) == "limit 400.0 KiB/s")
        #expect(state.reduce(.daemonLimit(nil)) == [] && state.limitSummary(.none) == "no limit")
        #expect(state.message == said)
        #expect(state.reduce(.keys([.character("l")] + keys("0") + [.enter])) == [.setLimit(Fixtures.mixed[0].id, nil)])
        let name = Fixtures.mixed[0].shownName
        #expect(state.message?.text == "no limit for \(name)")
        _ = state.reduce(.keys([.character("l")] + keys("500K") + [.enter]))
        #expect(state.message?.text == "limit for \(name): 500.0 KiB/s", "a message that changes a download names it")
        #expect(state.reduce(.keys([.character("L")] + keys("fast") + [.enter])) == [])
        #expect(state.message?.isError == true)
        // The advice first, within 80 columns: only a long entry is cut at the line's end.
        #expect(state.message?.text == "use a speed such as 500K or 2M (0: no limit), not 'fast'")
    }

    @Test("a hundred thousand downloads: events and moves stay cheap, the frame draws only what shows")
    func large() {
        let many = (0..<100_000).map { Fixtures.download($0, name: "f\($0)") }
        var state = Fixtures.state(width: 120, height: 40, many)
        _ = state.reduce(.keys([.end]))
        #expect(state.selectedIndex == 99_999)
        let grid = ScreenRenderer.render(state)
        #expect(grid.line(AppState.listTop + state.listHeight - 1).contains("f99999"))
    }

    @Test("C clears every ended row after a yes; the ids are those ended when answered")
    func clearEnded() {
        var state = Fixtures.state()
        #expect(state.reduce(.keys([.character("C")])) == [])
        #expect(state.mode == .confirm(.clearEnded(count: 3)))
        #expect(state.reduce(.keys([.character("n")])) == [] && state.mode == .normal)
        _ = state.reduce(.keys([.character("C")]))
        var finished = Fixtures.mixed[0]
        finished.state = .complete
        _ = state.reduce(.queue(.stateChanged(finished, from: .active)))
        let ended = [Fixtures.mixed[0].id, Fixtures.mixed[3].id, Fixtures.mixed[4].id, Fixtures.mixed[6].id]
        #expect(state.reduce(.keys([.character("y")])) == [.removeRows(ended)])

        var idle = Fixtures.state([Fixtures.download(1, name: "a", state: .active)])
        #expect(idle.reduce(.keys([.character("C")])) == [] && idle.mode == .normal)
        #expect(idle.message?.text == "no ended rows to clear")
    }

    @Test("a message fades after 5 s, an error after 10 s")
    func messagesFade() {
        var state = Fixtures.state()
        _ = state.reduce(.notice("imported 3", isError: false))
        for _ in 0..<4 { _ = state.reduce(.tick(Fixtures.now)) }
        #expect(state.message?.text == "imported 3")
        _ = state.reduce(.tick(Fixtures.now))
        #expect(state.message == nil)
        _ = state.reduce(.notice("broken", isError: true))
        for _ in 0..<9 { _ = state.reduce(.tick(Fixtures.now)) }
        #expect(state.message?.text == "broken")
        _ = state.reduce(.tick(Fixtures.now))
        #expect(state.message == nil)
    }

    @Test("u on a finished download does nothing but say so")
    func credentialsOnFinished() {
        var state = Fixtures.state()
        _ = state.reduce(.keys([.down, .down, .down]))
        #expect(state.selectedDownload?.state == .complete)
        #expect(state.reduce(.keys([.character("u")])) == [] && state.mode == .normal)
        #expect(state.message?.isError == true)
        #expect(state.message?.text.hasPrefix("\(state.selectedDownload?.shownName ?? "?") is complete") == true)
    }

    @Test("the totals follow every change: bytes received, sizes known, bytes still to come")
    func totals() {
        var state = Fixtures.state([
            Fixtures.download(1, name: "a", state: .active, total: 1000, done: 200),
            Fixtures.download(2, name: "b", state: .complete, total: 500, done: 500),
            Fixtures.download(3, name: "c", total: -1),
        ])
        #expect(state.totals == AppState.Totals(done: 700, size: 1500, remaining: 800))
        var more = Fixtures.download(1, name: "a", state: .active, total: 1000, done: 600)
        _ = state.reduce(.queue(Fixtures.progress(more)))
        #expect(state.totals == AppState.Totals(done: 1100, size: 1500, remaining: 400))
        more.state = .failed
        _ = state.reduce(.queue(.stateChanged(more, from: .active)))
        #expect(state.totals.remaining == 0)
        _ = state.reduce(.queue(.removed(id: more.id)))
        #expect(state.totals == AppState.Totals(done: 500, size: 500, remaining: 0))
    }

    @Test("a queued row held back by full slots says so when selected")
    func heldBack() {
        var state = AppState(width: 80, height: 24, maxConcurrentDownloads: 1)
        _ = state.reduce(
            .queue(
                .added([
                    Fixtures.download(1, name: "a", state: .active),
                    Fixtures.download(2, name: "b"),
                ])))
        #expect(BottomBarView.heldBack(state) == nil)
        _ = state.reduce(.keys([.down]))
        #expect(BottomBarView.heldBack(state) == "b waits for a free slot: 1 of 1 downloads run (-j)")
        // Streams of an HTTP/2 connection beyond -j are said as such.
        _ = state.reduce(.queue(.added([Fixtures.download(3, name: "c", state: .active)])))
        #expect(
            BottomBarView.heldBack(state)
                == "b waits for a free slot: 1 of 1 downloads run (-j), and 1 more as HTTP/2 streams")
    }

    @Test("small files that end in one write each still show in the header's speed: what arrived over a tick")
    func speedOfSmallFiles() {
        let files = (1...40).map { Fixtures.download($0, name: "f\($0)", state: .active, total: 16384) }
        var state = Fixtures.state(width: 120, height: 40, files, speeds: [:])
        _ = state.reduce(.tick(Fixtures.now))
        #expect(state.totalSpeed == 0)
        // Each arrives whole and ends, showing no speed of its own.
        for file in files {
            var done = file
            done.completed = ByteRanges([0..<16384])
            done.state = .complete
            _ = state.reduce(.queue(.stateChanged(done, from: .active)))
        }
        _ = state.reduce(.tick(Fixtures.now.addingTimeInterval(2)))
        #expect(state.totalSpeed == Double(40 * 16384) / 2)
        // Nothing more arrives: the next tick says so.
        _ = state.reduce(.tick(Fixtures.now.addingTimeInterval(3)))
        #expect(state.totalSpeed == 0)
    }
}
