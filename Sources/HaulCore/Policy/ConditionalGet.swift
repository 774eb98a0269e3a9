import Foundation
import HaulNet

// MARK: - ConditionalGet

/// `conditional-get`: a download whose file is already in its directory asks for it only if it
/// changed (`If-Modified-Since` the file's mtime, and `If-None-Match` the ETag it was saved
/// with); a 304 completes it without a transfer, a 200 replaces the file. As in aria2 the name
/// is `out`, else the URL's last path segment: the response's Content-Disposition is not known
/// before asking. Also `remote-time`: a saved file's mtime is the server's Last-Modified.
enum ConditionalGet {
    /// The extended attribute a saved file's ETag is kept in, for the next conditional get: only
    /// for a download that asks for conditional get itself. Its Last-Modified is in the file's
    /// mark (`SavedFileMark`); an ETag beside it would not fit in an ext4 inode, and a block for
    /// it on every file costs 4 KiB of disk and a block allocation each.
    static let entityTagAttribute = "user.haul.etag"

    /// What a response says that is kept with the file it saved: its Last-Modified (the file's
    /// time with `remote-time`, and the mark's) and its ETag (for the next conditional get).
    /// Read from the engine's own response where a file with no name is answered on the engine
    /// thread: two headers rather than a whole `ResponseSummary`.
    struct Validators: Sendable {
        var lastModified: String?
        var entityTag: String?

        init(_ response: Response) {
            lastModified = response.headers["Last-Modified"]
            entityTag = response.headers["ETag"]
        }

        init(_ summary: ResponseSummary?) {
            lastModified = summary?.header("Last-Modified")
            entityTag = summary?.header("ETag")
        }
    }

    /// Where a download looks for the file it would be saved as: its `out`, its URL, its
    /// directory.
    struct Lookup: Sendable {
        let out: String?
        let url: URL
        let directory: String
    }

    /// The existing file `lookup` finds, if there is one.
    static func existingFile(_ lookup: Lookup) -> String? {
        guard let path = FileNaming.expectedPath(out: lookup.out, url: lookup.url, directory: lookup.directory)
        else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return path
    }

    /// The conditional headers for the file at `path`: `If-Modified-Since` the server's own
    /// Last-Modified when the file's mark kept it and the file is unchanged since (servers such
    /// as nginx match it exactly), else the file's mtime; `If-None-Match` its ETag when kept.
    static func headers(for path: String) -> [(name: String, value: String)] {
        var headers: [(String, String)] = []
        if let served = SavedFileMark.lastModified(of: path) {
            headers.append(("If-Modified-Since", HTTPDate.format(served)))
        } else if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate]
            as? Date
        {
            headers.append(("If-Modified-Since", HTTPDate.format(modified)))
        }
        if let tag = attribute(entityTagAttribute, of: path) { headers.append(("If-None-Match", tag)) }
        return headers
    }

    /// Keeps the response's ETag `tag` with the saved file (best effort: some file systems have
    /// no user attributes).
    static func rememberEntityTag(_ tag: String?, of path: String) {
        guard let tag = keptEntityTag(tag) else { return }
        ExtendedAttribute.set(entityTagAttribute, to: tag, on: path)
    }

    /// `rememberEntityTag(_:of:)` for a file still open as `descriptor` (not yet named).
    static func rememberEntityTag(_ tag: String?, ofDescriptor descriptor: Int32) {
        guard let tag = keptEntityTag(tag) else { return }
        ExtendedAttribute.set(entityTagAttribute, to: tag, onDescriptor: descriptor)
    }

    /// An ETag as it is kept: one on one line.
    private static func keptEntityTag(_ tag: String?) -> String? {
        guard let tag, !tag.contains(where: \.isNewline) else { return nil }
        return tag
    }

    /// `applyRemoteTime(_:to:)` for a file still open as `descriptor`.
    static func applyRemoteTime(_ lastModified: String?, toDescriptor descriptor: Int32) {
        guard var times = fileTimes(lastModified) else { return }
        futimens(descriptor, &times)
    }

    /// Sets the file's mtime (and atime) to `lastModified`, an HTTP date; false when it is not one.
    @discardableResult
    static func applyRemoteTime(_ lastModified: String?, to path: String) -> Bool {
        guard var times = fileTimes(lastModified) else { return false }
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    /// An HTTP date as a file's access and modification times, or nil when it is not one.
    private static func fileTimes(_ lastModified: String?) -> [timespec]? {
        guard let lastModified, let date = HTTPDate.parse(lastModified) else { return nil }
        return [timespec](repeating: timespec(tv_sec: Int(date.timeIntervalSince1970), tv_nsec: 0), count: 2)
    }

    private static func attribute(_ name: String, of path: String) -> String? {
        guard let value = ExtendedAttribute.get(name, of: path, limit: 512) else { return nil }
        // A server's validator goes back to a server: nothing that could split a header line.
        return value.unicodeScalars.contains(where: TextSanitizer.isUnsafe) ? nil : value
    }
}
