import CFiles
import Foundation
import HaulNet

// MARK: - ConditionalGet

/// `conditional-get`: a download whose file is already in its directory asks for it only if it
/// changed (`If-Modified-Since` the file's mtime, and `If-None-Match` the ETag it was saved
/// with); a 304 completes it without a transfer, a 200 replaces the file. As in aria2 the name
/// is `out`, else the URL's last path segment: the response's Content-Disposition is not known
/// before asking. Also `remote-time`: a saved file's mtime is the server's Last-Modified.
enum ConditionalGet {
    /// The extended attribute a saved file's ETag is kept in, for the next conditional get.
    static let entityTagAttribute = "user.haul.etag"

    /// The existing file `url` would be saved as, if there is one.
    static func existingFile(out: String?, url: URL, directory: String) -> String? {
        guard let name = out ?? FileNaming.sanitize(url.lastPathComponent) else { return nil }
        let path = FileNaming.path(for: name, in: directory)
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return path
    }

    /// The conditional headers for the file at `path`.
    static func headers(for path: String) -> [(name: String, value: String)] {
        var headers: [(String, String)] = []
        if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date {
            headers.append(("If-Modified-Since", HTTPDate.format(modified)))
        }
        if let tag = entityTag(of: path) { headers.append(("If-None-Match", tag)) }
        return headers
    }

    /// Keeps `tag` with the saved file (best effort: some file systems have no user attributes).
    static func remember(entityTag tag: String, of path: String) {
        _ = tag.utf8CString.withUnsafeBufferPointer { value in
            setxattr(path, entityTagAttribute, value.baseAddress, value.count - 1, 0)
        }
    }

    /// Sets the file's mtime (and atime) to `lastModified`, an HTTP date; false when it is not one.
    @discardableResult
    static func applyRemoteTime(_ lastModified: String?, to path: String) -> Bool {
        guard let lastModified, let date = HTTPDate.parse(lastModified) else { return false }
        let seconds = date.timeIntervalSince1970
        var times = [timespec](repeating: timespec(tv_sec: Int(seconds), tv_nsec: 0), count: 2)
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    private static func entityTag(of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = getxattr(path, entityTagAttribute, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let tag = String(decoding: buffer[0..<count], as: UTF8.self)
        // A server's ETag goes back to a server: nothing that could split a header line.
        return tag.contains(where: { $0.isNewline }) ? nil : tag
    }
}
