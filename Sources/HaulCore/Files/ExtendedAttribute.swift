import CFiles

// MARK: - ExtendedAttribute

/// A saved file's user extended attributes (`user.haul.*`), where haul keeps what it knows of
/// the file: its validators and where it came from. Best effort: a file system without user
/// attributes keeps none, and reading one gives nil.
enum ExtendedAttribute {
    /// Sets attribute `name` of the file at `path` to `value`.
    static func set(_ name: String, to value: String, on path: String) {
        var value = value
        _ = value.withUTF8 { bytes in setxattr(path, name, bytes.baseAddress, bytes.count, 0) }
    }

    /// Sets attribute `name` of the open file `descriptor` to `value` (its bytes in place: every
    /// saved small file is marked on the engine thread).
    static func set(_ name: String, to value: String, onDescriptor descriptor: Int32) {
        var value = value
        _ = value.withUTF8 { bytes in fsetxattr(descriptor, name, bytes.baseAddress, bytes.count, 0) }
    }

    /// Attribute `name` of the file at `path` (at most `limit` bytes), or nil.
    static func get(_ name: String, of path: String, limit: Int = 8192) -> String? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = getxattr(path, name, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
