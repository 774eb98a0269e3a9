import Dispatch
import Foundation
import HaulCore
import HaulNet
import HaulTUI
import HaulText
import Synchronization

// MARK: - ProgressReporter

/// Prints headless progress to stderr from a `DownloadQueue`'s events: on a terminal one status
/// line redrawn four times a second and fitted to its width, otherwise one plain line a second
/// (done/total, speed, ETA, active count); a line per saved, retried or failed download (with
/// `verbose`, each response's hops and headers); a summary.
///
/// **Threading:** `handle` runs on the queue's callback queue; the status line is drawn by the
/// thread blocked in `waitUntilDone`.
final class ProgressReporter: Sendable {
    /// Only the active downloads are kept whole; the rest are counted, so a queue of 100,000
    /// costs the reporter nothing per waiting download.
    private struct State {
        var active: [GID: Followed] = [:]
        var added = 0
        var completed = 0
        /// The bytes of the files saved (a download resumed counts whole).
        var savedBytes: Int64 = 0
        /// Downloads that ended (each ends once: haul get retries nothing by hand).
        var ended = 0
        /// How many endings `waitUntilDone` waits for, once it waits: more when downloads are
        /// added meanwhile (the files of a Metalink an answer was).
        var awaited: Int?
        /// The ending at which the waiting thread is woken early, once (`nearEnd`).
        var nearEndAt: Int?
        var lineShown = false
        /// aria2's code for the last download that failed.
        var lastErrorCode: ErrorCode?
        /// Bytes received by every download of the run, and their speed over the last two
        /// seconds: small files end in one write each, before they show a speed of their own.
        var received: Int64 = 0
        var receivedSample: SpeedSample?
        var receivedSpeed: Double = 0

        /// Counts what `download` gained since `before`.
        mutating func count(_ download: Download, after before: Download) {
            received = received.adding(saturating: download.bytesGained(since: before))
        }
    }

    /// An active download as the reporter follows it.
    private struct Followed {
        var download: Download
        var speed: Double = 0
        /// The last response's status and protocol (`HTTP/2`, `FTP`…), and the attempt's hint.
        var statusCode: Int?
        var protocolName: String?
        var hint: String?
        /// Whether the last response said the server takes ranges (`ResponseSummary.offersRanges`).
        var offersRanges = true
        /// Whether what a torrent had when it started was said.
        var torrentStartSaid = false
        /// A torrent's bytes that failed their hash (a bad peer's), fetched again.
        var failedBytes: Int64 = 0

        mutating func follow(_ progress: DownloadProgress) {
            download.completed = progress.completed
            download.totalBytes = progress.totalBytes
            speed = progress.speed
        }
    }

    /// What the run prints besides errors.
    struct Verbosity {
        var quiet = false
        /// Each response's hops and headers.
        var verbose = false
        /// A dry run: an answer is a found file, not a saved one.
        var dryRun = false
    }

    private let verbosity: Verbosity
    private var quiet: Bool { verbosity.quiet }
    /// Whether running downloads are followed (for the status line, a saved file's line, the
    /// responses `--verbose` prints): with `-q` alone nothing of them is shown, and a run of a
    /// thousand small files would keep each one's copy and progress for nothing.
    private var followsRunning: Bool { !verbosity.quiet || verbosity.verbose }
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private let state = Mutex(State())
    private let endings = DispatchSemaphore(value: 0)
    /// Where the lines go: standard error.
    private let write: @Sendable (String) -> Void

    init(
        _ verbosity: Verbosity,
        writingTo write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.verbosity = verbosity
        self.write = write
    }

    /// aria2's code for the last download that failed, or nil when none did.
    var lastErrorCode: ErrorCode? { state.withLock { $0.lastErrorCode } }

    // MARK: - Events

    func handle(_ event: DownloadEvent) {
        switch event {
        case .added(let downloads):
            // Saved or paused entries will not run: they are not waiting.
            let runnable = downloads.count { $0.state == .queued || $0.state == .active }
            state.withLock { $0.added += runnable }
        case .stateChanged(let download, let from):
            changed(download, from: from)
        case .updated(let download):
            guard followsRunning else { return }
            state.withLock { $0.active[download.id]?.download = download }
        case .progress(let id, let progress):
            guard followsRunning else { return }
            state.withLock { state in
                guard var followed = state.active[id] else { return }
                let before = followed.download
                followed.follow(progress)
                state.count(followed.download, after: before)
                state.active[id] = followed
            }
        case .activity(let id, let change):
            guard followsRunning else { return }
            followed(id, change)
        case .moved, .removed:
            break
        }
    }

