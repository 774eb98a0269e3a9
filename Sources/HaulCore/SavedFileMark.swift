import Foundation
import HaulNet

// MARK: - SavedFileMark

/// What a saved file says of itself in an extended attribute (`user.haul.source`): the URI it
/// came from (as its `FNV1a` hash), its size and mtime when haul named it, and the download's
/// gid. A later run that finds the file unchanged knows the download complete even when the
/// store could not record it (a full disk, a `kill -9` before the next checkpoint) or is
/// another state directory's. Best effort: a file system without user attributes keeps no mark.
///
/// The mark is kept short (about 50 bytes) so that ext4 keeps it inside the file's inode: a
/// longer one (the URI itself, as marks before it held) takes a 4 KiB block of its own for
/// every file, a quarter more disk for a 16 KiB file and a block allocation on every save.
enum SavedFileMark {
    static let attribute = "user.haul.source"

    /// Marks the file at `path` as saved from `uri` by download `gid`, as it is now.
    static func mark(_ path: String, uri: String, gid: String) {
        guard let (size, modified) = sizeAndTime(of: path) else { return }
        ExtendedAttribute.set(attribute, to: value(uri: uri, size: Int64(size), modified: modified, gid: gid), on: path)
    }

    /// Marks the open file `descriptor` (not yet named) as saved from `uri` by download `gid`.
    static func mark(descriptor: Int32, uri: String, gid: String) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let value = value(uri: uri, size: Int64(status.st_size), modified: status.st_mtim.tv_sec, gid: gid)
        ExtendedAttribute.set(attribute, to: value, onDescriptor: descriptor)
    }

    /// The mark's text: the URI's hash, size, mtime and gid, a line each.
    private static func value(uri: String, size: Int64, modified: Int, gid: String) -> String {
        "\(FNV1a.hex(uri))\n\(size)\n\(modified)\n\(gid)"
    }

    /// The gid of the download that saved the file at `path`, when its mark names one.
    static func gid(of path: String) -> String? {
        guard let mark = ExtendedAttribute.get(attribute, of: path) else { return nil }
        let fields = mark.split(separator: "\n", omittingEmptySubsequences: false)
        return fields.count == 4 ? String(fields[3]) : nil
    }

    /// The size of the file at `path` when it is marked as saved from `uri` and has not changed
    /// since (same size and mtime); nil otherwise.
    static func savedSize(of path: String, uri: String) -> Int64? {
        guard let mark = ExtendedAttribute.get(attribute, of: path), let (size, modified) = sizeAndTime(of: path) else {
            return nil
        }
        let fields = mark.split(separator: "\n", omittingEmptySubsequences: false)
        // Three fields from a version that kept no gid, four since; the URI itself from a version
        // that kept no hash.
        guard fields.count == 3 || fields.count == 4, fields[0] == FNV1a.hex(uri) || fields[0] == uri,
            Int64(fields[1]) == size,
            Int(fields[2]) == modified
        else {
            return nil
        }
        return size
    }

    /// A regular file's size and mtime (seconds), without following a link.
    private static func sizeAndTime(of path: String) -> (Int64, Int)? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int64(status.st_size), status.st_mtim.tv_sec)
    }
}
