import HaulCore
@testable import HaulTUI
import Testing

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

    @Test("the help screen lists every key")
    func help() {
        var state = Fixtures.state(width: 80, height: 34)
        _ = state.reduce(.keys([.character("?")]))
        expectSnapshot(ScreenRenderer.render(state), named: "help-80x34")
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