    /// A download's state changed: saved, failed, or tried again.
    private func changed(_ download: Download, from: Download.State) {
        let followed = state.withLock { state -> Followed? in
            guard followsRunning else { return nil }
            if download.state == .active {
                state.active[download.id, default: Followed(download: download)].download = download
                return nil
            }
            let followed = state.active.removeValue(forKey: download.id)
            if let followed { state.count(download, after: followed.download) }
            return followed
        }
        // Only what is shown is formatted: with -q most events show nothing.
        var label: String { self.label(of: download) }
        switch download.state {
        case .complete:
            let completed = state.withLock { state in
                state.completed += 1
                state.savedBytes = state.savedBytes.adding(saturating: max(download.bytesDone, 0))
                return state.completed
            }
            // A long list is summed up at the end, as wget2 does; -v lists every file.
            let listed = verbosity.verbose || completed <= GetCommand.shownFirst
            if !listed {
                if completed == GetCommand.shownFirst + 1, !quiet {
                    let outcome = verbosity.dryRun ? "found" : "saved"
                    report("…the other files \(outcome) are counted at the end (-v lists each)")
                }
            } else if verbosity.dryRun {
                let size = download.totalBytes >= 0 ? ByteCount.format(download.totalBytes) : "size unknown"
                report("found \(label) (\(size)): \(TextSanitizer.visible(download.displayURI))")
            } else if !quiet {
                report(
                    followed?.statusCode == 304
                        ? "up to date: \(label) (not modified on the server; nothing transferred)"
                        : "saved \(label) (\(ByteCount.format(download.bytesDone)) in \(elapsedText())"
                            + (followed?.protocolName.map { " over \($0)" } ?? "") + ")"
                            + (followed?.hint.map { "; \($0)" } ?? "")
                            + ((followed?.failedBytes ?? 0) > 0
                                ? "; \(ByteCount.format(followed?.failedBytes ?? 0)) from peers failed their hash and were "
                                    + "fetched again" : ""))
            }
        case .failed, .cancelled:
            var reason = TextSanitizer.visible(download.lastError ?? download.state.rawValue)
            if let partial = download.partialPath, download.bytesDone > 0, !reason.contains(partial),
                FileManager.default.fileExists(atPath: partial)
            {
                let later =
                    download.losesPartialDataOnRestart
                    ? "; a later run starts it over unless -c is given: the server sends no validator (ETag, "
                        + "Last-Modified or file time)"
                    : ""
                reason += " (received data kept in \(TextSanitizer.visible(partial))\(later))"
            }
            state.withLock { $0.lastErrorCode = download.errorCode ?? .unknown }
            report("failed \(TextSanitizer.visible(download.displayURI)): \(reason)")
        case .queued where from == .active:
            guard let error = download.lastError, !quiet else { return }
            let wait = download.nextAttemptAt.map { " in \(ProgressReporter.seconds($0.timeIntervalSinceNow))" } ?? ""
            report("retrying \(label)\(wait) (attempt \(download.attempts) failed: \(TextSanitizer.visible(error)))")
            return
        default:
            return
        }
        // The waiting thread is woken once, by the last ending it waits for (not by each of a
        // thousand small files).
        let wakes = state.withLock { state in
            state.ended += 1
            let last = state.awaited.map { state.ended == max($0, state.added) } ?? false
            return last || state.ended == state.nearEndAt
        }
        if wakes { endings.signal() }
    }

