import GRDB

/// The store keeps a gid as its 16 hex digits, as aria2's sessions write it; a row whose gid
/// text is not one reads as a decoding error, not a download.
extension GID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> GID? {
        String.fromDatabaseValue(dbValue).flatMap { GID($0) }
    }
}
