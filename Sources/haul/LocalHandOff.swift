import Foundation
import HaulCore
import HaulNet
import HaulRPC

// MARK: - LocalHandOff

/// A second `haul URL` or `haul get URL`, started while a full-screen UI or a daemon holds the
/// state directory, hands its downloads to that haul over the Unix socket in the directory
/// (mode 0600: this user's processes only) rather than being refused.
enum LocalHandOff {
    /// The client of the haul holding `stateDirectory`, when one answers on its socket.
    static func runningHaul(stateDirectory: String) -> RPCClient? {
        guard FileManager.default.fileExists(atPath: RPCServer.socketPath(in: stateDirectory)) else { return nil }
        let client = RPCClient.local(stateDirectory: stateDirectory)
        let answered = StartedWork(async: { () throws(RPCClient.Failure) in
            try await client.call("aria2.getVersion")
        }).outcome()
        guard case .success = answered else { return nil }
        return client
    }

    /// Queues `entries` on the running haul, each with the command line's options and its
    /// directory made absolute here (the running haul has another working directory); returns
    /// their gids, or throws saying which was refused.
    static func submit(
        _ entries: [QueueEntry], defaults: DownloadOptions, directory: String, to client: RPCClient
    ) throws(RPCClient.Failure) -> [GID] {
        let here = FileManager.default.currentDirectoryPath
        let calls = entries.map { entry in
            var entry = entry
            entry.options = entry.options.merged(over: defaults)
            let dir = entry.options.dir ?? directory
            entry.options.dir = dir.hasPrefix("/") ? dir : here + "/" + dir
            return RemoteQueue.addCall(for: entry)
        }
        let results = StartedWork(async: { () throws(RPCClient.Failure) in try await client.multicall(calls) })
            .outcome()
        var gids: [GID] = []
        for result in try results.get() {
            switch result {
            case .success(let answer):
                guard let gid = answer.asGID else {
                    throw .badReply("aria2.addUri answered with \(answer), not a gid")
                }
                gids.append(gid)
            case .failure(let error): throw .refused(error)
            }
        }
        return gids
    }

    /// Waits until every download of `gids` has ended on the running haul, saying each ending
    /// on `report` and, at each poll (4 a second), the running ones and how many wait to
    /// `progress`; returns the number completed and the code of the last failure.
    static func wait(
        for gids: [GID], on client: RPCClient, report: (String) -> Void,
        progress: ([(download: Download, speed: Double)], _ waiting: Int) -> Void = { _, _ in }
    ) -> (completed: Int, lastError: ErrorCode?) {
        var pending = Set(gids)
        var completed = 0
        var lastError: ErrorCode?
        while !pending.isEmpty {
            let keys: JSONValue = [
                "gid", "status", "files", "errorCode", "errorMessage", "totalLength", "completedLength",
                "downloadSpeed",
            ]
            let calls = pending.sorted().map { ("aria2.tellStatus", [JSONValue.string($0.description), keys]) }
            let polled = StartedWork(async: { () throws(RPCClient.Failure) in try await client.multicall(calls) })
                .outcome()
            guard case .success(let results) = polled else {
                report("haul: the running haul stopped answering; its queue keeps the downloads")
                return (completed, .unfinished)
            }
            var active: [(download: Download, speed: Double)] = []
            for (gid, result) in zip(pending.sorted(), results) {
                guard case .success(let record) = result else {
                    // Taken off the running haul's queue before it ended.
                    pending.remove(gid)
                    lastError = .unfinished
                    report("\(gid): removed from the running haul's queue")
                    continue
                }
                guard let (download, speed) = Aria2Status.download(from: record) else { continue }
                guard download.state.isFinal else {
                    if download.state == .active { active.append((download, speed)) }
                    continue
                }
                pending.remove(download.id)
                let name = TextSanitizer.visible(download.destination ?? download.displayURI)
                switch download.state {
                case .complete:
                    completed += 1
                    report("\(name): saved by the running haul")
                default:
                    lastError = download.errorCode ?? .unknown
                    report("\(name): \(download.lastError ?? "stopped")")
                }
            }
            progress(active, pending.count - active.count)
            if !pending.isEmpty { Thread.sleep(forTimeInterval: 0.25) }
        }
        return (completed, lastError)
    }
}