    /// What a running attempt shows: each response (with `verbose`), each dropped mirror, a hint.
    private func followed(_ id: GID, _ change: DownloadActivity.Change) {
        var download: Download? { state.withLock { $0.active[id]?.download } }
        switch change {
        case .response(let response):
            state.withLock {
                $0.active[id]?.statusCode = response.statusCode
                $0.active[id]?.protocolName = response.httpVersion.isEmpty ? nil : response.httpVersion
                $0.active[id]?.offersRanges = response.offersRanges
            }
            if verbosity.verbose, let download { describe(response, of: download) }
        case .hint(let hint):
            state.withLock { $0.active[id]?.hint = hint }
        case .splitChoice(let choice):
            if verbosity.verbose, let download { report("\(label(of: download)): \(choice)") }
        case .startedOver(let why):
            if let download { report("\(label(of: download)): \(TextSanitizer.visible(why))") }
        case .mirrorDropped(let dropped):
            // Said once, whether or not the file still completes.
            if let download { report("\(label(of: download)): mirror dropped: \(TextSanitizer.visible(dropped))") }
        case .torrent(let torrent):
            let startsWithPieces = state.withLock { state -> Bool in
                state.active[id]?.failedBytes = torrent.failedBytes
                guard !torrent.checking, torrent.pieceCount > 0, state.active[id]?.torrentStartSaid == false else {
                    return false
                }
                state.active[id]?.torrentStartSaid = true
                return torrent.hereAtStart > 0
            }
            if startsWithPieces, !quiet, let download {
                report("continuing \(label(of: download)) from \(ByteCount.format(torrent.hereAtStart)) already here")
            }
        case .seedingStarted:
            if !quiet, let download {
                report("downloaded \(label(of: download)); seeding until --seed-ratio or --seed-time is reached")
            }
        case .connections:
            break
        }
    }

    /// What a later run does with the data of the downloads running now, for those it cannot
    /// continue: each one's name and why it starts over (no validator, or a server that did
    /// not say it takes ranges).
    func startingOverLater() -> [String] {
        state.withLock { state in
            state.active.values.compactMap { followed -> String? in
                let download = followed.download
                guard download.completed.prefixLength > 0, download.destination != nil else { return nil }
                if download.losesPartialDataOnRestart { return GetCommand.startsOver(label(of: download)) }
                guard !followed.offersRanges else { return nil }
                return "\(label(of: download)) will start over: its server did not say it takes ranges "
                    + "(no Accept-Ranges: bytes)"
            }.sorted()
        }
    }

    /// The file a download is saved as (or its `out`, or its URI), for a line.
    private func label(of download: Download) -> String {
        TextSanitizer.visible(download.destination ?? download.options.out ?? download.displayURI)
    }

    /// `4 s`, `1 min 5 s`: a wait, rounded up to a whole second.
    static func seconds(_ interval: Double) -> String {
        let whole = max(0, Int(saturating: interval.rounded(.up)))
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }

    /// `--verbose`: the hops that led to `response`, its status line and headers (credentials
    /// shown as `***`).
    private func describe(_ response: ResponseSummary, of download: Download) {
        var lines = response.request.enumerated().map { index, field in
            index == 0
                ? "> \(TextSanitizer.visible(field.name)) \(TextSanitizer.visible(field.value))"
                : "> \(TextSanitizer.visible(field.name)): \(TextSanitizer.visible(field.value))"
        }
        lines += response.redirectChain.dropLast().map { "< redirected from \(TextSanitizer.visible($0))" }
        lines.append("< \(TextSanitizer.visible(response.redirectChain.last ?? download.displayURI))")
        lines.append("< \(response.httpVersion) \(response.statusCode) \(TextSanitizer.visible(response.reasonPhrase))")
        lines += response.headers.map { "< \(TextSanitizer.visible($0.name)): \(TextSanitizer.visible($0.value))" }
        report(lines.joined(separator: "\n"))
    }

    /// Blocks until `count` downloads (and any added meanwhile) have ended, drawing the status
    /// line meanwhile; returns how many completed, of how many. `nearEnd` runs once on this
    /// thread when `left` of the `count` are still to end (not at all when fewer are left as the
    /// wait begins).
    func waitUntilDone(
        count: Int, nearEnd: (left: Int, action: () -> Void)? = nil
    ) -> (completed: Int, total: Int) {
        let interval: DispatchTimeInterval = isTerminal ? .milliseconds(250) : .seconds(1)
        var nextTick = DispatchTime.now() + interval
        var nearEndAction = nearEnd?.action
        var done = state.withLock { state in
            state.awaited = count
            if let left = nearEnd?.left, count - left > state.ended { state.nearEndAt = count - left }
            return state.ended >= max(count, state.added)
        }
        while !done {
            if endings.wait(timeout: nextTick) == .success {
                let (ended, total) = state.withLock { ($0.ended, max(count, $0.added)) }
                done = ended >= total
                if !done, let action = nearEndAction {
                    nearEndAction = nil
                    action()
                }
            }
            if DispatchTime.now() >= nextTick {
                if !quiet { tick() }
                nextTick = DispatchTime.now() + interval
            }
        }
        let (completed, total, bytes) = state.withLock { ($0.completed, max(count, $0.added), $0.savedBytes) }
        if total > 1, !quiet {
            let (outcome, size) = verbosity.dryRun ? ("found", "") : ("saved", "\(ByteCount.format(bytes)) ")
            report(
                "\(total) downloads: \(completed) \(outcome), \(total - completed) failed, \(size)in \(elapsedText())")
        }
        return (completed, total)
    }

