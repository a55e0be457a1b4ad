#if Store
import Statecharts

/// Cancels the attempts of one delivery batch that run past their time limits, with one sleeping
/// task for the whole batch (``watch()``) rather than one per attempt.
///
/// The watchdog never sleeps longer than the shortest time limit it may be given
/// (`shortestLimit`), so an attempt that begins while it sleeps cannot fall due before it wakes:
/// each attempt is cancelled when its own limit has passed, not later.
final class AttemptWatchdog: Sendable {
    private struct Attempt {
        var deadline: ContinuousClock.Instant
        var cancel: @Sendable () -> Void
    }

    private struct State {
        var attempts: [Int: Attempt] = [:]
        var timedOut: Set<Int> = []
        var next = 0
    }

    private let state = Locked(State())
    private let shortestLimit: Duration

    /// A watchdog for attempts whose time limits are at least `shortestLimit`.
    init(shortestLimit: Duration) {
        self.shortestLimit = max(shortestLimit, .milliseconds(1))
    }

    /// Runs `work` in a task of its own, cancelled once `limit` has passed, or when the calling
    /// task is cancelled.
    ///
    /// - Returns: What `work` returned or threw, and whether it ran past `limit` (and was
    ///   cancelled): the attempt then counts as failed, whatever it returned.
    func run<Value: Sendable>(
        limit: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        let task = Task { try await work() }
        let token = state.withLock { state in
            let token = state.next
            state.next += 1
            state.attempts[token] = Attempt(deadline: .now + limit, cancel: { task.cancel() })
            return token
        }
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        let timedOut = state.withLock { state in
            state.attempts[token] = nil
            return state.timedOut.remove(token) != nil
        }
        return (result, timedOut)
    }

    /// Wakes at the earliest deadline of the attempts running (or after the shortest limit), and
    /// cancels those past theirs, until the task is cancelled.
    func watch() async {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let now = clock.now
            var overdue: [@Sendable () -> Void] = []
            let wake = state.withLock { state in
                var wake = now + shortestLimit
                for (token, attempt) in state.attempts where !state.timedOut.contains(token) {
                    if attempt.deadline <= now {
                        state.timedOut.insert(token)
                        overdue.append(attempt.cancel)
                    } else if attempt.deadline < wake {
                        wake = attempt.deadline
                    }
                }
                return wake
            }
            for cancel in overdue { cancel() }
            try? await clock.sleep(until: wake, tolerance: nil)
        }
    }
}
#endif
