// MARK: - UnnamedFile

/// A download written to a file with no name (Linux's `O_TMPFILE`) in `directory`, named only
/// when its body is complete: a load that ends any other way, a `kill -9` included, leaves
/// nothing behind, and the file costs one directory change, as curl's do. The delegate names
/// it: `name` runs on the engine thread with the open descriptor after the last write.
///
/// A body that grows past `spillAfter` bytes is named early by `spill` (a resumable partial
/// file) and goes on as an ordinary download into that file.
public struct UnnamedFile: Sendable, Equatable {
    /// Gives the file a name; returns the path it got. Engine thread.
    public typealias Namer = @Sendable (_ descriptor: Int32) throws(ConnectionError) -> String

    public var directory: String
    public var name: Namer
    public var spillAfter: Int64?
    public var spill: Namer?

    /// A body written to a file with no name in `directory`.
    ///
    /// - Parameters:
    ///   - directory: Where the file is made and named (the same file system as its name).
    ///   - spillAfter: The length past which the body is named early by `spill`, or nil for never.
    ///   - name: Names the complete file; runs on the engine thread after the last write.
    ///   - spill: Names the file early when it grows past `spillAfter`.
    public init(directory: String, spillAfter: Int64? = nil, name: @escaping Namer, spill: Namer? = nil) {
        self.directory = directory
        self.spillAfter = spillAfter
        self.name = name
        self.spill = spill
    }

    /// Two are equal when they make their file in the same directory and spill at the same
    /// length; their namers (closures) are not compared.
    ///
    /// - Parameters:
    ///   - lhs: One file.
    ///   - rhs: The other.
    /// - Returns: Whether both go in the same directory and spill alike.
    public static func == (lhs: UnnamedFile, rhs: UnnamedFile) -> Bool {
        lhs.directory == rhs.directory && lhs.spillAfter == rhs.spillAfter
            && (lhs.spill == nil) == (rhs.spill == nil)
    }
}
