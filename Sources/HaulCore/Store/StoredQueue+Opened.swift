import Foundation

// MARK: - StoredQueue.Opened

extension StoredQueue {
    /// A state directory's store, locked, opened and read back: the half of making a
    /// `StoredQueue` that waits on the disk and needs neither the queue's configuration nor the
    /// engine, so a command can begin it first (`haul get` does, on another core when the store
    /// is large, while it sets up the run and reads the queue file).
    ///
    /// **Threading:** made on any thread; a value, handed to `StoredQueue.init(opened:…)`.
    public struct Opened: Sendable {
        let directory: StateDirectory
        let store: DownloadStore
        /// The stored downloads, checked against the disk (`StoredQueue.reconciled`).
        let stored: [Download]
        /// Values in the store that could not be read back.
        public let problems: [String]

        /// Opens the store in `stateDirectory`, taking its lock, and reads it.
        ///
        /// - Parameter stateDirectory: The state directory's path.
        /// - Throws: `StoreError` when the directory cannot be locked or the store opened or read.
        public init(stateDirectory: String) throws(StoreError) {
            directory = try StateDirectory(path: stateDirectory)
            store = try DownloadStore(path: directory.databasePath)
            let contents = try store.load()
            stored = contents.downloads.map(StoredQueue.reconciled)
            problems = contents.problems
        }

        /// Whether the store in `stateDirectory` opens in a millisecond or two: there is none
        /// yet, or it and its log hold less than 8 MiB (a history of thousands of downloads, not a
        /// long unfinished queue).
        ///
        /// - Parameter stateDirectory: The state directory's path.
        /// - Returns: True when opening it cannot keep a start waiting.
        public static func opensQuickly(stateDirectory: String) -> Bool {
            let database = StateDirectory.databasePath(in: stateDirectory)
            let bytes = [database, database + "-wal"].reduce(Int64(0)) { total, path in
                var status = stat()
                return total + (stat(path, &status) == 0 ? Int64(status.st_size) : 0)
            }
            return bytes < 8 << 20
        }
    }
}
