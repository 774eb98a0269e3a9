import Foundation
import HaulNet

// MARK: - StateDirectory

/// The directory haul keeps its store in (`$XDG_STATE_HOME/haul`, else
/// `~/.local/state/haul`, or `--state-dir`), created mode 0700 and held by one haul process
/// at a time through an advisory lock that the kernel drops when the process ends, even by
/// `kill -9`.
public final class StateDirectory: Sendable {
    public let path: String
    private let lockDescriptor: Int32

    /// The default location for `environment` (normally the process's).
    ///
    /// - Parameter environment: The variables to read `XDG_STATE_HOME` and `HOME` from.
    /// - Returns: `$XDG_STATE_HOME/haul`, else `~/.local/state/haul`.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.variables) -> String {
        XDGDirectory.state.path(environment: environment)
    }

    /// Creates `path` if missing and takes its lock; throws when another haul holds it.
    ///
    /// - Parameter path: The state directory; made with mode 0700 when missing.
    /// - Throws: `StoreError` when the directory or its lock file cannot be made, or another haul
    ///   holds the lock (naming its pid and `--state-dir`).
    public init(path: String) throws(StoreError) {
        self.path = path
        if let failure = PosixFile.makeDirectories(path, mode: 0o700) {
            throw StoreError("cannot create the state directory \(path): \(failure)")
        }
        let lockPath = path + "/lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError("cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: lockPath, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            close(descriptor)
            throw StoreError(
                "another haul\(holder.map { " (pid \($0))" } ?? "") is using the state directory \(path); "
                    + "wait for it to finish, or give this one its own with --state-dir")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        lockDescriptor = descriptor
    }

    deinit {
        close(lockDescriptor)
    }

    /// The store's database file.
    public var databasePath: String { StateDirectory.databasePath(in: path) }

    /// The database file of the store in the state directory at `path`.
    static func databasePath(in path: String) -> String {
        path + "/haul.sqlite"
    }
}
