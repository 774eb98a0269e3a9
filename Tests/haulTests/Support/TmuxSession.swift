import Foundation

// MARK: - TmuxSession

/// A detached tmux session on its own server socket, running one command in a 120×40 pane:
/// the full-screen UI as a person sees it (`send-keys`, `capture-pane`).
final class TmuxSession {
    let socket = "haul-test-\(UUID().uuidString.prefix(8))"

    init(command: String, width: Int = 120, height: Int = 40) throws {
        try tmux(["new-session", "-d", "-x", String(width), "-y", String(height), command])
    }

    /// `haul ARGS` in `directory` with its own state and config (`DIR-state`, `DIR-config`), then
    /// a line with its exit status.
    static func haul(
        _ arguments: [String], in directory: URL, environment: String = "", width: Int = 120,
        height: Int = 40
    ) throws -> TmuxSession {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let command =
            "cd '\(directory.path)' && XDG_STATE_HOME='\(directory.path)-state' "
            + "XDG_CONFIG_HOME='\(directory.path)-config' \(environment) '\(HaulProcess.binary.path)' \(quoted); "
            + "echo EXIT=$?; sleep 30"
        return try TmuxSession(command: command, width: width, height: height)
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// The pane's text now.
    func capture() -> String {
        (try? tmux(["capture-pane", "-p"])) ?? ""
    }

    /// The process the pane's shell runs now (its first child: `haul` while it runs).
    func program() -> Int32? {
        guard let shell = Int32((try? tmux(["list-panes", "-F", "#{pane_pid}"]))?.split(separator: "\n").first ?? "")
        else { return nil }
        let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// The processor time process `pid` has used, in seconds (user and system), from /proc.
    static func processorSeconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's ")": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Types keys (tmux key names, such as `Enter` or `C-c`, or literal text).
    func send(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", String(width), "-y", String(height)])
    }

    /// Polls the pane until `condition` holds, for at most `seconds`; returns the last capture
    /// and whether it held. Awaited between polls, so a waiting test leaves the test run's few
    /// threads to the tests beside it.
    @discardableResult
    func wait(seconds: Double = 15, until condition: (String) -> Bool) async -> (text: String, held: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var text = capture()
        while !condition(text) {
            if Date() > deadline { return (text, false) }
            try? await Task.sleep(for: .milliseconds(50))
            text = capture()
        }
        return (text, true)
    }

    /// Runs tmux through the shell with popen/pclose: Foundation's Process never sees the exit of
    /// the client that starts a server (the daemon keeps a descriptor it watches), so it hangs.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        let command = "env -u TMUX TERM=xterm-256color tmux -L \(socket) \(quoted) 2>/dev/null </dev/null"
        guard let stream = popen(command, "r") else { throw TmuxError(command: command) }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, stream)
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        guard pclose(stream) == 0 || arguments.first == "kill-server" else { throw TmuxError(command: command) }
        return String(decoding: output, as: UTF8.self)
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let command: String
    var description: String { "tmux failed: \(command)" }
}