    // MARK: - Printing

    private func elapsedText() -> String {
        let duration = ContinuousClock.now - start
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f s", seconds)
    }

    private func tick() {
        let line = state.withLock { state -> String? in
            let now = ProcessInfo.processInfo.systemUptime
            var sample = state.receivedSample ?? SpeedSample(bytes: state.received, at: now)
            sample.measure(&state.receivedSpeed, bytes: state.received, at: now)
            state.receivedSample = sample
            let active = state.active.values.map { ($0.download, $0.speed) }
            guard !active.isEmpty else { return nil }
            state.lineShown = isTerminal
            let waiting = state.added - state.ended - active.count
            return ProgressReporter.statusLine(
                active: active, waiting: waiting, received: state.receivedSpeed,
                width: isTerminal ? ProgressReporter.terminalWidth - 1 : Int.max)
        }
        guard let line else { return }
        write(isTerminal ? "\r\u{1B}[K" + line : line + "\n")
    }

    /// The status line of downloads another haul runs for this command (a hand-off), on a
    /// terminal only and not with `-q`: what `tick` shows of this run's own.
    func showStatus(of active: [(download: Download, speed: Double)], waiting: Int) {
        guard isTerminal, !quiet, !active.isEmpty else { return }
        let line = ProgressReporter.statusLine(
            active: active, waiting: waiting, width: ProgressReporter.terminalWidth - 1)
        state.withLock { $0.lineShown = true }
        write("\r\u{1B}[K" + line)
    }

    /// The width in columns of the terminal stderr is (80 when it cannot be asked).
    static var terminalWidth: Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// `name  45.1 MiB / 1.0 GiB  4%  812.3 MiB/s  ETA 0:12` (or `3 active` for several), within
    /// `width` columns, as curl and wget fit theirs: the name is shortened in the middle first,
    /// then the waiting count and the ETA go; size, percent and speed stay. The speed is the
    /// active downloads' summed, or what the run `received` a second when that is more.
    static func statusLine(
        active: [(download: Download, speed: Double)], waiting: Int, received: Double = 0, width: Int = Int.max
    ) -> String {
        // Summed in 128 bits: sizes are a server's numbers, and many large ones overflow Int64.
        let done = Int64(clamping: active.reduce(Int128(0)) { $0 + Int128(max($1.download.bytesDone, 0)) })
        let known = active.allSatisfy { $0.download.totalBytes >= 0 }
        let expected = Int64(clamping: active.reduce(Int128(0)) { $0 + Int128(max($1.download.totalBytes, 0)) })
        let speed = max(active.reduce(0) { $0 + $1.speed }, received)
        let name =
            active.count == 1
            ? TextSanitizer.visible(active[0].download.shownName)
            : "\(active.count) active"
        var kept: [String] = []
        if known, expected > 0 {
            kept.append("\(ByteCount.format(done)) / \(ByteCount.format(expected))")
            kept.append("\(Int128(done) * 100 / Int128(expected))%")
        } else {
            kept.append(ByteCount.format(done))
        }
        kept.append(ByteCount.format(Int64(saturating: speed)) + "/s")
        // Dropped first when the line is too long: the waiting count, then the ETA.
        var optional: [String] = []
        if known, speed > 0, expected > done {
            let eta = Int(saturating: Double(expected - done) / speed)
            optional.append(String(format: "ETA %d:%02d", eta / 60, eta % 60))
        }
        if waiting > 0 { optional.append("\(waiting) waiting") }
        let separator = "  "
        let minimumName = 12
        while !optional.isEmpty,
            (kept + optional).joined(separator: separator).count + separator.count + minimumName > width
        {
            optional.removeLast()
        }
        let rest = (kept + optional).joined(separator: separator)
        let room = width == Int.max ? Int.max : max(width - rest.count - separator.count, 1)
        return DisplayWidth.middleTruncated(name, to: room) + separator + rest
    }

    /// Prints a whole line, clearing the status line first on a terminal.
    func report(_ line: String) {
        state.withLock { state in
            let clear = state.lineShown ? "\r\u{1B}[K" : ""
            state.lineShown = false
            write(clear + line + "\n")
        }
    }
}
