import Foundation
import HaulCore
import Testing

@testable import HaulTUI

// MARK: - ExtremeNumbersTests

/// Sizes and speeds no honest server sends (a hostile one, a store another program wrote, a
/// daemon on the other end of `--connect`) are summed and drawn without a trap.
@Suite("extreme numbers on the screen")
struct ExtremeNumbersTests {
    private static let huge: Int64 = 9_000_000_000_000_000_000

    @Test("two downloads of 9e18 bytes: the totals hold at Int64.max and every view draws")
    func hugeSizes() {
        let downloads = [
            Fixtures.download(1, name: "a", state: .active, total: Self.huge, done: Self.huge - 1),
            Fixtures.download(2, name: "b", state: .active, total: Self.huge, done: 1),
            Fixtures.download(3, name: "c", state: .paused, total: .max, done: .max),
        ]
        var state = Fixtures.state(
            width: 80, height: 24, downloads, speeds: [gid(1): 1e300, gid(2): .infinity, gid(3): .nan])
        #expect(state.totals.size == .max)
        #expect(state.totals.done == .max)
        for keys in [[Key](), [.enter], [.down, .enter], [.down, .down, .enter]] {
            _ = state.reduce(.keys(keys))
            let frame = ScreenRenderer.render(state)
            #expect(!frame.text.isEmpty)
        }
        // Taken away again, each download leaves exactly what the others hold.
        _ = state.reduce(.queue(.removed(id: gid(1))))
        _ = state.reduce(.queue(.removed(id: gid(3))))
        #expect(state.totals == AppState.Totals(done: 1, size: Self.huge, remaining: Self.huge - 1))
    }

    @Test("a duration or a speed past any integer is drawn, not trapped on")
    func formatting() {
        #expect(ScreenRenderer.duration(1e300) == "∞")
        #expect(ScreenRenderer.duration(.nan) == "0:00")
        #expect(ScreenRenderer.speed(.infinity).hasSuffix("/s"))
    }
}
