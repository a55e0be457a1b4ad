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
        let firstBatch = handOff.next(1)
        let secondBatch = handOff.next(5)
        let thirdBatch = handOff.next(5)
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
