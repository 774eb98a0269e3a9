import Foundation
import Synchronization

// MARK: - HeldPartialFiles

/// The destinations whose partial file (`NAME.part`) one of this queue's downloads holds. A
/// file with no name is not given such a name: its holder takes it when it completes.
///
/// Kept where this queue makes partial files (naming a download, spilling a file with no name,
/// restoring a named download from an earlier run) and let go where it renames or deletes
/// them, so the engine thread asks it, and not the file system, for each file it names: a
/// lookup in memory instead of a directory search. A destination still listed whose partial
/// file is gone (its download removed and the file deleted by hand) is looked at before its
/// name is skipped. Any thread.
final class HeldPartialFiles: Sendable {
    private let destinations = Mutex<Set<String>>([])

    /// Notes that a download of this queue holds (or is about to make) `destination`'s
    /// partial file.
    func hold(_ destination: String) {
        _ = destinations.withLock { $0.insert(destination) }
    }

    /// Notes the downloads of an earlier run that have a destination and are not complete.
    func hold(restored downloads: [Download]) {
        destinations.withLock { held in
            for download in downloads where download.state != .complete {
                if let destination = download.destination { held.insert(destination) }
            }
        }
    }

    /// Notes that `destination`'s partial file was renamed or deleted.
    func release(_ destination: String) {
        _ = destinations.withLock { $0.remove(destination) }
    }

    /// Whether a download of this queue holds `destination`'s partial file, and it is there.
    func holds(_ destination: String) -> Bool {
        guard destinations.withLock({ $0.contains(destination) }) else { return false }
        var status = stat()
        return lstat(destination + FileNaming.partialSuffix, &status) == 0
    }
}
