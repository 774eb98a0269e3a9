import Foundation
import HaulNet
import HaulText

// MARK: - SavedFileMark

/// What a saved file says of itself in an extended attribute (`user.haul.source`): the URI it
/// came from (as its `FNV1a` hash), its size and mtime when haul named it, the download's gid,
/// and the server's Last-Modified. A later run that finds the file unchanged knows the download
/// complete even when the store could not record it (a full disk, a `kill -9` before the next
/// checkpoint) or is another state directory's; a later conditional get asks `If-Modified-Since`
/// the server's own time. Best effort: a file system without user attributes keeps no mark.
///
/// The mark is kept under 60 bytes (numbers in base 36) so that ext4 keeps it inside the
/// file's inode: a longer one takes a 4 KiB block of its own for every file, a quarter more disk
/// for a 16 KiB file and a block allocation on every save. Marks of earlier versions (the URI
/// itself, size and mtime in decimal, maybe the gid) are still read.
enum SavedFileMark {
    static let attribute = "user.haul.source"

    /// What a mark says.
    private struct Contents {
        /// The URI's hash, or (in an earlier version's mark) the URI itself.
        var source: String
        var size: Int64
        var modified: Int
        var gid: GID?
        /// The server's Last-Modified, in seconds since 1970.
        var lastModified: Int?
    }

    /// Marks the file at `path` as saved from `uri` by download `gid`, as it is now.
    static func mark(_ path: String, uri: String, gid: GID, lastModified: Date?) {
        guard let (size, modified) = sizeAndTime(of: path) else { return }
        let value = text(uri: uri, size: size, modified: modified, gid: gid, lastModified: lastModified)
        ExtendedAttribute.set(attribute, to: value, on: path)
    }

    /// Marks the open file `descriptor` (not yet named) as saved from `uri` by download `gid`.
    static func mark(descriptor: Int32, uri: String, gid: GID, lastModified: Date?) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let value = text(
            uri: uri, size: Int64(status.st_size), modified: status.st_mtim.tv_sec, gid: gid,
            lastModified: lastModified)
        ExtendedAttribute.set(attribute, to: value, onDescriptor: descriptor)
    }

    /// The mark's text: `2`, then the URI's hash, size, mtime, gid and the server's time (empty
    /// when it sent none), a line each, numbers in base 36.
    private static func text(uri: String, size: Int64, modified: Int, gid: GID, lastModified: Date?) -> String {
        // Written straight into the string's bytes: a mark is made for every saved file, on
        // the engine thread, and String(_:radix:) and appends cost more than its system calls.
        let served = lastModified.map { Int($0.timeIntervalSince1970) }
        return String(unsafeUninitializedCapacity: 128) { buffer in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func putBase36(_ value: UInt, negative: Bool) {
                if negative { put(UInt8(ascii: "-")) }
                let start = count
                var value = value
                repeat {
                    let digit = UInt8(value % 36)
                    put(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
                    value /= 36
                } while value > 0
                var digits = UnsafeMutableBufferPointer(rebasing: buffer[start..<count])
                digits.reverse()
            }
            put(UInt8(ascii: "2"))
            put(newline)
            putBase36(UInt(FNV1a.hash(uri)), negative: false)
            put(newline)
            putBase36(UInt(size.magnitude), negative: size < 0)
            put(newline)
            putBase36(modified.magnitude, negative: modified < 0)
            put(newline)
            for byte in gid.description.utf8 { put(byte) }
            put(newline)
            if let served { putBase36(served.magnitude, negative: served < 0) }
            return count
        }
    }

    private static let newline = UInt8(ascii: "\n")

    /// What the mark of the file at `path` says, if it has one that can be read.
    private static func contents(of path: String) -> Contents? {
        guard let mark = ExtendedAttribute.get(attribute, of: path, limit: 4096) else { return nil }
        let fields = mark.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if fields.count == 6, fields[0] == "2" {
            guard let size = Int64(fields[2], radix: 36), let modified = Int(fields[3], radix: 36) else { return nil }
            return Contents(
                source: fields[1], size: size, modified: modified, gid: GID(fields[4]),
                lastModified: Int(fields[5], radix: 36))
        }
        // An earlier version's: the URI, size and mtime, and since one version the gid.
        guard fields.count == 3 || fields.count == 4, let size = Int64(fields[1]), let modified = Int(fields[2])
        else { return nil }
        return Contents(
            source: fields[0], size: size, modified: modified, gid: fields.count == 4 ? GID(fields[3]) : nil)
    }

    /// The gid of the download that saved the file at `path`, when its mark names one.
    static func gid(of path: String) -> GID? {
        contents(of: path)?.gid
    }

    /// The server's Last-Modified the file at `path` was saved with, when it is unchanged since.
    static func lastModified(of path: String) -> Date? {
        guard let contents = unchangedContents(of: path), let seconds = contents.lastModified else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The size of the file at `path` when it is marked as saved from `uri` and has not changed
    /// since (same size and mtime); nil otherwise.
    static func savedSize(of path: String, uri: String) -> Int64? {
        guard let contents = unchangedContents(of: path),
            contents.source == String(FNV1a.hash(uri), radix: 36) || contents.source == uri
        else { return nil }
        return contents.size
    }

    /// The mark of the file at `path`, when the file has the size and mtime it was marked with.
    private static func unchangedContents(of path: String) -> Contents? {
        guard let contents = contents(of: path), let (size, modified) = sizeAndTime(of: path),
            contents.size == size, contents.modified == modified
        else { return nil }
        return contents
    }

    /// A regular file's size and mtime (seconds), without following a link.
    private static func sizeAndTime(of path: String) -> (Int64, Int)? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int64(status.st_size), status.st_mtim.tv_sec)
    }
}
