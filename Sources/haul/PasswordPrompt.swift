import Foundation

// MARK: - PasswordPrompt

/// Asks for a password on the controlling terminal with echo off (`--ask-password`), as
/// `getpass` does; stdin and stdout stay free for data.
enum PasswordPrompt {
    /// The line typed after `prompt`, or nil when there is no terminal.
    static func read(_ prompt: String) -> String? {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        _ = prompt.withCString { write(terminal, $0, strlen($0)) }
        tcsetattr(terminal, TCSAFLUSH, &quiet)
        defer { tcsetattr(terminal, TCSAFLUSH, &saved) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(terminal, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
