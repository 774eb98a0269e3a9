import Dispatch
import Foundation
import HaulCore
import HaulNet
import Synchronization

// MARK: - ProgressReporter

/// Prints `haul get` progress to stderr: on a terminal one status line redrawn four times a
/// second, otherwise one plain line a second; a line per finished or failed download; a summary.
///
/// **Threading:** every method is safe from any thread; the status line is drawn by the thread
/// blocked in `waitUntilDone`.
final class ProgressReporter: Sendable {
    private struct Entry {
        var name: String
        var done: Int64 = 0
        var expected: Int64 = -1
        var ended = false
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var completed = 0
        var failed = 0
        var lastTotal: Int64 = 0
        var lastTick = ContinuousClock.now
        var speed: Double = 0
        var lineShown = false
    }

    private let quiet: Bool
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private let state = Mutex(State())
    private let endings = DispatchSemaphore(value: 0)

    init(quiet: Bool) {
        self.quiet = quiet
    }

    // MARK: - Events

    func started(_ download: AnyObject, name: String, expected: Int64) {
        state.withLock { $0.entries[ObjectIdentifier(download)] = Entry(name: TextSanitizer.visible(name), expected: expected) }
    }

    func progress(_ download: AnyObject, done: Int64, expected: Int64) {
        state.withLock { state in
            state.entries[ObjectIdentifier(download)]?.done = done
            state.entries[ObjectIdentifier(download)]?.expected = expected
        }
    }

    func completed(_ download: AnyObject, path: String) {
        let (size, seconds) = state.withLock { state -> (Int64, Double) in
            state.completed += 1
            state.entries[ObjectIdentifier(download)]?.ended = true
            return (state.entries[ObjectIdentifier(download)]?.done ?? 0, elapsed())
        }
        let rate = seconds > 0 ? ByteCount.format(Int64(Double(size) / seconds)) + "/s" : "-"
        if !quiet { emit("saved \(TextSanitizer.visible(path)) (\(ByteCount.format(size)) in \(String(format: "%.2f", seconds)) s, \(rate))") }
        endings.signal()
    }

    func failed(_ download: AnyObject, url: URL, reason: String) {
        state.withLock { state in
            state.failed += 1
            state.entries[ObjectIdentifier(download)]?.ended = true
        }
        emit("failed \(TextSanitizer.visible(url.redactedString)): \(TextSanitizer.visible(reason))")
        endings.signal()
    }

    /// Blocks until `count` downloads have ended, drawing the status line meanwhile, then
    /// prints the summary.
    func waitUntilDone(count: Int) {
        let interval: DispatchTimeInterval = isTerminal ? .milliseconds(250) : .seconds(1)
        var nextTick = DispatchTime.now() + interval
        var remaining = count
        while remaining > 0 {
            if endings.wait(timeout: nextTick) == .success { remaining -= 1 }
            if DispatchTime.now() >= nextTick {
                if !quiet { tick() }
                nextTick = DispatchTime.now() + interval
            }
        }
        let (completed, failed) = state.withLock { ($0.completed, $0.failed) }
        if count > 1, !quiet { emit("\(count) downloads: \(completed) saved, \(failed) failed") }
    }

    // MARK: - Printing

    private func elapsed() -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func tick() {
        let line = state.withLock { state -> String? in
            let active = state.entries.values.filter { !$0.ended }
            guard !active.isEmpty else { return nil }
            let done = active.reduce(0) { $0 + $1.done }
            let now = ContinuousClock.now
            let interval = now - state.lastTick
            let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
            let instant = seconds > 0 ? Double(max(0, done - state.lastTotal)) / seconds : 0
            state.speed = state.speed == 0 ? instant : state.speed * 0.6 + instant * 0.4
            state.lastTotal = done
            state.lastTick = now
            state.lineShown = isTerminal
            return ProgressReporter.statusLine(active: active.map { ($0.name, $0.done, $0.expected) }, speed: state.speed)
        }
        guard let line else { return }
        FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }

    /// `name  45.1 MiB / 1.0 GiB  4%  812.3 MiB/s  ETA 0:12` (or `3 active` for several).
    static func statusLine(active: [(name: String, done: Int64, expected: Int64)], speed: Double) -> String {
        let done = active.reduce(0) { $0 + $1.done }
        let known = active.allSatisfy { $0.expected >= 0 }
        let expected = active.reduce(0) { $0 + max($1.expected, 0) }
        var parts = [active.count == 1 ? active[0].name : "\(active.count) active"]
        if known, expected > 0 {
            parts.append("\(ByteCount.format(done)) / \(ByteCount.format(expected))")
            parts.append("\(done * 100 / expected)%")
        } else {
            parts.append(ByteCount.format(done))
        }
        parts.append(ByteCount.format(Int64(speed)) + "/s")
        if known, speed > 0, expected > done {
            let eta = Int(Double(expected - done) / speed)
            parts.append(String(format: "ETA %d:%02d", eta / 60, eta % 60))
        }
        return parts.joined(separator: "  ")
    }

    /// Prints a whole line, clearing the status line first on a terminal.
    private func emit(_ line: String) {
        state.withLock { state in
            let clear = state.lineShown ? "\r\u{1B}[K" : ""
            state.lineShown = false
            FileHandle.standardError.write(Data((clear + line + "\n").utf8))
        }
    }
}
