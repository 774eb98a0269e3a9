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

    @Test("two downloads of 9e18 bytes each at absurd speeds: the status line is drawn, not trapped on")
    func extremeNumbers() {
        var first = Download(uris: ["http://127.0.0.1/a.bin"])
        first.totalBytes = 9_000_000_000_000_000_000
        first.completed = ByteRanges([0..<8_999_999_999_999_999_999])
        var second = first
        second.completed = ByteRanges([0..<1])
        let line = ProgressReporter.statusLine(active: [(first, 1e-300), (second, .infinity)], waiting: 1)
        #expect(line.contains("2 active") && line.contains("/s"))
        let slow = ProgressReporter.statusLine(active: [(second, 1e-300)], waiting: 0)
        #expect(slow.contains("ETA"))
    }

    @Test("small files that show no speed of their own: the status line says what the run received")
    func receivedSpeed() {
        var file = Download(uris: ["http://127.0.0.1/f.bin"])
        file.totalBytes = 16384
        let idle = ProgressReporter.statusLine(active: [(file, 0), (file, 0)], waiting: 400)
        #expect(idle.contains("0 B/s"), "\(idle)")
        let line = ProgressReporter.statusLine(active: [(file, 0), (file, 0)], waiting: 400, received: 2_097_152)
        #expect(line.contains("2.0 MiB/s"), "\(line)")
        // A faster sum of the active downloads' own speeds wins.
        let fast = ProgressReporter.statusLine(active: [(file, 4_194_304)], waiting: 0, received: 2_097_152)
        #expect(fast.contains("4.0 MiB/s"), "\(fast)")
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

    /// A count shared between threads.
    final class Count: Sendable {
        private let value = Mutex(0)
        var current: Int { value.withLock { $0 } }
        func add() { value.withLock { $0 += 1 } }
    }

    /// `count` downloads added to `reporter`, and a thread that ends them one by one, 20 ms
    /// apart, counting each in `sent` before the reporter hears of it.
    private func endOneByOne(_ count: Int, _ reporter: ProgressReporter, sent: Count) {
        let downloads = (0..<count).map { _ in Download(uris: ["http://127.0.0.1/f.bin"]) }
        reporter.handle(.added(downloads))
        Thread.detachNewThread {
            for download in downloads {
                Thread.sleep(forTimeInterval: 0.02)
                var complete = download
                complete.state = .complete
                sent.add()
                reporter.handle(.stateChanged(complete, from: .active))
            }
        }
    }

    @Test("the waiting thread runs nearEnd once, when the given number of downloads is still to end")
    func nearEndRunsOnce() {
        let reporter = ProgressReporter(.init(quiet: true)) { _ in }
        let sent = Count()
        let seen = Lines()
        endOneByOne(6, reporter, sent: sent)
        let result = reporter.waitUntilDone(count: 6, nearEnd: (2, { seen.append("\(sent.current) ") }))
        #expect(result == (completed: 6, total: 6))
        #expect(seen.all == "4 ")
    }

    @Test("nearEnd does not run when fewer downloads than it names are left as the wait begins")
    func nearEndSkipped() {
        let reporter = ProgressReporter(.init(quiet: true)) { _ in }
        let seen = Lines()
        endOneByOne(3, reporter, sent: Count())
        let result = reporter.waitUntilDone(count: 3, nearEnd: (8, { seen.append("ran") }))
        #expect(result == (completed: 3, total: 3))
        #expect(seen.all.isEmpty)
    }
}
