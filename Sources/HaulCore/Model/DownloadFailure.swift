// MARK: - DownloadFailure

/// A download's failure found here rather than on the wire (naming, creating or checking the
/// file): what to tell the user, and aria2's code for it.
struct DownloadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String
    let code: ErrorCode
    /// The pieces that failed their digest (`PieceHashes`): not kept, fetched again.
    let badPieces: [Range<Int64>]

    init(_ message: String, code: ErrorCode, badPieces: [Range<Int64>] = []) {
        self.message = message
        self.code = code
        self.badPieces = badPieces
    }

    var description: String { message }
}
