// MARK: - DownloadFailure

/// A download's failure found here rather than on the wire (naming, creating or checking the
/// file): what to tell the user, and aria2's code for it.
struct DownloadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String
    let code: ErrorCode

    init(_ message: String, code: ErrorCode) {
        self.message = message
        self.code = code
    }

    var description: String { message }
}
