import Foundation
import Testing

@testable import HaulTUI

/// docs/screens.md is made of the snapshot tests' frames, so it shows what haul draws today;
/// `HAUL_RECORD_SNAPSHOTS=1` rewrites it with them.
@Suite("docs/screens.md")
struct ScreensDocumentTests {
    /// Each section: its title, what it shows, and the snapshot it holds.
    static let sections: [(title: String, text: String, snapshot: String)] = [
        (
            "120×40",
            "Every state, a CJK name, an emoji, a long name cut in the middle, and a hostile name whose escape "
                + "sequence is drawn as text. A failed row says why in the progress column, a row waiting to retry "
                + "says when; the header adds the bytes received of all known sizes and the overall ETA.",
            "queue-120x40"
        ),
        (
            "80×24", "The name column shrinks first; the function bar drops less used keys but keeps Help and Quit.",
            "queue-80x24"
        ),
        (
            "40×12",
            "Columns drop in order: connections, ETA, size, the bar, speed. The header shows the counts that fit "
                + "whole, and the totals instead of the graph.",
            "queue-40x12"
        ),
        (
            "A filter and the detail pane, 80×24",
            "The filter shows in the header; the detail pane is titled by the file name, says where the file goes "
                + "(the directory and the name `out=` gives), and wraps the last error whole.",
            "filter-detail-80x24"
        ),
        (
            "A running download's detail pane, 80×24",
            "The pane is as tall as its lines when the queue leaves room: all 8 connections show. The error of an "
                + "earlier attempt is history, so it is muted (not red), and wrapped whole.",
            "detail-running-80x24"
        ),
        (
            "The detail pane of a split download, 100×30",
            "Each live connection with its range, progress, speed and mirror; a dropped mirror and why; the map of "
                + "the byte ranges.",
            "detail-split-100x30"
        ),
        (
            "The login prompt, 80×24",
            "`u` on a download its server refused (it is said once: no prompt opens by itself). A label longer "
                + "than half the row wraps above the text, which gets the whole row.",
            "prompt-login-80x24"
        ),
        (
            "Help, 80×24",
            "Every key, its words wrapped beside it. It scrolls (↑ ↓ PgUp PgDn Home End); only ?, Esc or q close "
                + "it.",
            "help-80x24"
        ),
        ("Help, scrolled to the end, 80×24", "", "help-80x24-end"),
    ]

    static var markdown: String {
        let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Snapshots")
        var text = """
            # haul: the screens

            The full-screen queue at the sizes people use, as text. These are the snapshot tests' frames
            (`Tests/HaulTUITests/Snapshots/`), so they are what haul draws today; a test checks that this file
            holds them, and `HAUL_RECORD_SNAPSHOTS=1 swift test --filter 'Snapshot|Screens'` rewrites both after
            a change to the views, to be looked at before they are committed.

            """
        for section in sections {
            let frame =
                (try? String(contentsOf: snapshots.appendingPathComponent(section.snapshot + ".txt"), encoding: .utf8))
                ?? "(missing snapshot \(section.snapshot))\n"
            text += "\n## \(section.title)\n\n"
            if !section.text.isEmpty {
                text += ScreenRenderer.wrap(section.text, width: 100).joined(separator: "\n") + "\n\n"
            }
            text += "```\n" + frame + "```\n"
        }
        return text
    }

    @Test("docs/screens.md holds the current snapshots (HAUL_RECORD_SNAPSHOTS=1 rewrites it)")
    func current() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/screens.md")
        if ProcessInfo.processInfo.environment["HAUL_RECORD_SNAPSHOTS"] == "1" {
            try Self.markdown.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.markdown)
    }
}
