#if Store
import Foundation
import GRDB
import Statecharts
import Testing

@testable import StatechartsStore

/// Sends from many tasks share transactions: those that arrive while the writer is busy go in with
/// the first, and a store that fails is heard of by its senders.
@Suite struct GroupCommitTests {
    /// Counts the rows inserted into the journal by each committed transaction.
    final class JournalCommits: TransactionObserver, Sendable {
        private let inserts = Locked(0)
        let commits = Locked([Int]())

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            if case .insert(let table) = eventKind { return table == "statechart_journal" }
            return false
        }
        func databaseDidChange(with event: DatabaseEvent) { inserts.withLock { $0 += 1 } }
        func databaseDidCommit(_ db: Database) {
            let count = inserts.withLock { count in
                defer { count = 0 }
                return count
            }
            if count > 0 { commits.withLock { $0.append(count) } }
        }
        func databaseDidRollback(_ db: Database) { inserts.withLock { $0 = 0 } }
    }

    /// Waits, at most 5 s, for `condition`.
    func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    @Test("events sent while the writer is busy go in one transaction with the first")
    func sendsWaitingForTheWriterShareItsTransaction() async throws {
        let store = try #require(try await StoreKind.sqlite.make() as? SQLiteMachineStore)
        let observer = JournalCommits()
        store.pool.add(transactionObserver: observer, extent: .observerLifetime)
        let fleet = try orders(store, TestClock())
        // Another transaction holds the writer (a worker's, say) while the sends arrive.
        let holding = Locked(false)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            store.pool.writeWithoutTransaction { _ in
                holding.withLock { $0 = true }
                release.wait()
            }
        }
        holder.start()
        try await eventually { holding.withLock { $0 } }
        try await withThrowingTaskGroup(of: Admission.self) { group in
            for item in 1...20 { group.addTask { try await fleet.send(.add(item), to: "m-\(item)") } }
            // All twenty wait; the first one's transaction waits for the writer.
            try await eventually { fleet.commits.queuedCount == 20 }
            release.signal()
            var journaled = 0
            for try await admission in group { if case .journaled = admission { journaled += 1 } }
            #expect(journaled == 20)
        }
        #expect(observer.commits.withLock { $0 } == [20], "one transaction, not the first event's and then the rest")
        #expect(try await store.backlog(now: 0).pendingEvents == 20)
    }

    @Test("a store that fails before it takes the events fails their senders, and later sends go through")
    func failureBeforeCollecting() async throws {
        let base = try await StoreKind.sqlite.make()
        let store = ScriptedEnqueueStore(base: base, failures: 1)
        let fleet = try orders(store, TestClock())
        await #expect(throws: StoreError.self) { try await fleet.send(.add(1), to: "a") }
        let admission = try await fleet.send(.add(2), to: "a")
        #expect(admission != .duplicate)
        #expect(try await base.journal(of: "a").count == 1)
        #expect(fleet.commits.queuedCount == 0)
    }

    @Test("a store that admits fewer events than it took fails their senders instead of leaving them waiting")
    func shortAdmissions() async throws {
        let base = try await StoreKind.sqlite.make()
        let store = ScriptedEnqueueStore(base: base, failures: 0, dropsAdmissions: true)
        let fleet = try orders(store, TestClock())
        await #expect(throws: StoreError.self) { try await fleet.send(.add(1), to: "a") }
    }
}

/// A store whose first `failures` transactions of events fail before they take any event (as a
/// database that cannot begin one does), and that, with `dropsAdmissions`, answers with no
/// admission at all.
final class ScriptedEnqueueStore: ForwardingStore {
    let base: any MachineStore
    let failures: Locked<Int>
    let dropsAdmissions: Bool

    init(base: any MachineStore, failures: Int, dropsAdmissions: Bool = false) {
        self.base = base
        self.failures = Locked(failures)
        self.dropsAdmissions = dropsAdmissions
    }

    func enqueue(
        collecting collect: @escaping @Sendable () -> [IncomingEvent]
    ) async throws(StoreError) -> [Admission] {
        let fails = failures.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
        }
        if fails { throw .database(store: "test", operation: "beginning a transaction", message: "disk I/O error") }
        let admissions = try await base.enqueue(collecting: collect)
        return dropsAdmissions ? [] : admissions
    }
}
#endif
