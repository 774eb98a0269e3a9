import GRDB

/// The history keeps a gid as its 16 hex digits, as aria2's sessions write it; a row whose gid
/// text is not one reads as a decoding error, not a download.
extension GID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    /// The gid a stored value spells.
    ///
    /// - Parameter dbValue: A column's value.
    /// - Returns: The gid, or nil when the value is not 16 hex digits.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> GID? {
        String.fromDatabaseValue(dbValue).flatMap { GID($0) }
    }
}

extension GID {
    /// The download table's key for this gid: its 64 bits as SQLite's signed integer.
    var storedKey: Int64 { Int64(bitPattern: value) }

    /// The gid a download table's key holds; nil for zero or a value that is not an integer.
    init?(storedKey: DatabaseValue) {
        guard let key = Int64.fromDatabaseValue(storedKey) else { return nil }
        self.init(UInt64(bitPattern: key))
    }
}
