import Dispatch
import Foundation
import Synchronization

// MARK: - HookRunner

/// Runs the hooks a queue's events call for (`HookPlan`), each as its own process without a
/// shell: stdin and stdout are /dev/null, the end of its stderr is kept for the report, and a
/// hook still running at the time limit is stopped (SIGTERM to its process group, SIGKILL two
/// seconds later). A hook that cannot start, exits non-zero, is killed by a signal or runs too
/// long is reported through `report`, with its last line of stderr; the download is not
/// affected.
///
/// **Threading:** `handle` may be called from any thread (the queue's callback queue) and
/// returns at once; each hook is watched on its own thread; `report` runs on that thread.
public final class HookRunner: Sendable {
    private let plan: Mutex<HookPlan>
    private let report: @Sendable (String) -> Void
    private let running = DispatchGroup()

    public init(hooks: DownloadHooks, report: @escaping @Sendable (String) -> Void) {
        plan = Mutex(HookPlan(hooks: hooks))
        self.report = report
    }

    /// Starts the hooks `event` calls for.
    public func handle(_ event: DownloadEvent) {
        let (invocations, timeLimit) = plan.withLock { ($0.invocations(for: event), $0.hooks.timeLimit) }
        guard !invocations.isEmpty else { return }
        for invocation in invocations {
            running.enter()
            Thread.detachNewThread { [self] in
                if let problem = HookProcess.run(invocation.arguments, timeLimit: timeLimit) {
                    report("--\(invocation.moment.rawValue) '\(Self.shown(invocation.arguments))' \(problem)")
                }
                running.leave()
            }
        }
    }

    /// Waits until every hook started so far has ended (each is bounded by the time limit), so
    /// a run that ends does not leave them behind.
    public func waitForRunning() {
        running.wait()
    }

    /// The program and the hook's arguments as a report shows them.
    private static func shown(_ arguments: [String]) -> String {
        TextSanitizer.visible(arguments.joined(separator: " "))
    }
}
