import Foundation
import HaulCore
import Synchronization
import Testing

@testable import haul

/// What `haul get` prints as its downloads run: a line a file saved, what a running attempt
/// shows, and with `-q` nothing but failures.
@Suite("Progress reporter")
struct ProgressReporterTests {
    /// The lines a reporter printed.
    final class Lines: Sendable {
        private let text = Mutex("")
        var all: String { text.withLock { $0 } }
        func append(_ line: String) { text.withLock { $0 += line } }
    }

    /// One download's run: started, a response, a dropped mirror and a hint on the way, saved;
    /// then another that fails.
    private func run(_ reporter: ProgressReporter) {
        var saved = Download(uris: ["http://127.0.0.1/a.bin", "http://127.0.0.1/mirror/a.bin"])
        saved.destination = "/tmp/a.bin"
        var failed = Download(uris: ["http://127.0.0.1/b.bin"])
        reporter.handle(.added([saved, failed]))
        for download in [saved, failed] {
            var active = download
            active.state = .active
            reporter.handle(.stateChanged(active, from: .queued))
        }
        reporter.handle(.activity(id: saved.id, .mirrorDropped("http://127.0.0.1/mirror/a.bin: it answered 404")))
        reporter.handle(.activity(id: saved.id, .hint("the server sends no length")))
        saved.state = .complete
        reporter.handle(.stateChanged(saved, from: .active))
        failed.state = .failed
        failed.lastError = "the server answered 404 Not Found"
        reporter.handle(.stateChanged(failed, from: .active))
    }

    @Test("-q prints the failure alone: no saved file, no dropped mirror, no hint")
    func quiet() {
        let lines = Lines()
        let reporter = ProgressReporter(.init(quiet: true)) { lines.append($0) }
        run(reporter)
        #expect(lines.all == "failed http://127.0.0.1/b.bin: the server answered 404 Not Found\n")
        #expect(reporter.waitUntilDone(count: 2) == (completed: 1, total: 2))
    }

    @Test("without -q the dropped mirror, the saved file with its hint, and the failure are said")
    func plain() {
        let lines = Lines()
        let reporter = ProgressReporter(.init()) { lines.append($0) }
        run(reporter)
        let text = lines.all
        #expect(text.contains("/tmp/a.bin: mirror dropped: http://127.0.0.1/mirror/a.bin: it answered 404"), "\(text)")
        #expect(text.contains("saved /tmp/a.bin (0 B in "), "\(text)")
        #expect(text.contains("); the server sends no length\n"), "\(text)")
        #expect(text.contains("failed http://127.0.0.1/b.bin: the server answered 404 Not Found"), "\(text)")
    }
}
