// MARK: - ExitStatus

/// Ends the run with this status, its reason already said on stderr.
struct ExitStatus: Error, Equatable {
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }
}
