import CNcurses
import Glibc

// MARK: - CrashGuard

/// Keeps a crash readable: while the full-screen UI runs, stderr goes to a temporary file; on a
/// fatal signal (a Swift runtime trap, SIGSEGV, SIGABRT…) the handler restores the terminal
/// first and then copies what was written to stderr (the crash report) to the real stderr, and
/// dies of the same signal. On a normal end, `disarm` puts stderr back and prints anything that
/// was written meanwhile.
package enum CrashGuard {
    /// The signal handler can take no context, so the two descriptors live here. They are set
    /// before the handlers are installed and read only by the handler, the one reader.
    nonisolated(unsafe) private static var savedStandardError: Int32 = -1
    nonisolated(unsafe) private static var log: Int32 = -1

    private static let fatalSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Sends stderr to a temporary file and installs the handlers.
    package static func arm() {
        _ = notice.count
        var template = Array("/tmp/haul-stderr-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { return }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        savedStandardError = dup(STDERR_FILENO)
        log = descriptor
        dup2(descriptor, STDERR_FILENO)
        for signalNumber in fatalSignals {
            signal(signalNumber) { signalNumber in
                endwin()
                CrashGuard.writeNotice()
                CrashGuard.copyLog()
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
        }
    }

    /// Puts stderr back and prints what was written to it while armed.
    package static func disarm() {
        guard savedStandardError >= 0 else { return }
        for signalNumber in fatalSignals { signal(signalNumber, SIG_DFL) }
        copyLog()
        dup2(savedStandardError, STDERR_FILENO)
        close(savedStandardError)
        close(log)
        savedStandardError = -1
        log = -1
    }

    /// What a crash prints before its report; made before any handler can run.
    private static let notice = Array(
        ("haul crashed; the terminal is restored and the queue kept as of its last checkpoint "
            + "(run haul to continue). What haul wrote to stderr follows.\n").utf8)

    private static func writeNotice() {
        guard savedStandardError >= 0 else { return }
        notice.withUnsafeBytes { _ = write(savedStandardError, $0.baseAddress, $0.count) }
    }

    /// Copies the log to the saved stderr with async-signal-safe calls only.
    private static func copyLog() {
        guard log >= 0, savedStandardError >= 0 else { return }
        var buffer = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        var offset: off_t = 0
        withUnsafeMutableBytes(of: &buffer) { bytes in
            while true {
                let count = pread(log, bytes.baseAddress, bytes.count, offset)
                if count <= 0 { break }
                _ = write(savedStandardError, bytes.baseAddress, count)
                offset += off_t(count)
            }
        }
    }
}
