import Foundation
import Synchronization
import Testing

@testable import HaulCore

/// A queue file is queued in pieces: a small first one, started on the caller's thread before
/// the rest is matched, then pieces of `chunk`.
@Suite("Queue file pieces")
struct QueueFilePiecesTests {
    @Test("the first piece is four rounds of the slots, then pieces of `chunk`; the last may be shorter")
    func pieces() {
        let table: [(count: Int, first: Int, size: Int, pieces: [Range<Int>])] = [
            (0, 64, 50, []),
            (10, 64, 50, [0..<10]),
            (64, 64, 50, [0..<64]),
            (65, 64, 50, [0..<64, 64..<65]),
            (200, 64, 50, [0..<64, 64..<114, 114..<164, 164..<200]),
            (5, 0, 0, [0..<1, 1..<2, 2..<3, 3..<4, 4..<5]),
        ]
        for row in table {
            #expect(StoredQueue.pieces(of: row.count, first: row.first, size: row.size) == row.pieces, "\(row)")
        }
        #expect(StoredQueue.firstPiece(16) == 64)
        #expect(StoredQueue.firstPiece(1) == 16)
    }

    @Test("the first piece's downloads are queued and told on the caller's thread, the rest after")
    func firstPieceStartsHere() throws {
        let directory = try storeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = DownloadQueue.Configuration()
        configuration.maxConcurrentDownloads = 1
        // Each `added` event: how many downloads, and the thread it was told on.
        let told = Mutex<[(count: Int, thread: pthread_t)]>([])
        let stored = try scratchStoredQueue(in: directory, configuration: configuration, checkpointInterval: 60) {
            guard case .added(let downloads) = $0 else { return }
            told.withLock { $0.append((downloads.count, pthread_self())) }
        }
        var options = DownloadOptions()
        options.pause = true
        let entries = (0..<25).map { QueueEntry(uris: ["http://127.0.0.1:9/f\($0)"], options: options) }
        let caller = pthread_self()
        let continuation = stored.continueOrAdd(entries, chunk: 10)
        #expect(continuation.ids.count == entries.count && stored.queue.ids == continuation.ids)
        let first = told.withLock { $0.first }
        #expect(first?.count == 10 && first?.thread == caller)
        stored.flush()
        #expect(told.withLock { $0.map(\.count) } == [10, 10, 5])
    }
}
