#if Store
import Foundation
import Statecharts
import StatechartsStore
import Testing

/// What a durable machine promises, on every store: acknowledged events applied once and in order,
/// recovery from snapshots and the journal, retries recognized, timers that fire after a restart.
@Suite(.serialized) struct DurableMachineTests {
    static let stores = StoreKind.available

    @Test("events are applied in the order they were acknowledged, each once", arguments: stores)
    func appliedInOrder(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orders(store, clock)
        for item in 1...25 { try await fleet.send(.add(item), to: "a") }
        for item in 101...105 { try await fleet.send(.add(item), to: "b") }
        #expect(try await store.backlog(now: clock.now).pendingEvents == 30)
        try await fleet.drain()
        #expect(try await store.backlog(now: clock.now).isEmpty)
        let a = try #require(try await fleet.machine("a"))
        #expect(a.context.items == Array(1...25))
        #expect(a.configuration == [.open])
        #expect(try #require(try await fleet.machine("b")).context.items == Array(101...105))
        #expect(try await fleet.machine("nobody") == nil)
        #expect(try await store.machineIDs() == ["a", "b"])
        // The journal: the start, then the 25 events numbered in order.
        let journal = try await store.journal(of: "a")
        #expect(journal.map(\.sequence) == (1...26).map { Int64($0) })
        #expect(journal.first?.kind == .start)
        #expect(journal.dropFirst().map(\.eventID).allSatisfy { $0 != nil })
    }

    @Test("a batch the database fails is claimed again smaller, until it commits, and grows back", arguments: stores)
    func failedBatchShrinks(_ kind: StoreKind) async throws {
        // A database that fails every transaction claiming more than 4 machines, as one that
        // cannot apply so many within its time limit does.
        let store = BatchLimitedStore(base: try await kind.make(), largest: 4)
        let clock = TestClock()
        let fleet = try orders(store, clock, options: DurableOptions(machinesPerBatch: 32))
        for machine in 0..<40 { try await fleet.send(.add(machine), to: "order-\(machine)") }
        var failures = 0
        var applied = 0
        for _ in 0..<20 where applied < 40 {
            do {
                applied += try await fleet.process()
            } catch {
                failures += 1
            }
        }
        // 32, 16 and 8 failed; from 4 on every transaction commits.
        #expect(applied == 40)
        #expect(failures == 3)
        #expect(store.limits.withLock { $0 } == [32, 16, 8] + Array(repeating: 4, count: 10))
        // After 16 commits in a row it tries twice as many again, and halves when that fails.
        for machine in 40..<100 { try await fleet.send(.add(machine), to: "order-\(machine)") }
        for _ in 0..<20 { _ = try? await fleet.process() }
        #expect(store.limits.withLock { Array($0.dropFirst(13).prefix(8)) } == [4, 4, 4, 4, 4, 4, 8, 4])
        for machine in 0..<100 {
            #expect(try await fleet.machine("order-\(machine)")?.context.items == [machine])
        }
    }

    @Test("without machinesPerBatch, a fleet claims as many machines as its store prefers", arguments: stores)
    func storesBatchSize(_ kind: StoreKind) async throws {
        let store = BatchLimitedStore(base: try await kind.make(), largest: .max)
        // SQLite has one writer, and gains from large batches; PostgreSQL's workers write side
        // by side, and claim fewer each.
        let preferred = kind == .sqlite ? 2048 : 256
        #expect(store.preferredMachinesPerBatch == preferred)
        let clock = TestClock()
        let fleet = try orders(store, clock)
        try await fleet.send(.add(1), to: "first")
        #expect(try await fleet.process() == 1)
        let chosen = try orders(store, clock, options: DurableOptions(machinesPerBatch: 3))
        try await chosen.send(.add(2), to: "second")
        #expect(try await chosen.process() == 1)
        #expect(store.limits.withLock { $0 } == [preferred, 3])
    }

    @Test("a retried send with the same identifier is recognized and applied once", arguments: stores)
    func idempotentRetry(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let fleet = try orders(store, TestClock())
        let first = try await fleet.send(.add(7), to: "cart", id: "request-1")
        guard case .journaled = first else {
            Issue.record("the first send was not journaled: \(first)")
            return
        }
        #expect(try await fleet.send(.add(7), to: "cart", id: "request-1") == .duplicate)
        try await fleet.drain()
        // A retry after the event was applied is still recognized.
        #expect(try await fleet.send(.add(7), to: "cart", id: "request-1") == .duplicate)
        #expect(try await fleet.send(.add(8), to: "cart", id: "request-2") != .duplicate)
        // The same identifier for another machine is another event.
        #expect(try await fleet.send(.add(9), to: "other", id: "request-1") != .duplicate)
        try await fleet.drain()
        #expect(try #require(try await fleet.machine("cart")).context.items == [7, 8])
        #expect(try #require(try await fleet.machine("other")).context.items == [9])
    }

