import CFiles
import Foundation

// MARK: - UnfinishedFile

/// A file another tool left unfinished under the name a download would take, continued when
/// the download says `continue=true` (`-c`, as in wget and aria2) instead of being fetched
/// again beside it as `NAME.1`:
/// - aria2 leaves `NAME` with its control file `NAME.aria2`: the bytes the control file says were
///   written are kept (aria2 allocates the whole file first, so its size says nothing);
/// - curl and wget leave `NAME` holding the first bytes: its size is where to go on.
///
/// The file becomes the download's partial file (`NAME.part`); the rest is asked for with
/// `Range`, and an aria2 control file is removed once the file is complete.
public struct UnfinishedFile: Sendable, Equatable {
    /// Where what is known about the file came from.
    public enum Source: Sendable, Equatable {
        /// aria2's control file beside it.
        case aria2ControlFile
        /// Its size (curl, wget and the like write from the start).
        case size
    }

    /// The final path (`NAME`).
    public let destination: String
    /// The file holding the data now: `NAME`, or `NAME.part` when a run of haul took it over
    /// and was stopped before its first checkpoint.
    public let dataPath: String
    public let completed: ByteRanges
    /// The whole file's length, or -1 when only the server knows it.
    public let totalBytes: Int64
    public let source: Source

    /// The unfinished file at `destination`, if there is one: with its aria2 control file, the
    /// data in `NAME` or (taken over earlier) `NAME.part`; without one, a non-empty `NAME`.
    /// Throws when a control file is there but cannot be read.
    ///
    /// - Parameter destination: The download's final path.
    /// - Returns: What is there to continue, or nil when there is nothing.
    /// - Throws: `OptionError` naming the control file when it cannot be read.
    public static func find(at destination: String) throws(OptionError) -> UnfinishedFile? {
        let partial = FileNaming.partialPath(of: destination)
        if let control = try Aria2ControlFile.read(at: destination + Aria2ControlFile.suffix) {
            guard
                let (path, size) = [destination, partial].lazy.compactMap({ path in
                    regularFileSize(path).map { (path, $0) }
                }).first
            else { return nil }
            // Only bytes the file really holds count, whatever the control file says.
            var completed = ByteRanges()
            for range in control.completed.ranges where range.lowerBound < size {
                completed.insert(range.lowerBound..<min(range.upperBound, size))
            }
            return UnfinishedFile(
                destination: destination, dataPath: path, completed: completed,
                totalBytes: control.totalLength, source: .aria2ControlFile)
        }
        guard let size = regularFileSize(destination), size > 0, regularFileSize(partial) == nil else { return nil }
        return UnfinishedFile(
            destination: destination, dataPath: destination, completed: ByteRanges([0..<size]),
            totalBytes: -1, source: .size)
    }

    /// Makes the file `download`'s partial file and gives `download` its progress: `NAME`
    /// becomes `NAME.part` (never replacing one).
    func continueAs(_ download: inout Download) throws(OptionError) {
        let partial = FileNaming.partialPath(of: destination)
        if dataPath != partial, haul_rename_noreplace(dataPath, partial) != 0 {
            throw OptionError(
                "cannot continue \(TextSanitizer.visible(destination)): renaming it to "
                    + "\(TextSanitizer.visible(partial)) failed: \(String(cString: strerror(errno)))")
        }
        download.destination = destination
        download.completed = completed
        download.totalBytes = totalBytes
    }

    /// What a user is told: the file, how much of it is there, and how that is known.
    public var summary: String {
        let name = TextSanitizer.visible(destination)
        let done = ByteCount.format(completed.count)
        switch source {
        case .aria2ControlFile:
            return "continuing \(name) from its aria2 control file: \(done) of \(ByteCount.format(totalBytes)) there"
        case .size:
            return "continuing \(name) from its \(done)"
        }
    }

    /// The size of the regular file at `path` (not following a link), or nil.
    private static func regularFileSize(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_size)
    }
}
