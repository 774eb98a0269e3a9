import Testing

@testable import HaulCore

/// Which hooks a queue's events call for, as tables of events → invocations; how a hook's
/// command is split into words.
@Suite("Download hooks")
struct HookPlanTests {
    private static func download(_ state: Download.State, id: GID = "0123456789abcdef") -> Download {
        var download = Download(id: id, uris: ["https://example.org/a.iso"])
        download.state = state
        download.destination = "/data/a.iso"
        return download
    }

    private static func hooks() throws -> DownloadHooks {
        var hooks = DownloadHooks()
        try hooks.set(.start, "/bin/started")
        try hooks.set(.complete, "notify --done")
        try hooks.set(.error, "/bin/failed")
        return hooks
    }

    @Test(
        "events in, hooks out: start once a run (not per retry, again after a pause), complete, error",
        arguments: [
            ([(Download.State.active, Download.State.queued)], ["/bin/started"]),
            ([(.active, .queued), (.queued, .active), (.active, .queued)], ["/bin/started"]),
            ([(.active, .queued), (.paused, .active), (.active, .paused)], ["/bin/started", "/bin/started"]),
            ([(.active, .queued), (.complete, .active)], ["/bin/started", "notify"]),
            ([(.active, .queued), (.failed, .active)], ["/bin/started", "/bin/failed"]),
            ([(.active, .queued), (.cancelled, .active), (.active, .cancelled)], ["/bin/started", "/bin/started"]),
            ([(.paused, .queued), (.queued, .paused)], []),
        ] as [([(Download.State, Download.State)], [String])])
    func plan(changes: [(Download.State, Download.State)], programs: [String]) throws {
        var plan = HookPlan(hooks: try Self.hooks())
        let invocations = changes.flatMap { to, from in
            plan.invocations(for: .stateChanged(Self.download(to), from: from))
        }
        #expect(invocations.map { $0.arguments[0] } == programs)
        for invocation in invocations {
            #expect(invocation.arguments.suffix(3) == ["0123456789abcdef", "1", "/data/a.iso"], "aria2's arguments")
        }
    }

    @Test("a download removed and added again starts afresh; other events call for nothing")
    func removed() throws {
        var plan = HookPlan(hooks: try Self.hooks())
        #expect(plan.invocations(for: .stateChanged(Self.download(.active), from: .queued)).count == 1)
        #expect(plan.invocations(for: .removed(id: "0123456789abcdef")).isEmpty)
        #expect(plan.invocations(for: .stateChanged(Self.download(.active), from: .queued)).count == 1)
        #expect(plan.invocations(for: .updated(Self.download(.active))).isEmpty)
        #expect(plan.invocations(for: .moved(id: "0123456789abcdef", to: 3)).isEmpty)
        var none = HookPlan(hooks: DownloadHooks())
        #expect(none.invocations(for: .stateChanged(Self.download(.complete), from: .active)).isEmpty)
    }

    @Test("a torrent that starts seeding calls on-bt-download-complete with its folder, as last named")
    func seeding() throws {
        var hooks = try Self.hooks()
        try hooks.set(.btComplete, "/bin/seeding")
        var plan = HookPlan(hooks: hooks)
        var torrent = Self.download(.active)
        torrent.destination = nil
        _ = plan.invocations(for: .stateChanged(torrent, from: .queued))
        torrent.destination = "/data/album"
        #expect(plan.invocations(for: .updated(torrent)).isEmpty)
        let seeding = plan.invocations(for: .activity(id: torrent.id, .seedingStarted))
        #expect(seeding.map(\.arguments) == [["/bin/seeding", "0123456789abcdef", "1", "/data/album"]])
        // Not for a download the plan did not see start.
        #expect(plan.invocations(for: .activity(id: "00000000000000ff", .seedingStarted)).isEmpty)
    }

    @Test("before the name is known, the path is where -d and out or the URI put it, made absolute")
    func path() {
        let hooks = DownloadHooks(directory: "out", workingDirectory: "/home/me")
        var download = Download(id: "0123456789abcdef", uris: ["https://example.org/a.iso?x=1"])
        #expect(hooks.path(of: download) == "/home/me/out/a.iso")
        download.options.out = "b.iso"
        download.directory = "/data"
        #expect(hooks.path(of: download) == "/data/b.iso")
        download.destination = "/data/b.1.iso"
        #expect(hooks.path(of: download) == "/data/b.1.iso")
    }

    @Test(
        "a command is split into words as a shell splits them, and nothing is expanded",
        arguments: [
            ("/usr/bin/notify", ["/usr/bin/notify"]),
            ("  notify   --done  ", ["notify", "--done"]),
            ("'/opt/my hooks/done.sh' a", ["/opt/my hooks/done.sh", "a"]),
            ("sh -c 'echo \"$3\" >> log' hook", ["sh", "-c", "echo \"$3\" >> log", "hook"]),
            ("echo \"a \\\"b\\\" \\n\" $HOME", ["echo", "a \"b\" \\n", "$HOME"]),
            ("a\\ b ''", ["a b", ""]),
        ])
    func words(text: String, expected: [String]) throws {
        #expect(try DownloadHooks.words(of: text) == expected)
    }

    @Test("an unclosed quote or no program is refused, saying why")
    func badCommands() {
        var hooks = DownloadHooks()
        #expect(throws: OptionError.self) { try hooks.set(.complete, "sh -c 'echo") }
        #expect(throws: OptionError.self) { try hooks.set(.complete, "   ") }
        #expect(throws: OptionError.self) { try hooks.set(.complete, "trailing\\") }
        #expect(DownloadHooks.isHookOption("on-download-complete") && !DownloadHooks.isHookOption("out"))
    }
}
