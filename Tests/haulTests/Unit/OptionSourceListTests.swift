import Foundation
import Testing

@testable import haul

// MARK: - OptionSourceListTests

/// docs/safety.md carries what `haul --generate-option-sources` makes from the option table.
@Suite("Option source list")
struct OptionSourceListTests {
    @Test("docs/safety.md's table of who may set an option is current (HAUL_RECORD_SNAPSHOTS=1 rewrites it)")
    func current() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/safety.md")
        let text = try String(contentsOf: file, encoding: .utf8)
        let (start, end) = OptionSourceList.markers
        let before = try #require(text.range(of: start + "\n"), "docs/safety.md has no '\(start)'")
        let after = try #require(text.range(of: end, range: before.upperBound..<text.endIndex))
        if ProcessInfo.processInfo.environment["HAUL_RECORD_SNAPSHOTS"] == "1" {
            let rewritten = text.replacingCharacters(
                in: before.upperBound..<after.lowerBound, with: OptionSourceList.markdown)
            try rewritten.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(String(text[before.upperBound..<after.lowerBound]) == OptionSourceList.markdown)
        #expect(OptionSourceList.markdown.contains("| `all-proxy` | it moves where downloads"))
        #expect(
            OptionSourceList.markdown.contains("| `allow-overwrite` | it can replace a file that is there | yes | no |")
        )
    }
}
