import Foundation
import HaulCore

// MARK: - HookArguments

/// Commands run as downloads start, complete or fail, or a torrent starts seeding, named as aria2c
/// names them.
struct HookArguments {
    var start: String?
    var complete: String?
    var error: String?
    var btComplete: String?
    var timeLimit: Double = 60

    static let options: [OptionSpec<HookArguments>] = [
        .value(
            "on-download-start", "command",
            help: "Run this when a download starts, with its gid, 1 (files) and its path (no shell; ask for one "
                + "with sh -c '…' hook)."
        ) { $0.start = $1 },
        .value("on-download-complete", "command", help: "Run this when a download is saved (arguments as above).") {
            $0.complete = $1
        },
        .value("on-download-error", "command", help: "Run this when a download fails (arguments as above).") {
            $0.error = $1
        },
        .value(
            "on-bt-download-complete", "command",
            help: "Run this when a torrent has every wanted file and starts seeding (arguments as above)."
        ) { $0.btComplete = $1 },
        .value("hook-time-limit", "seconds", help: "Seconds a hook may run before it is stopped (default 60).") {
            $0.timeLimit = try OptionValue.double($1)
        },
    ]

    /// Whether any hook is given.
    var givesAny: Bool { start != nil || complete != nil || error != nil || btComplete != nil }

    func validate() throws {
        _ = try hooks()
    }

    /// The hooks given, each command split into words; paths not yet known are given in
    /// `directory`.
    func hooks(directory: String = ".") throws -> DownloadHooks {
        guard timeLimit > 0, timeLimit <= 86_400 else {
            throw UsageError("--hook-time-limit must be from 1 to 86400 seconds")
        }
        var hooks = DownloadHooks(
            timeLimit: timeLimit, directory: directory, workingDirectory: FileManager.default.currentDirectoryPath)
        let given: [(DownloadHooks.Moment, String?)] = [
            (.start, start), (.complete, complete), (.error, error), (.btComplete, btComplete),
        ]
        for case let (moment, text?) in given {
            do {
                try hooks.set(moment, text)
            } catch {
                throw UsageError("\(error)")
            }
        }
        return hooks
    }
}
