import Foundation

// MARK: - HookProcess

/// One hook's process, from start to end, on the calling thread (see `HookRunner`).
enum HookProcess {
    /// The most of a hook's stderr kept, to report its last line.
    static let stderrLimit = 4096

    /// Runs `arguments` (the program, found through PATH, then its arguments) with signals at
    /// their defaults, in a process group of its own; returns nil when it exits 0, else what
    /// went wrong.
    static func run(_ arguments: [String], timeLimit: Double) -> String? {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return "could not start: \(String(cString: strerror(errno)))" }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end leaks into other programs haul starts (the hook gets a copy as stderr).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        let spawned = spawn(arguments, stderr: writeEnd)
        close(writeEnd)
        let pid: pid_t
        switch spawned {
        case .failure(let failure): return failure.description
        case .success(let started): pid = started
        }
        var output = [UInt8]()
        let deadline = Date().addingTimeInterval(timeLimit)
        var killAt: Date?
        var status: Int32 = 0
        while true {
            drain(readEnd, into: &output)
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid || (ended < 0 && errno != EINTR) { break }
            let now = Date()
            if killAt == nil, now >= deadline {
                kill(-pid, SIGTERM)
                killAt = now.addingTimeInterval(2)
            } else if let at = killAt, now >= at {
                kill(-pid, SIGKILL)
            }
        }
        drain(readEnd, into: &output)
        let lastLine = lastLine(of: output).map { ": \($0)" } ?? ""
        if killAt != nil { return "ran longer than \(Int(timeLimit)) s and was stopped\(lastLine)" }
        let signal = status & 0x7f
        if signal != 0 { return "was killed by signal \(signal)\(lastLine)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "exited with status \(code)\(lastLine)"
    }

    /// Starts the process; its stdin and stdout are /dev/null, its stderr `stderr`.
    private static func spawn(_ arguments: [String], stderr: Int32) -> Result<pid_t, HookFailure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGXFSZ] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments.first ?? "", &actions, &attributes, argv, environ)
        guard result == 0 else { return .failure(HookFailure("could not start: \(String(cString: strerror(result)))")) }
        return .success(pid)
    }

    /// Reads what the hook wrote to stderr so far (waiting up to 50 ms for some), keeping the
    /// last `stderrLimit` bytes.
    private static func drain(_ descriptor: Int32, into output: inout [UInt8]) {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 50) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else {
            // The write end is closed (the hook and its children are done with it): wait
            // without spinning until the process is reaped.
            if count == 0 { usleep(50_000) }
            return
        }
        output.append(contentsOf: buffer[..<count])
        if output.count > stderrLimit { output.removeFirst(output.count - stderrLimit) }
    }

    /// The last non-empty line of `output`, control characters made visible, at most 200
    /// characters.
    private static func lastLine(of output: [UInt8]) -> String? {
        let text = String(decoding: output, as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) })
        else { return nil }
        return String(TextSanitizer.visible(String(line)).prefix(200))
    }
}

/// Why a hook could not start.
struct HookFailure: Error {
    let description: String
    init(_ description: String) { self.description = description }
}
