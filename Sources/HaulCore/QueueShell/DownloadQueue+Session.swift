// MARK: - DownloadQueue: sessions

extension DownloadQueue {
    /// Writes every download that is not complete to `path` as aria2's `--save-session` does,
    /// read from the queue 10,000 at a time, so a long queue is never copied whole. Runs
    /// file-system calls: not on a thread that must not wait on the disk.
    ///
    /// - Parameters:
    ///   - path: The session file (`--save-session`); replaced, mode 0600.
    ///   - includingSecrets: Whether passwords and secret headers are written.
    /// - Throws: `InputFile.FileError` when the file cannot be written; `path` is then unchanged.
    public func saveSession(to path: String, includingSecrets: Bool = false) throws(InputFile.FileError) {
        let total = count
        let unfinished = stride(from: 0, to: total, by: 10_000).lazy
            .flatMap { self.downloads(at: $0..<($0 + 10_000)) }
            .filter { $0.state != .complete }
        try InputFile.saveSession(unfinished, to: path, includingSecrets: includingSecrets)
    }
}
