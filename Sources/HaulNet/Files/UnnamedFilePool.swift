import CFiles
import Dispatch
import Foundation
import Synchronization

// MARK: - UnnamedFilePool

/// Files with no name (`O_TMPFILE`) made ahead on a queue of their own, a few for each
/// directory that keeps getting them, so that the engine thread takes one instead of making it.
/// Making one is an inode made on the disk: an eighth of the engine thread's time in a run of
/// 1000 small files.
///
/// A directory is stocked from its second file on (one file does not cost a stock of them),
/// and at most `directoryLimit` directories are: the one used longest ago gives its files back.
/// A stock is made again once it falls below a quarter: each time wakes a thread of the
/// queue, which the engine thread pays for (with 16 made below half, 125 wake-ups a run of
/// 1000 small files; with 32 below a quarter, 42).
/// A file made ahead and never taken has no name, so it leaves nothing behind: the kernel frees
/// it when it is closed or the process ends, `kill -9` included.
///
/// **Threading:** any thread; files are made on the pool's own queue, outside its lock.
public final class UnnamedFilePool: Sendable {
    /// The pool the engine's file sinks take from.
    public static let shared = UnnamedFilePool()

    /// Files kept ready for a directory; a stock is made again once it falls below a quarter.
    let depth: Int
    let directoryLimit: Int

    /// What the pool keeps for one of the directories used last. One entry a directory, so a
    /// file taken looks its directory up once (its path hashed once, not four times).
    private struct Directory {
        var ready: [Int32] = []
        /// How many files it has had, and when last (a count).
        var count = 0
        var last = 0
        var refilling = false

        /// Takes a ready file, if any, at `clock`; true when the stock is to be made again (from
        /// the directory's second file on, below `low`, unless it is being made already).
        mutating func take(at clock: Int, refillBelow low: Int) -> (Int32?, Bool) {
            count += 1
            last = clock
            let taken = ready.popLast()
            let refill = count >= 2 && ready.count < low && !refilling
            if refill { refilling = true }
            return (taken, refill)
        }
    }

    private struct Stock {
        var directories: [String: Directory] = [:]
        var clock = 0
    }

    private let stock = Mutex(Stock())
    private let queue = DispatchQueue(label: "haul.unnamed-files", qos: .utility)

    init(depth: Int = 32, directoryLimit: Int = 4) {
        self.depth = depth
        self.directoryLimit = directoryLimit
    }

    /// A writable file with no name, mode 0644, in `directory`'s file system: one made ahead
    /// if there is one, else made now. Returns -1 and sets `errno` when none can be made.
    ///
    /// - Parameter directory: The directory whose file system the file must be on.
    /// - Returns: An open descriptor, or -1 with `errno` set.
    public func take(in directory: String) -> Int32 {
        let (taken, refill, surplus) = stock.withLock { stock -> (Int32?, Bool, [Int32]) in
            stock.clock += 1
            let clock = stock.clock
            let (taken, refill) = stock.directories[directory, default: Directory()].take(
                at: clock, refillBelow: depth / 4)
            return (taken, refill, evictBeyondLimit(&stock, keeping: directory))
        }
        for descriptor in surplus { close(descriptor) }
        if refill { queue.async { [self] in self.refill(directory) } }
        return taken ?? haul_open_unnamed(directory, 0o644)
    }

    /// How many files are ready for `directory`.
    func readyCount(in directory: String) -> Int {
        stock.withLock { $0.directories[directory]?.ready.count ?? 0 }
    }

    /// Waits until files being made have been made (tests).
    func settle() {
        queue.sync {}
    }

    /// Makes `directory`'s stock up to `depth`. On `queue`.
    private func refill(_ directory: String) {
        let wanted = stock.withLock { depth - ($0.directories[directory]?.ready.count ?? 0) }
        var made: [Int32] = []
        for _ in 0..<max(0, wanted) {
            let descriptor = haul_open_unnamed(directory, 0o644)
            // A file system without such files, a directory gone, no descriptors left: the
            // engine makes its own, and meets the error itself.
            guard descriptor >= 0 else { break }
            made.append(descriptor)
        }
        let surplus = stock.withLock { stock -> [Int32] in
            // Given back meanwhile (another directory took its place): not kept.
            guard stock.directories[directory] != nil else { return made }
            stock.directories[directory]?.refilling = false
            stock.directories[directory]?.ready.append(contentsOf: made)
            return []
        }
        for descriptor in surplus { close(descriptor) }
    }

    /// Forgets the directories used longest ago beyond `directoryLimit` (never `kept`);
    /// returns their files, to be closed outside the lock.
    private func evictBeyondLimit(_ stock: inout Stock, keeping kept: String) -> [Int32] {
        var surplus: [Int32] = []
        while stock.directories.count > directoryLimit {
            guard
                let oldest = stock.directories.filter({ $0.key != kept }).min(by: { $0.value.last < $1.value.last })
            else { break }
            surplus += stock.directories.removeValue(forKey: oldest.key)?.ready ?? []
        }
        return surplus
    }
}
