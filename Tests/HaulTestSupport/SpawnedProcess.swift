import Foundation

// MARK: - SpawnedProcess

/// A program started with no signal blocked and default signal handling, so it can be stopped
/// with SIGINT as a user stops it: a child of `Process` inherits the test thread's blocked
/// signals, and SIGINT would never reach it. Its output goes to /dev/null.
public final class SpawnedProcess: Sendable {
    public let pid: pid_t

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ path: String, _ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// Sends `signal` and waits for the program to end; returns its exit status (128 + the
    /// signal when a signal ended it).
    @discardableResult
    public func stop(with signal: Int32) -> Int32 {
        kill(pid, signal)
        return wait()
    }

    /// Waits for the program to end; returns its exit status.
    @discardableResult
    public func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }
}
