import Foundation
import Synchronization

// MARK: - PartFileNames

/// The names whose `NAME.part` is on disk, in the directories this queue saves files with no
/// name to. A file with no name is not given such a name: `NAME.part` is another download's
/// partial file, which takes `NAME` when it completes, or a file itself named `NAME.part`,
/// which a download saved as `NAME` and continued later would take for its own partial file.
///
/// Each directory is listed once, when the queue first learns it can hold files with no name
/// (an earlier run's partial files are found there); after that the record is kept where this
/// queue makes such files (naming a download, spilling a file with no name, a download saved
/// under a name ending in `.part`) and where it renames or deletes them. So the engine thread
/// asks it, and not the file system, for each file it names: a lookup in memory instead of a
/// directory search. A name still listed whose `NAME.part` is gone is looked at before it is
/// skipped; a `NAME.part` made by another program after the listing is not seen.
///
/// **Threading:** any thread; a directory is listed outside the lock.
final class PartFileNames: Sendable {
    private let names = Mutex<Set<String>>([])

    /// Notes that a download of this queue holds (or is about to make) `destination`'s
    /// partial file.
    func hold(_ destination: String) {
        _ = names.withLock { $0.insert(destination) }
    }

    /// Notes a file this queue saved as `path`: a name ending in `.part` keeps the name
    /// before it from files with no name.
    func saved(_ path: String) {
        guard path.hasSuffix(FileNaming.partialSuffix) else { return }
        hold(String(path.dropLast(FileNaming.partialSuffix.count)))
    }

    /// Notes that `destination`'s partial file was renamed or deleted.
    func release(_ destination: String) {
        _ = names.withLock { $0.remove(destination) }
    }

    /// Notes every `NAME.part` in `directory`. Once a directory, before its first file with no
    /// name is named.
    func list(_ directory: String) {
        var found: [String] = []
        if let stream = opendir(directory) {
            let suffix = Array(FileNaming.partialSuffix.utf8)
            while let entry = readdir(stream) {
                // Only a name ending in `.part` is made a String: a directory may hold a million.
                let stem = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> String? in
                    let name = bytes.prefix { $0 != 0 }
                    guard name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return nil }
                    return String(decoding: name.dropLast(suffix.count), as: UTF8.self)
                }
                if let stem { found.append(FileNaming.path(for: stem, in: directory)) }
            }
            closedir(stream)
        }
        names.withLock { $0.formUnion(found) }
    }

    /// Whether `path`'s `NAME.part` is known, and is there.
    func holds(_ path: String) -> Bool {
        guard names.withLock({ $0.contains(path) }) else { return false }
        var status = stat()
        return lstat(FileNaming.partialPath(of: path), &status) == 0
    }
}
