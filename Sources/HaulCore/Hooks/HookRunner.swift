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
/// A download's hooks run one after another in the order of its events, so a complete or error
/// hook never starts before that download's start hook has ended (a small file can complete
/// while its start hook is still running); different downloads' hooks run side by side.
///
/// **Threading:** `handle` may be called from any thread (the queue's callback queue) and
/// returns at once; each download with hooks to run has a thread of its own while it has any;
/// `report` runs on that thread.
public final class HookRunner: Sendable {
    private struct State {
        var plan: HookPlan
        /// Hooks waiting for an earlier hook of the same download to end, by download. A
        /// download is a key exactly while its thread runs.
        var waiting: [GID: [DownloadHooks.Invocation]] = [:]
    }

    private let state: Mutex<State>
    private let report: @Sendable (String) -> Void
    private let running = DispatchGroup()

    /// A runner of `hooks`; nothing runs before the first `handle(_:)`.
    ///
    /// - Parameters:
    ///   - hooks: The commands to run.
    ///   - report: Gets one line for each hook that could not start, failed or ran too long; on
    ///     the hook's thread.
    public init(hooks: DownloadHooks, report: @escaping @Sendable (String) -> Void) {
        state = Mutex(State(plan: HookPlan(hooks: hooks)))
        self.report = report
    }

    /// Starts the hooks `event` calls for, after any of the same download's still running.
    ///
    /// - Parameter event: A download event from the queue; most call for no hook.
    public func handle(_ event: DownloadEvent) {
        let (fresh, timeLimit) = state.withLock { state in
            var fresh: [DownloadHooks.Invocation] = []
            for invocation in state.plan.invocations(for: event) {
                if state.waiting[invocation.download] != nil {
                    state.waiting[invocation.download]?.append(invocation)
                } else {
                    state.waiting[invocation.download] = []
                    fresh.append(invocation)
                }
            }
            return (fresh, state.plan.hooks.timeLimit)
        }
        for invocation in fresh {
            running.enter()
            Thread.detachNewThread { [self] in
                runLane(from: invocation, timeLimit: timeLimit)
                running.leave()
            }
        }
    }

    /// Waits until every hook started so far has ended (each is bounded by the time limit), so
    /// a run that ends does not leave them behind.
    public func waitForRunning() {
        running.wait()
    }

    /// Runs `first`, then each hook of its download that came meanwhile, until none is waiting.
    private func runLane(from first: DownloadHooks.Invocation, timeLimit: Double) {
        var next: DownloadHooks.Invocation? = first
        while let invocation = next {
            if let problem = HookProcess.run(invocation.arguments, timeLimit: timeLimit) {
                report("--\(invocation.moment.rawValue) '\(Self.shown(invocation.arguments))' \(problem)")
            }
            next = state.withLock { state in
                guard state.waiting[invocation.download]?.isEmpty == false else {
                    state.waiting[invocation.download] = nil
                    return nil
                }
                return state.waiting[invocation.download]?.removeFirst()
            }
        }
    }

    /// The program and the hook's arguments as a report shows them.
    private static func shown(_ arguments: [String]) -> String {
        TextSanitizer.visible(arguments.joined(separator: " "))
    }
}
