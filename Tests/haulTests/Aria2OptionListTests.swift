import Foundation
import Testing

@testable import haul

// MARK: - Aria2OptionListTests

/// docs/aria2-options.md is what `haul --generate-aria2-options` makes from the tables haul reads.
@Suite("aria2 option list")
struct Aria2OptionListTests {
    @Test("docs/aria2-options.md is current (HAUL_RECORD_SNAPSHOTS=1 rewrites it)")
    func current() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/aria2-options.md")
        if ProcessInfo.processInfo.environment["HAUL_RECORD_SNAPSHOTS"] == "1" {
            try Aria2OptionList.markdown.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == Aria2OptionList.markdown)
        #expect(Aria2OptionList.treatment(of: "split") == "a download's own")
        #expect(Aria2OptionList.treatment(of: "max-concurrent-downloads") == "the whole queue's; changes live")
        #expect(Aria2OptionList.treatment(of: "file-allocation") == "accepted and ignored, with one warning")
        #expect(Aria2OptionList.treatment(of: "bt-max-peers") == "accepted and ignored: BitTorrent")
    }
}
