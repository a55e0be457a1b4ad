#if Store
import Statecharts

/// Journals events from many concurrent senders in shared transactions: while one transaction
/// commits, the events that arrive wait, and the next transaction takes them all (up to a limit).
/// Throughput then grows with the number of senders instead of stopping at one commit per event.
final class GroupCommit: Sendable {
    private typealias Waiter = CheckedContinuation<Admission, any Error>
    private struct Entry {
        var event: IncomingEvent
        var waiter: Waiter
    }

    private struct State {
        var queue: [Entry] = []
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
                    state.queue.append(Entry(event: event, waiter: waiter))
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

    /// How many events wait for a transaction: those queued and not yet taken by one.
    var queuedCount: Int { state.withLock { $0.queue.count } }

    /// Takes the next transaction's events (up to the limit) off the queue.
    private func takeBatch() -> [Entry] {
        state.withLock { state in
            let count = min(limit, state.queue.count)
            let batch = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return batch
        }
    }

    /// Commits transactions until the queue is empty. Each one takes its events when the store is
    /// ready to write (``MachineStore/enqueue(collecting:)``), so that the events that arrive
    /// while it waits for the writer go in with it.
    private func commitWhileQueued() async {
        while true {
            let idle = state.withLock { state in
                guard state.queue.isEmpty else { return false }
                state.committing = false
                return true
            }
            if idle { return }
            let taken = Locked<[Entry]?>(nil)
            do {
                let admissions = try await store.enqueue(collecting: { [self] in
                    let batch = takeBatch()
                    taken.withLock { $0 = batch }
                    return batch.map(\.event)
                })
                let batch = taken.withLock { $0 } ?? []
                committed()
                guard admissions.count == batch.count else {
                    let error = StoreError.database(
                        store: "group commit", operation: "journaling",
                        message: "the store admitted \(admissions.count) of \(batch.count) events")
                    for entry in batch { entry.waiter.resume(throwing: error) }
                    continue
                }
                for (entry, admission) in zip(batch, admissions) { entry.waiter.resume(returning: admission) }
            } catch {
                // A store that failed before it collected took no event: the batch it would have
                // taken fails with it, so that its senders hear of the failure and the loop ends.
                let batch = taken.withLock { $0 } ?? takeBatch()
                for entry in batch { entry.waiter.resume(throwing: error) }
            }
        }
    }
}
#endif
