import ArgumentParser
import Foundation
import HaulCore

// MARK: - HookArguments

/// Commands run as downloads start, complete or fail, named as aria2c names them.
struct HookArguments: ParsableArguments {
    @Option(
        name: .customLong("on-download-start"),
        help: ArgumentHelp(
            "Run this when a download starts, with its gid, 1 (files) and its path (no shell; "
                + "ask for one with sh -c '…' hook).", valueName: "command"))
    var start: String?

    @Option(
        name: .customLong("on-download-complete"),
        help: ArgumentHelp("Run this when a download is saved (arguments as above).", valueName: "command"))
    var complete: String?

    @Option(
        name: .customLong("on-download-error"),
        help: ArgumentHelp("Run this when a download fails (arguments as above).", valueName: "command"))
    var error: String?

    @Option(
        name: .customLong("hook-time-limit"),
        help: ArgumentHelp("Seconds a hook may run before it is stopped (default 60).", valueName: "seconds"))
    var timeLimit: Double = 60

    /// Whether any hook is given.
    var givesAny: Bool { start != nil || complete != nil || error != nil }

    func validate() throws {
        _ = try hooks()
    }

    /// The hooks given, each command split into words; paths not yet known are given in
    /// `directory`.
    func hooks(directory: String = ".") throws -> DownloadHooks {
        guard timeLimit > 0, timeLimit <= 86_400 else {
            throw ValidationError("--hook-time-limit must be from 1 to 86400 seconds")
        }
        var hooks = DownloadHooks(
            timeLimit: timeLimit, directory: directory, workingDirectory: FileManager.default.currentDirectoryPath)
        for case let (moment, text?) in [(DownloadHooks.Moment.start, start), (.complete, complete), (.error, error)] {
            do {
                try hooks.set(moment, text)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        return hooks
    }
}
