import Foundation

// MARK: - DescriptorTable

/// The process's table of file descriptors, grown once as haul starts. Linux begins a process
/// with room for 64 descriptors and grows the table when one more is needed; in a process of
/// several threads each growth waits for an RCU grace period before the old table is freed
/// (`expand_files`, `synchronize_rcu`): milliseconds on a virtual machine, which stalled the
/// engine thread as a run of small files opened its 65th descriptor (16 connections, their
/// files, the files made ahead, the store). Grown while haul is one thread, it costs a few
/// microseconds, and a run of 16 downloads never grows it again.
enum DescriptorTable {
    /// Room for this many descriptors (fewer if the process may not open as many).
    static let reserved = 1024

    /// Raises the limit of open files to the most the process may have (the soft limit to the
    /// hard one): a daemon's clients and downloads may need more than the 1024 a service manager
    /// gives by default. Returns the limit now in force (0 when it cannot be read).
    @discardableResult
    static func raiseLimit() -> UInt64 {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }

    /// Grows the table to `reserved` slots, or to the process's limit of open files if that is
    /// lower. Does nothing when it cannot (no `/dev/null`, a limit of 64 or less).
    ///
    /// **Threading:** call before any other thread is made: afterwards the growth waits as above.
    static func reserve() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let highest = Int32(clamping: min(UInt64(reserved), UInt64(limit.rlim_cur))) - 1
        guard highest >= 64 else { return }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard null >= 0 else { return }
        let placed = fcntl(null, F_DUPFD_CLOEXEC, highest)
        if placed >= 0 { close(placed) }
        close(null)
    }
}