    @Test("concurrent sends share transactions and every one is journaled once", arguments: stores)
    func groupCommit(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let fleet = try orders(store, TestClock(), options: DurableOptions(eventsPerCommit: 64))
        let admissions = try await withThrowingTaskGroup(of: Admission.self) { group in
            for sender in 0..<20 {
                group.addTask {
                    var last = Admission.duplicate
                    for item in 0..<15 { last = try await fleet.send(.add(sender * 100 + item), to: "m\(sender % 5)") }
                    return last
                }
            }
            return try await group.reduce(into: [Admission]()) { $0.append($1) }
        }
        #expect(admissions.allSatisfy { $0 != .duplicate })
        try await fleet.drain()
        for machine in 0..<5 {
            let items = try #require(try await fleet.machine("m\(machine)")).context.items
            #expect(items.count == 60)
            // Each sender's events arrive in the order it sent them.
            for sender in stride(from: machine, to: 20, by: 5) {
                #expect(items.filter { $0 / 100 == sender } == (0..<15).map { sender * 100 + $0 })
            }
        }
    }

    @Test("a new process recovers every machine from its snapshot and journal", arguments: stores)
    func recovery(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let options = DurableOptions(snapshotInterval: 4, compaction: .afterSnapshot(keepingLast: 2))
        let before = try orders(store, clock, options: options)
        for item in 1...9 { try await before.send(.add(item), to: "x") }
        try await before.drain()
        let record = try #require(try await store.record(of: "x"))
        #expect(record.row.snapshot != nil)
        #expect(record.row.snapshotSequence > 0)
        // Compaction kept the two entries before the snapshot and everything after it.
        let journal = try await store.journal(of: "x")
        #expect(journal.first?.sequence == record.row.snapshotSequence - 1)
        #expect(journal.last?.sequence == record.row.appliedSequence)

        // Another process: nothing in memory.
        let after = try orders(store, clock, options: options)
        for item in 10...14 { try await after.send(.add(item), to: "x") }
        try await after.drain()
        #expect(try #require(try await after.machine("x")).context.items == Array(1...14))
        // And the first keeps working on the same machine: its memory is stale, so it reloads.
        try await before.send(.add(15), to: "x")
        try await before.drain()
        #expect(try #require(try await before.machine("x")).context.items == Array(1...15))
        try await before.send(.pay, to: "x")
        try await before.drain()
        #expect(try #require(try await after.machine("x")).configuration == [.paid])
    }

    @Test("timers due while no worker ran fire once, at their deadlines, after a restart", arguments: stores)
    func timersAfterRestart(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let before = try orders(store, clock)
        try await before.send(.add(10), to: "late")
        try await before.send(.add(20), to: "late")
        try await before.drain()
        // Two reminders (2 s) and the order's expiry (30 s) are rows with their due times.
        let record = try #require(try await store.record(of: "late"))
        #expect(record.timers.count == 3)
        #expect(
            record.timers.map(\.dueAt) == [
                record.row.epoch + 2_000_000_000, record.row.epoch + 2_000_000_000, record.row.epoch + 30_000_000_000,
            ])
        #expect(try await store.backlog(now: clock.now).dueTimers == 0)

