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
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/aria2-options.md")
        if ProcessInfo.processInfo.environment["HAUL_RECORD_SNAPSHOTS"] == "1" {
            try Aria2OptionList.markdown.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == Aria2OptionList.markdown)
        #expect(Aria2OptionList.treatment(of: "split").hasPrefix("a download's own; a change applies at the next"))
        #expect(Aria2OptionList.treatment(of: "split").hasSuffix("haul's value: `5`"))
        #expect(Aria2OptionList.treatment(of: "max-download-limit").contains("a change applies at once"))
        #expect(Aria2OptionList.treatment(of: "max-concurrent-downloads") == "the whole queue's; changes live")
        #expect(Aria2OptionList.treatment(of: "file-allocation").hasPrefix("accepted and ignored, with one warning: "))
        #expect(Aria2OptionList.treatment(of: "enable-rpc").hasSuffix("served by `haul daemon`"))
        #expect(
            Aria2OptionList.treatment(of: "bt-request-peer-speed-limit")
                == "accepted and ignored: BitTorrent (libtorrent decides it)")
    }
}
