import Foundation
import Testing

@testable import HaulCore

/// A new empty directory for a store under test; the test removes it.
func storeScratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-store-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// A stored queue in `directory`'s state directory, saving into `directory` (whatever
/// `configuration` says of it), telling `onEvent` its events; a store error fails the test.
func scratchStoredQueue(
    in directory: URL, configuration: DownloadQueue.Configuration = DownloadQueue.Configuration(),
    checkpointInterval: Double, onEvent: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
) throws -> StoredQueue {
    var configuration = configuration
    configuration.directory = directory.path
    return try StoredQueue(
        opened: StoredQueue.Opened(stateDirectory: directory.appendingPathComponent("state").path),
        configuration: configuration, checkpointInterval: checkpointInterval,
        onStoreError: { Issue.record("\($0)") }, onEvent: onEvent)
}
