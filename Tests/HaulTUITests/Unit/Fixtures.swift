import Foundation
import HaulCore
import Testing

@testable import HaulTUI

// MARK: - Fixtures

/// Downloads and states made the same way every time, for reducer tests and snapshots.
enum Fixtures {
    /// The clock of every fixture state.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func download(
        _ number: Int, name: String, state: Download.State = .queued, total: Int64 = 10_000_000,
        done: Int64 = 0
    ) -> Download {
        var download = Download(id: gid(number), uris: ["https://example.com/files/\(name)"])
        download.state = state
        download.totalBytes = total
        if done > 0 { download.completed = ByteRanges([0..<done]) }
        if state != .queued { download.destination = "/data/\(name)" }
        return download
    }

    /// A queue of every state, a CJK name, an emoji name, a long name and a hostile one.
    static var mixed: [Download] {
        var failed = download(5, name: "broken.iso", state: .failed, total: -1)
        failed.lastError = "the server answered 503 Service Unavailable"
        failed.errorCode = .serverOverloaded
        failed.failureNote = "503 Service Unavailable"
        failed.attempts = 5
        var retrying = download(8, name: "mirror-list.txt", total: -1)
        retrying.lastError =
            "could not connect to the server: Connection refused; check that the server (or the proxy "
            + "the load went through) is up and the port is right"
        retrying.directory = "/data/lists"
        retrying.options.out = "mirrors.txt"
        retrying.errorCode = .network
        retrying.failureNote = "refused"
        retrying.attempts = 2
        retrying.nextAttemptAt = now.addingTimeInterval(12)
        return [
            download(1, name: "debian-12.4.0-amd64-netinst.iso", state: .active, total: 658_505_728, done: 219_502_592),
            download(2, name: "数据集-训练-第一部分.tar.gz", state: .active, total: 2_147_483_648, done: 1_932_735_283),
            download(3, name: "holiday 🎉 photos.zip", state: .paused, total: 52_428_800, done: 10_485_760),
            download(4, name: "notes.txt", state: .complete, total: 4096, done: 4096),
            failed,
            download(
                6, name: "a-very-long-file-name-that-goes-on-and-on-and-on-well-past-any-column-width-v2.3.1.tar.xz"),
            download(7, name: "evil\u{1B}[2Jname.bin", state: .cancelled, total: 1000, done: 300),
            retrying,
        ]
    }

    /// The speeds of `mixed`'s active downloads.
    static let mixedSpeeds: [GID: Double] = [mixed[0].id: 12_582_912, mixed[1].id: 4_194_304]

    /// A state of `width` × `height` holding `downloads`, each active one at its speed in
    /// `speeds`, after a steady speed history of the first.
    static func state(
        width: Int = 120, height: Int = 40, _ downloads: [Download] = mixed, speeds: [GID: Double] = mixedSpeeds
    ) -> AppState {
        var state = AppState(width: width, height: height, globalLimit: 20_971_520)
        _ = state.reduce(.queue(.added(downloads)))
        for download in downloads.dropFirst() where download.state == .active {
            _ = state.reduce(.queue(progress(download, speed: speeds[download.id] ?? 0)))
        }
        for sample in [1.0, 3, 5, 8, 13, 16, 16, 12] {
            _ = state.reduce(.queue(progress(downloads[0], speed: sample * 1_048_576)))
            _ = state.reduce(.tick(Fixtures.now))
        }
        _ = state.reduce(.queue(progress(downloads[0], speed: speeds[downloads[0].id] ?? 0)))
        return state
    }

    /// `download`'s bytes, arriving at `speed`.
    static func progress(_ download: Download, speed: Double = 0) -> DownloadEvent {
        .progress(
            id: download.id,
            DownloadProgress(completed: download.completed, totalBytes: download.totalBytes, speed: speed))
    }
}

// MARK: - Snapshots

/// Compares a frame's text with `Snapshots/NAME.txt`. A missing file is written and the test
/// fails, so a new snapshot is looked at before it is committed; `HAUL_RECORD_SNAPSHOTS=1`
/// rewrites them all.
func expectSnapshot(_ grid: CellGrid, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectSnapshot(text: grid.text + "\n", named: name, sourceLocation: sourceLocation)
}

/// Compares `text` with `Snapshots/NAME.txt`, as `expectSnapshot(_:named:)` compares a frame.
func expectSnapshot(text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    let record = ProcessInfo.processInfo.environment["HAUL_RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? text.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("snapshot \(name) recorded; check \(file.path) and commit it", sourceLocation: sourceLocation)
        return
    }
    #expect(
        text == expected, "snapshot \(name) differs; run with HAUL_RECORD_SNAPSHOTS=1 to update",
        sourceLocation: sourceLocation)
}

/// The gid of the download a test numbers `number` (from 0): one more, as a gid is not zero.
func gid(_ number: Int) -> GID {
    GID(UInt64(number) + 1) ?? .next()
}