        // The process stops; a minute passes; a new one starts.
        clock.advance(by: .seconds(60))
        #expect(try await store.backlog(now: clock.now).dueTimers == 3)
        let after = try orders(store, clock)
        #expect(try await after.drain() == 1)
        let machine = try #require(try await after.machine("late"))
        #expect(machine.context.reminders == [10, 20])
        #expect(machine.context.expirations == 1)
        #expect(machine.configuration == [.expired])
        // The reminders fired at their deadline in the machine's time, before the expiry.
        #expect(try await store.record(of: "late")?.timers.isEmpty == true)
        #expect(try await after.drain() == 0)
        clock.advance(by: .seconds(60))
        #expect(try await after.drain() == 0)
        #expect(try #require(try await before.machine("late")).context.reminders == [10, 20])
        // The journal says when: the passing of time is an entry of its own.
        #expect(try await store.journal(of: "late").last?.kind == .advance)
    }

    @Test("a timer cancelled by an event does not fire", arguments: stores)
    func cancelledTimer(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orders(store, clock)
        try await fleet.send(.add(1), to: "o")
        try await fleet.drain()
        #expect(try await store.record(of: "o")?.timers.count == 1)
        clock.advance(by: .seconds(10))
        try await fleet.send(.pay, to: "o")
        try await fleet.drain()
        #expect(try await store.record(of: "o")?.timers.isEmpty == true)
        clock.advance(by: .seconds(60))
        #expect(try await fleet.drain() == 0)
        let machine = try #require(try await fleet.machine("o"))
        #expect(machine.configuration == [.paid])
        #expect(machine.context.expirations == 0)
    }

    @Test("an event that cannot be decoded is reported and skipped, the same way on replay", arguments: stores)
    func undecodableEvent(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let errors = Locked([String]())
        let fleet = try orders(store, TestClock(), errors: errors)
        try await fleet.send(.add(1), to: "m")
        _ = try await store.enqueue([
            IncomingEvent(machine: "m", eventID: "garbage", payload: "{\"nonsense\":{}}", acknowledgedAt: 0)
        ])
        try await fleet.send(.add(2), to: "m")
        try await fleet.drain()
        #expect(errors.withLock { $0.count } == 1)
        #expect(errors.withLock { $0.first?.contains("garbage") } == true)
        #expect(try #require(try await fleet.machine("m")).context.items == [1, 2])
    }

    @Test("options that cannot work are refused")
    func invalidOptions() async throws {
        let store = try await StoreKind.sqlite.make()
        #expect(throws: StoreError.invalidConfiguration("snapshotInterval must be at least 1, not 0")) {
            try orders(store, TestClock(), options: DurableOptions(snapshotInterval: 0))
        }
        #expect(throws: StoreError.self) {
            try orders(store, TestClock(), options: DurableOptions(pollInterval: .zero))
        }
        #expect(throws: StoreError.invalidConfiguration("machinesPerBatch must be at least 1, not 0")) {
            try orders(store, TestClock(), options: DurableOptions(machinesPerBatch: 0))
        }
    }

    @Test("run() applies what is sent while it runs, and stops when cancelled", arguments: stores)
    func runLoop(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let fleet = try orders(store, TestClock())
        let worker = Task { try await fleet.run() }
        for item in 1...20 { try await fleet.send(.add(item), to: "live") }
        var items: [Int] = []
        for _ in 0..<200 {
            items = try await fleet.machine("live")?.context.items ?? []
            if items.count == 20 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(items == Array(1...20))
        worker.cancel()
        try await worker.value
    }

    @Test(
        "several run() loops on one fleet all wake, share the work, and all stop when cancelled",
        .timeLimit(.minutes(1)),
        arguments: stores)
    func severalRunLoops(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        // A long poll interval: the loops must be woken by the sends, not by polling.
        let fleet = try orders(store, TestClock(), options: DurableOptions(pollInterval: .seconds(30)))
        let workers = (0..<3).map { _ in Task { try await fleet.run() } }
        try await Task.sleep(for: .milliseconds(50))  // let them all wait
        for round in 0..<5 {
            for machine in 0..<6 { try await fleet.send(.add(round), to: "m\(machine)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        var done = false
        for _ in 0..<300 where !done {
            done = try await store.backlog(now: 0).pendingEvents == 0
            if !done { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(done, "every event was applied without waiting for a poll")
        for machine in 0..<6 {
            #expect(try await fleet.machine("m\(machine)")?.context.items == Array(0..<5))
        }
        for worker in workers { worker.cancel() }
        for worker in workers { try await worker.value }
    }

    @Test(
        "a machine whose snapshot no longer decodes is reported once and does not hold up the others", arguments: stores
    )
    func unreadableMachine(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let before = try orders(store, clock, options: DurableOptions(snapshotInterval: 1))
        try await before.send(.pay, to: "old")
        try await before.drain()
        #expect(try await store.record(of: "old")?.row.snapshot != nil, "saved in paid, a state the next chart lacks")

        let chart = try Statechart<RenamedOrderState, OrderEvent, Order>("order", initial: .open) {
            StateNode(.open) {
                On(.add) { scope in
                    if case .add(let item) = scope.event { scope.context.items.append(item) }
                }
                On(.pay, to: .settled)
            }
            StateNode(.settled)
        }
        let errors = Locked([String]())
        let after = try DurableMachines(
            chart: chart, store: store, options: DurableOptions(machinesPerBatch: 1), clock: clock.read,
            onError: { id, _ in errors.withLock { $0.append(id) } }
        ) { id in Order(id: id) }
        try await after.send(.add(1), to: "old")
        try await after.send(.add(2), to: "new")
        try await after.drain()
        #expect(errors.withLock { $0 } == ["old"])
        #expect(try await after.machine("new")?.context.items == [2])
        try await after.send(.add(3), to: "old")
        try await after.drain()
        #expect(errors.withLock { $0 } == ["old"], "reported once")
        #expect(
            try await store.journal(of: "old").suffix(2).map(\.sequence) == [nil, nil],
            "its events stay pending, for a process whose chart reads it")
    }
}

/// The order's states as a later version of an app might have them: `paid` became `settled`.
enum RenamedOrderState: String, Hashable, Codable, Sendable { case open, settled }
/// A store that fails (as a database that timed out does) every transaction claiming more than
/// `largest` machines, and records the limit of each claim.
final class BatchLimitedStore: ForwardingStore {
    let base: any MachineStore
    let largest: Int
    let limits = Locked([Int]())

    init(base: any MachineStore, largest: Int) {
        self.base = base
        self.largest = largest
    }

    func process(
        _ request: ClaimRequest, apply: @escaping @Sendable ([ClaimedMachine]) throws -> [MachineUpdate]
    ) async throws(StoreError) -> [MachineUpdate] {
        limits.withLock { $0.append(request.machineLimit) }
        if request.machineLimit > largest {
            throw .database(store: "test", operation: "applying events", message: "no answer in time")
        }
        return try await base.process(request, apply: apply)
    }
}
#endif
