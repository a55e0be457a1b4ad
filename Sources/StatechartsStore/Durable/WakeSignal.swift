import Statecharts

/// Wakes a waiting worker: when events were journaled here, or when it has waited long enough.
final class WakeSignal: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Void, Never>?
        var generation: UInt64 = 0
        var woken = false
    }

    private let state = Locked(State())

    /// Wakes the worker that waits, or the next one to wait.
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.woken = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when woken, after `timeout`, or when the task is cancelled.
    func wait(upTo timeout: Duration) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let generation = state.withLock { state -> UInt64? in
                    if state.woken {
                        state.woken = false
                        return nil
                    }
                    state.waiter = continuation
                    state.generation &+= 1
                    return state.generation
                }
                guard let generation else {
                    continuation.resume()
                    return
                }
                Task {
                    try? await Task.sleep(for: timeout)
                    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard state.generation == generation, let waiter = state.waiter else { return nil }
                        state.waiter = nil
                        return waiter
                    }
                    waiter?.resume()
                }
            }
        } onCancel: {
            wake()
        }
    }
}
