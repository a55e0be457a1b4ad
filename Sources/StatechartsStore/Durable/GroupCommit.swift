#if Store
import Statecharts

/// Journals events from many concurrent senders in shared transactions: while one transaction
/// commits, the events that arrive wait, and the next transaction takes them all (up to a limit).
/// Throughput then grows with the number of senders instead of stopping at one commit per event.
final class GroupCommit: Sendable {
    private typealias Waiter = CheckedContinuation<Admission, any Error>

    private struct State {
        var queue: [(event: IncomingEvent, waiter: Waiter)] = []
        var committing = false
    }

    private let store: any MachineStore
    private let limit: Int
    private let committed: @Sendable () -> Void
    private let state = Locked(State())

    /// A group commit into `store`, at most `limit` events per transaction, calling `committed`
    /// after each transaction.
    init(store: any MachineStore, limit: Int, committed: @escaping @Sendable () -> Void) {
        self.store = store
        self.limit = limit
        self.committed = committed
    }

    /// Returns once `event` is journaled (or found to be a retry).
    func submit(_ event: IncomingEvent) async throws(StoreError) -> Admission {
        do {
            return try await withCheckedThrowingContinuation { (waiter: Waiter) in
                let leads = state.withLock { state in
                    state.queue.append((event, waiter))
                    if state.committing { return false }
                    state.committing = true
                    return true
                }
                if leads { Task { await self.commitWhileQueued() } }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(store: "group commit", operation: "journaling", message: "\(error)")
        }
    }

    private func commitWhileQueued() async {
        while true {
            let batch = state.withLock { state -> [(event: IncomingEvent, waiter: Waiter)] in
                if state.queue.isEmpty {
                    state.committing = false
                    return []
                }
                let count = min(limit, state.queue.count)
                let batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                return batch
            }
            if batch.isEmpty { return }
            do {
                let admissions = try await store.enqueue(batch.map(\.event))
                committed()
                for (entry, admission) in zip(batch, admissions) { entry.waiter.resume(returning: admission) }
            } catch {
                for entry in batch { entry.waiter.resume(throwing: error) }
            }
        }
    }
}
#endif
