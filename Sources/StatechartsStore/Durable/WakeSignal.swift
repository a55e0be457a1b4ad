#if Store
import Statecharts

/// Wakes the waiting workers of one ``DurableMachines`` (there may be several, each in its own
/// `run()`): when events were journaled here, or when each has waited long enough.
final class WakeSignal: Sendable {
    private struct State {
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
        /// A wake with no one waiting: the next worker to wait returns at once.
        var woken = false
    }

    private let state = Locked(State())

    /// Wakes every worker that waits, or the next one to wait.
    func wake() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.waiters.isEmpty {
                state.woken = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when woken, after `timeout`, or when the task is cancelled.
    func wait(upTo timeout: Duration) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ticket = state.withLock { state -> UInt64? in
                    if state.woken {
                        state.woken = false
                        return nil
                    }
                    state.next &+= 1
                    state.waiters[state.next] = continuation
                    return state.next
                }
                guard let ticket else {
                    continuation.resume()
                    return
                }
                Task {
                    try? await Task.sleep(for: timeout)
                    state.withLock { $0.waiters.removeValue(forKey: ticket) }?.resume()
                }
            }
        } onCancel: {
            wake()
        }
    }
}
#endif
