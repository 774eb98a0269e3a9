// MARK: - StoreError

/// Why the state directory or the store could not be used, with the path and what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// An error that says `description`.
    ///
    /// - Parameter description: What failed, naming the file, and what to do where there is something.
    public init(_ description: String) {
        self.description = description
    }
}
