import Dispatch
import Foundation
import HaulCore
import HaulNet
import Synchronization

// MARK: - ProgressReporter

/// Prints headless progress to stderr from a `DownloadQueue`'s events: on a terminal one status
/// line redrawn four times a second, otherwise one plain line a second (done/total, speed,
/// ETA, active count); a line per saved, retried or failed download; a summary.
///
/// **Threading:** `handle` runs on the queue's callback queue; the status line is drawn by the
/// thread blocked in `waitUntilDone`.
final class ProgressReporter: Sendable {
    /// Only the active downloads are kept whole; the rest are counted, so a queue of 100,000
    /// costs the reporter nothing per waiting download.
    private struct State {
        var active: [String: Download] = [:]
        var added = 0
        var completed = 0
        var ended: Set<String> = []
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

    func handle(_ event: DownloadEvent) {
        guard case .changed(let download) = event else {
            if case .added(let downloads) = event { state.withLock { $0.added += downloads.count } }
            return
        }
        let previous = state.withLock { state -> Download? in
            defer {
                if download.state == .active { state.active[download.id] = download }
            }
            return download.state == .active ? state.active[download.id] : state.active.removeValue(forKey: download.id)
        }
        // Only what is shown is formatted: with -q most events show nothing.
        var label: String { TextSanitizer.visible(download.destination ?? download.displayURI) }
        if download.state.isFinal, state.withLock({ $0.ended.insert(download.id).inserted }) {
            switch download.state {
            case .complete:
                state.withLock { $0.completed += 1 }
                if !quiet {
                    report(download.response?.statusCode == 304
                           ? "up to date: \(label) (not modified on the server; nothing transferred)"
                           : "saved \(label) (\(ByteCount.format(download.bytesDone)) in \(elapsedText()))"
                               + (download.hint.map { "; \($0)" } ?? ""))
                }
            default:
                var reason = TextSanitizer.visible(download.lastError ?? download.state.rawValue)
                if let partial = download.partialPath, download.bytesDone > 0, !reason.contains(partial),
                   FileManager.default.fileExists(atPath: partial) {
                    reason += " (received data kept in \(TextSanitizer.visible(partial)))"
                }
                report("failed \(TextSanitizer.visible(download.displayURI)): \(reason)")
            }
            endings.signal()
        }
        // A mirror given up on is said once, whether or not the file still completes.
        for dropped in download.droppedMirrors.dropFirst(previous?.droppedMirrors.count ?? 0) {
            report("\(label): mirror dropped: \(TextSanitizer.visible(dropped))")
        }
        if download.state == .queued, previous?.state == .active, let error = download.lastError, !quiet {
            report("retrying \(label) after attempt \(download.attempts): \(TextSanitizer.visible(error))")
        }
    }

    /// Blocks until `count` downloads have ended, drawing the status line meanwhile; returns how
    /// many completed.
    func waitUntilDone(count: Int) -> Int {
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
        let completed = state.withLock { $0.completed }
        if count > 1, !quiet { report("\(count) downloads: \(completed) saved, \(count - completed) failed, in \(elapsedText())") }
        return completed
    }

    // MARK: - Printing

    private func elapsedText() -> String {
        let duration = ContinuousClock.now - start
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f s", seconds)
    }

    private func tick() {
        let line = state.withLock { state -> String? in
            let active = Array(state.active.values)
            guard !active.isEmpty else { return nil }
            state.lineShown = isTerminal
            let waiting = state.added - state.ended.count - active.count
            return ProgressReporter.statusLine(active: active, waiting: waiting)
        }
        guard let line else { return }
        FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }

    /// `name  45.1 MiB / 1.0 GiB  4%  812.3 MiB/s  ETA 0:12` (or `3 active` for several).
    static func statusLine(active: [Download], waiting: Int) -> String {
        let done = active.reduce(0) { $0 + $1.bytesDone }
        let known = active.allSatisfy { $0.totalBytes >= 0 }
        let expected = active.reduce(0) { $0 + max($1.totalBytes, 0) }
        let speed = active.reduce(0) { $0 + $1.speed }
        let name = active.count == 1 ? URL(fileURLWithPath: active[0].destination ?? "?").lastPathComponent : "\(active.count) active"
        var parts = [TextSanitizer.visible(name)]
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
        if waiting > 0 { parts.append("\(waiting) waiting") }
        return parts.joined(separator: "  ")
    }

    /// Prints a whole line, clearing the status line first on a terminal.
    func report(_ line: String) {
        state.withLock { state in
            let clear = state.lineShown ? "\r\u{1B}[K" : ""
            state.lineShown = false
            FileHandle.standardError.write(Data((clear + line + "\n").utf8))
        }
    }
}
