#if Store
import Statecharts

/// The listeners of a store's notifications in one process, which share one listening task: the
/// first listener starts it, the last one to leave stops it.
final class NotificationHub: Sendable {
    private struct State {
        var listeners: [UInt64: @Sendable (StoreChange) -> Void] = [:]
        var next: UInt64 = 0
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Adds `wake`, and starts the listening task with `start` when none runs.
    ///
    /// - Returns: The listener's number, for ``remove(_:)``.
    func add(
        _ wake: @escaping @Sendable (StoreChange) -> Void, start: (NotificationHub) -> Task<Void, Never>
    ) -> UInt64 {
        let (id, starts) = state.withLock { state in
            state.next &+= 1
            state.listeners[state.next] = wake
            return (state.next, state.task == nil)
        }
        if starts {
            let task = start(self)
            let spare = state.withLock { state -> Task<Void, Never>? in
                if state.task != nil || state.listeners.isEmpty { return task }
                state.task = task
                return nil
            }
            spare?.cancel()
            // Started for a listener that was added at the same moment: it wakes this one too.
            if spare != nil { wake(.events) }
        }
        return id
    }

    /// Removes a listener; the last one stops the listening task.
    func remove(_ id: UInt64) {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.listeners[id] = nil
            guard state.listeners.isEmpty else { return nil }
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    /// Stops the listening task, for a store that closes.
    func stop() {
        state.withLock { state in
            defer { state.task = nil }
            return state.task
        }?.cancel()
    }

    /// Hands `change` to every listener.
    func wake(_ change: StoreChange) {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener(change) }
    }
}
#endif
