#if Store
import Foundation
import Statecharts
import Testing

@testable import StatechartsStore

/// The effects a fleet's steps write already claimed for its own delivery loop, and the one
/// watchdog that holds each delivery batch's attempts to their time limits.
@Suite struct HandOffTests {
    @Test("with a delivery loop running, a step writes its effects claimed, and the loop delivers them without a claim")
    func writtenClaimed() async throws {
        let store = try await StoreKind.sqlite.make()
        let clock = TestClock()
        let attempts = Attempts([])
        let fleet = try shipments(store, clock) { delivery in
            attempts.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
        }
        // As run() does while its delivery loop runs.
        fleet.handOff.withLock { $0.loops = 1 }
        try await fleet.send(.ship(3), to: "parcel-3")
        #expect(try await fleet.process() == 1)
        // Written with the step: the send and the log claimed, due at the end of their lease;
        // the delayed fleet send as before.
        let lease = (RetryPolicy().timeLimit + DurableOptions().leaseMargin).nanosecondsSinceZero
        let written = try await fleet.outbox(of: "parcel-3")
        #expect(written.map(\.kind) == ["send", "log", "fleetSend"])
        #expect(written.map(\.attempts) == [1, 1, 0])
        #expect(written.prefix(2).allSatisfy { $0.dueAt == clock.now + lease })
        let held = fleet.handOff.withLock { $0.entries.map(\.key.description) }
        #expect(held == ["parcel-3/2/0", "parcel-3/2/1"])
        // Another worker finds nothing due: the entries are held by this one.
        let other = try shipments(store, clock) { _ in Issue.record("another worker delivered a held entry") }
        #expect(try await other.deliverEffects() == 0)
        // This one delivers them from its hand-off, as first attempts, and they leave the outbox.
        #expect(try await fleet.deliverEffects() == 2)
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.key) == ["parcel-3/2/0", "parcel-3/2/1"])
        #expect(seen.map(\.attempt) == [1, 1])
        #expect(try await fleet.outbox(of: "parcel-3").map(\.kind) == ["fleetSend"])
        let left = fleet.handOff.withLock { $0.entries.count }
        #expect(left == 0)
    }

    @Test("held entries a worker never delivers are claimed by another once their lease is over")
    func leaseOver() async throws {
        let store = try await StoreKind.sqlite.make()
        let clock = TestClock()
        let fleet = try shipments(store, clock) { _ in }
        fleet.handOff.withLock { $0.loops = 1 }
        try await fleet.send(.ship(4), to: "parcel-4")
        try await fleet.process()
        // The process dies with its hand-off: another worker takes the entries up after the lease.
        let attempts = Attempts([])
        let other = try shipments(store, clock) { delivery in
            attempts.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
        }
        #expect(try await other.deliverEffects() == 0)
        clock.advance(by: RetryPolicy().timeLimit + DurableOptions().leaseMargin)
        // The two held entries, as second attempts, and the delayed fleet send, due by now too.
        #expect(try await other.deliverEffects() == 3)
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.key) == ["parcel-4/2/0", "parcel-4/2/1"])
        #expect(seen.map(\.attempt) == [2, 2])
        #expect(try await other.outbox(of: "parcel-4").isEmpty)
    }

    @Test(
        "an entry held until its lease no longer outlasts an attempt is left to the store, and claimed once the lease is over"
    )
    func heldTooLong() async throws {
        let store = try await StoreKind.sqlite.make()
        let clock = TestClock()
        let attempts = Attempts([])
        let fleet = try shipments(store, clock) { delivery in
            attempts.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
        }
        fleet.handOff.withLock { $0.loops = 1 }
        try await fleet.send(.ship(6), to: "parcel-6")
        try await fleet.process()
        // The delivery loop fell behind: more than the lease's margin has passed, so an attempt
        // could outlast the lease. The held entries are dropped, not attempted; only the delayed
        // fleet send, due after its 5 s, is claimed from the store.
        clock.advance(by: DurableOptions().leaseMargin + .milliseconds(1))
        #expect(try await fleet.deliverEffects() == 1)
        let held = fleet.handOff.withLock { $0.entries.count }
        #expect(held == 0)
        #expect(attempts.withLock { $0.isEmpty })
        // Once the lease is over, they are claimed from the store as second attempts.
        clock.advance(by: RetryPolicy().timeLimit)
        #expect(try await fleet.deliverEffects() == 2)
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.key) == ["parcel-6/2/0", "parcel-6/2/1"])
        #expect(seen.map(\.attempt) == [2, 2])
    }

    @Test("without a delivery loop, nothing is held: effects are written due, for any worker")
    func noLoop() async throws {
        let store = try await StoreKind.sqlite.make()
        let clock = TestClock()
        let fleet = try shipments(store, clock) { _ in }
        try await fleet.send(.ship(5), to: "parcel-5")
        try await fleet.process()
        #expect(try await fleet.outbox(of: "parcel-5").map(\.attempts) == [0, 0, 0])
        let held = fleet.handOff.withLock { $0.entries.count }
        #expect(held == 0)
    }

    @Test(
        "a transaction hands off its effects while the hand-off holds fewer than two delivery batches or two per machine claimed",
        arguments: [(machinesPerBatch: 8, handsOffAgain: true), (machinesPerBatch: 1, handsOffAgain: false)])
    func capacityFollowsTheBatch(machinesPerBatch: Int, handsOffAgain: Bool) async throws {
        let store = try await StoreKind.sqlite.make()
        let clock = TestClock()
        let fleet = try Shipments(
            chart: shipmentChart(), store: store,
            options: DurableOptions(compaction: .never, machinesPerBatch: machinesPerBatch, effectsPerBatch: 1),
            clock: clock.read, deliver: { _ in }
        ) { _ in ShipmentRecord() }
        fleet.handOff.withLock { $0.loops = 1 }
        // The first transaction finds the hand-off empty: its send and log are held.
        try await fleet.send(.ship(1), to: "parcel-1")
        try await fleet.process()
        let held = fleet.handOff.withLock { $0.entries.count }
        #expect(held == 2)
        // Two are held: below 2 × 8 machines, the next transaction hands off its effects too;
        // at 2 × 1 delivery batch and 2 × 1 machine, it writes them due, for any worker.
        // (With one machine per batch, the ledger's event, journaled first, takes a transaction
        // of its own; the ledger writes no effects.)
        try await fleet.send(.ship(2), to: "parcel-2")
        while try await fleet.process() > 0 {}
        let attempts = try await fleet.outbox(of: "parcel-2").map(\.attempts)
        #expect(attempts == (handsOffAgain ? [1, 1, 0] : [0, 0, 0]))
        let heldAfter = fleet.handOff.withLock { $0.entries.count }
        #expect(heldAfter == (handsOffAgain ? 4 : 2))
    }

    @Test("the hand-off's capacity: two delivery batches, or two entries per machine claimed, without overflow")
    func capacity() {
        #expect(HandOff.capacity(effectsPerBatch: 256, machineLimit: 256) == 512)
        #expect(HandOff.capacity(effectsPerBatch: 256, machineLimit: 2048) == 4096)
        #expect(HandOff.capacity(effectsPerBatch: 1000, machineLimit: 8) == 2000)
        #expect(HandOff.capacity(effectsPerBatch: .max, machineLimit: 1) == .max)
    }

    @Test("a batch from the hand-off skips the entries whose lease no longer outlasts an attempt, and looks no further")
    func nextSkipsExpired() {
        func entry(_ index: Int, dueAt: Int64) -> OutboxEntry {
            OutboxEntry(
                key: EffectKey(machine: "a", sequence: 1, index: index), kind: "send", payload: "{}", dueAt: dueAt,
                attempts: 1)
        }
        var handOff = HandOff()
        let update = MachineUpdate(
            id: "a", appliedSequence: 1, appliedEvents: [], newEntries: [], snapshot: nil, configuration: "",
            status: "running", timers: nil, compactThrough: nil,
            outbox: [entry(0, dueAt: 105), entry(1, dueAt: 140), entry(2, dueAt: 108), entry(3, dueAt: 150)])
        _ = handOff.take([update])
        // At 100, with a time limit of 30: entries 0 and 2 would outlive their leases.
        let batch = handOff.next(1, now: 100, timeLimit: { _ in 30 })
        #expect(batch.map(\.key.index) == [1])
        #expect(handOff.entries.map(\.key.index) == [2, 3], "only the entries up to the one taken are looked at")
        let rest = handOff.next(5, now: 100, timeLimit: { _ in 30 })
        #expect(rest.map(\.key.index) == [3])
        #expect(handOff.entries.isEmpty)
    }

    @Test("a held send that a later step cancels is dropped from the hand-off")
    func cancelledWhileHeld() {
        func entry(_ machine: String, _ index: Int, sendID: String?, kind: String = "send") -> OutboxEntry {
            OutboxEntry(
                key: EffectKey(machine: machine, sequence: 1, index: index), kind: kind, sendID: sendID, payload: "{}",
                dueAt: 9, attempts: 1)
        }
        var handOff = HandOff()
        let first = MachineUpdate(
            id: "a", appliedSequence: 1, appliedEvents: [], newEntries: [], snapshot: nil, configuration: "",
            status: "running", timers: nil, compactThrough: nil,
            outbox: [
                entry("a", 0, sendID: "x"), entry("a", 1, sendID: nil),
                OutboxEntry(key: EffectKey(machine: "a", sequence: 1, index: 2), kind: "log", payload: "{}", dueAt: 0),
            ])
        let other = MachineUpdate(
            id: "b", appliedSequence: 1, appliedEvents: [], newEntries: [], snapshot: nil, configuration: "",
            status: "running", timers: nil, compactThrough: nil, outbox: [entry("b", 0, sendID: "x")])
        let added = handOff.take([first, other])
        #expect(added)
        // Only the entries written claimed are held.
        #expect(handOff.entries.map(\.key.description) == ["a/1/0", "a/1/1", "b/1/0"])
        let cancelling = MachineUpdate(
            id: "a", appliedSequence: 2, appliedEvents: [], newEntries: [], snapshot: nil, configuration: "",
            status: "running", timers: nil, compactThrough: nil, cancelledSends: ["x"])
        let addedNone = handOff.take([cancelling])
        #expect(!addedNone)
        #expect(handOff.entries.map(\.key.description) == ["a/1/1", "b/1/0"])
        let firstBatch = handOff.next(1, now: 0, timeLimit: { _ in 0 })
        let secondBatch = handOff.next(5, now: 0, timeLimit: { _ in 0 })
        let thirdBatch = handOff.next(5, now: 0, timeLimit: { _ in 0 })
        #expect(firstBatch.map(\.key.description) == ["a/1/1"])
        #expect(secondBatch.map(\.key.description) == ["b/1/0"])
        #expect(thirdBatch.isEmpty)
    }

    @Test("the watchdog cancels an attempt past its own limit, even one that began while it slept toward a later one")
    func watchdogLimits() async {
        let watchdog = AttemptWatchdog(shortestLimit: .milliseconds(100))
        let results = await withTaskGroup(of: (String, Bool, Bool)?.self) { group in
            group.addTask {
                await watchdog.watch()
                return nil
            }
            // A long limit: the watchdog sleeps toward the shortest limit, not toward this one.
            group.addTask {
                let (result, timedOut) = await watchdog.run(limit: .seconds(60)) {
                    try await Task.sleep(for: .milliseconds(300))
                    return 1
                }
                return ("long", timedOut, (try? result.get()) == 1)
            }
            // Begins later with a short limit, and would sleep for a minute.
            group.addTask {
                try? await Task.sleep(for: .milliseconds(20))
                let (result, timedOut) = await watchdog.run(limit: .milliseconds(100)) {
                    try await Task.sleep(for: .seconds(60))
                    return 2
                }
                return ("short", timedOut, result.isFailure)
            }
            var results: [String: (Bool, Bool)] = [:]
            for await result in group {
                guard let (name, timedOut, check) = result else { continue }
                results[name] = (timedOut, check)
                if results.count == 2 { group.cancelAll() }
            }
            return results
        }
        // The long one finished in time with its value; the short one was cancelled, so it
        // returned long before its minute was up (or this test would take that minute).
        #expect(results["long"]?.0 == false)
        #expect(results["long"]?.1 == true)
        #expect(results["short"]?.0 == true)
        #expect(results["short"]?.1 == true)
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
#endif
