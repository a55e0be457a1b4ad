import Statecharts

/// A counting semaphore whose waiters wait without holding a thread: how many child processes, or
/// tests on threads of their own, run at once.
package final class Slots: Sendable {
    private let state: Locked<(free: Int, waiters: [CheckedContinuation<Void, Never>])>

    /// Slots for `count` holders at once (at least one).
    package init(_ count: Int) { state = Locked((max(count, 1), [])) }

    /// Takes a slot, waiting for one to be released when none is free.
    package func acquire() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives the slot to the first waiter, or frees it.
    package func release() {
        let next = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding a slot.
    package func holding<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        await acquire()
        defer { release() }
        return try await body()
    }
}
