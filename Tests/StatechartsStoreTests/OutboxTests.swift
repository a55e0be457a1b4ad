#if Store
import Foundation
import Statecharts
import StatechartsStore
import Testing

/// The durable outbox, on every store: a step's effects are written in its own transaction,
/// delivered at least once with a stable key, retried with back-off, kept as dead letters when
/// their policy is exhausted; sends between machines of the fleet are journaled exactly once.
@Suite(.serialized) struct OutboxTests {
    static let stores = StoreKind.available

    @Test("a step's effects are delivered after its commit, each with a key of the step", arguments: stores)
    func deliveredAfterCommit(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let attempts = Attempts([])
        let fleet = try shipments(store, TestClock()) { delivery in
            attempts.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
        }
        try await fleet.send(.ship(7), to: "parcel-7")
        // Applied: the effects are in the outbox, written with the step; nothing delivered yet.
        _ = try await fleet.process()
        let waiting = try await fleet.outbox(of: "parcel-7")
        #expect(waiting.map(\.kind) == ["send", "log", "fleetSend"])
        #expect(waiting.map(\.key.description) == ["parcel-7/2/0", "parcel-7/2/1", "parcel-7/2/3"])
        #expect(attempts.withLock { $0.isEmpty })
        #expect(try await fleet.deliverEffects() == 2)
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.key) == ["parcel-7/2/0", "parcel-7/2/1"])
        #expect(seen.map(\.attempt) == [1, 1])
        #expect(
            seen.first?.effect
                == .send(event: .shipped(7), target: "https://warehouse.example/parcels", type: "http", id: nil))
        #expect(seen.last?.effect == .log(label: nil, message: "parcel 7 shipped"))
        // Delivered entries leave the outbox; the delayed fleet send waits for its time.
        #expect(try await fleet.outbox(of: "parcel-7").map(\.kind) == ["fleetSend"])
        #expect(try await store.backlog(now: TestClock().now).dueEffects == 0)
    }

    @Test("a failed delivery is retried with back-off, with the same key", arguments: stores)
    func retriedWithTheSameKey(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = Attempts([])
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .seconds(1), backoffMultiplier: 3)
        let fleet = try shipments(store, clock, retry: policy) { delivery in
            guard case .send = delivery.effect else { return }
            attempts.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
            if delivery.attempt < 3 { throw DeliveryRefused() }
        }
        try await fleet.send(.ship(1), to: "parcel-1")
        try await fleet.drain()
        #expect(attempts.withLock { $0.map(\.attempt) } == [1])
        let entry = try #require(try await fleet.outbox(of: "parcel-1").first { $0.kind == "send" })
        #expect(entry.attempts == 1)
        #expect(entry.lastError == "the warehouse refused it")
        #expect(entry.dueAt == clock.now + 1_000_000_000)
        // Not due before its back-off: 1 s after the first failure, then 3 s after the second.
        clock.advance(by: .milliseconds(999))
        try await fleet.drain()
        #expect(attempts.withLock { $0.count } == 1)
        clock.advance(by: .milliseconds(1))
        try await fleet.drain()
        clock.advance(by: .seconds(2))
        try await fleet.drain()
        #expect(attempts.withLock { $0.count } == 2)
        clock.advance(by: .seconds(1))
        try await fleet.drain()
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.attempt) == [1, 2, 3])
        #expect(Set(seen.map(\.key)) == ["parcel-1/2/0"])
        #expect(try await fleet.outbox(of: "parcel-1").contains { $0.kind == "send" } == false)
    }

    @Test("an effect that exhausts its policy is a dead letter, and a retried one is delivered", arguments: stores)
    func deadLetters(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let refusing = Locked(true)
        let delivered = Attempts([])
        let policy = RetryPolicy(maximumAttempts: 2, initialDelay: .zero)
        let fleet = try shipments(store, clock, retry: policy) { delivery in
            guard case .send = delivery.effect else { return }
            if refusing.withLock({ $0 }) { throw DeliveryRefused() }
            delivered.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
        }
        try await fleet.send(.ship(3), to: "parcel-3")
        try await fleet.drain()
        let letters = try await fleet.deadLetters()
        #expect(letters.map(\.key.description) == ["parcel-3/2/0"])
        #expect(letters.first?.attempts == 2)
        #expect(letters.first?.error == "the warehouse refused it")
        #expect(
            letters.first?.effect
                == .send(event: .shipped(3), target: "https://warehouse.example/parcels", type: "http", id: nil))
        let backlog = try await store.backlog(now: clock.now)
        #expect(backlog.deadLetters == 1)
        #expect(backlog.isEmpty, "a dead letter waits for an operator, not for a worker")
        // The operator fixes the warehouse and retries it: the same key, attempts counted afresh.
        refusing.withLock { $0 = false }
        #expect(try await fleet.retryDeadLetter(letters[0].key))
        #expect(try await fleet.retryDeadLetter(letters[0].key) == false, "it is no longer a dead letter")
        try await fleet.drain()
        #expect(delivered.withLock { $0.map(\.key) } == ["parcel-3/2/0"])
        #expect(delivered.withLock { $0.map(\.attempt) } == [1])
        #expect(try await fleet.deadLetters().isEmpty)
        #expect(try await fleet.retryDeadLetter(EffectKey(machine: "nobody", sequence: 1, index: 0)) == false)
    }

    @Test("a send to another machine of the fleet is journaled in the step's transaction, once", arguments: stores)
    func sendsWithinTheFleet(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try shipments(store, clock, deliver: nil)
        try await fleet.send(.ship(1), to: "parcel-1")
        try await fleet.send(.ship(2), to: "parcel-2")
        _ = try await fleet.process()
        // The ledger's events are in its queue, journaled with the shipments' steps, each with
        // the key of the effect as its identifier.
        let queued = try await store.journal(of: "ledger")
        #expect(Set(queued.compactMap(\.eventID)) == ["parcel-1/2/2", "parcel-2/2/2"])
        #expect(queued.allSatisfy { $0.sequence == nil })
        try await fleet.drain()
        #expect(try await fleet.machine("ledger")?.context.shipped.sorted() == [1, 2])
        // Without a delivery handler only the sends within the fleet are kept.
        #expect(try await fleet.outbox(of: "parcel-1").map(\.kind) == ["fleetSend"])
        // The follow-ups arrive five seconds later, but the one kept back is cancelled.
        try await fleet.send(.keep(2), to: "parcel-2")
        try await fleet.drain()
        #expect(try await fleet.outbox(of: "parcel-2").isEmpty)
        clock.advance(by: .seconds(5))
        try await fleet.drain()
        let ledger = try #require(try await fleet.machine("ledger"))
        #expect(ledger.context.followUps == [1])
        #expect(ledger.context.shipped.count == 2)
        #expect(try await fleet.outbox(of: "parcel-1").isEmpty)
    }

    @Test("a send cancelled in the same batch as it was sent is never written", arguments: stores)
    func cancelledInTheSameBatch(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try shipments(store, clock, deliver: nil)
        try await fleet.send(.ship(4), to: "parcel-4")
        try await fleet.send(.keep(4), to: "parcel-4")
        try await fleet.drain()
        #expect(try await fleet.outbox(of: "parcel-4").isEmpty)
        clock.advance(by: .seconds(6))
        try await fleet.drain()
        #expect(try await fleet.machine("ledger")?.context.followUps == [])
    }

    @Test("an effect held by a worker that died is delivered by another once the lease runs out", arguments: stores)
    func leaseRunsOut(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = Attempts([])
        let policy = RetryPolicy(timeLimit: .seconds(10))
        let fleet = try shipments(store, clock, retry: policy) { delivery in
            attempts.withLock { $0.append((delivery.key.description, delivery.attempt, delivery.effect)) }
        }
        try await fleet.send(.ship(5), to: "parcel-5")
        _ = try await fleet.process()
        // A worker claims the effects and dies before it records anything.
        let claimed = try await store.claimEffects(
            EffectClaimRequest(now: clock.now, limit: 10) { _ in 15_000_000_000 })
        #expect(claimed.count == 2)
        #expect(claimed.allSatisfy { $0.attempts == 1 })
        try await fleet.drain()
        #expect(attempts.withLock { $0.isEmpty }, "another worker does not take an effect that is held")
        clock.advance(by: .seconds(15))
        try await fleet.drain()
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.key).sorted() == ["parcel-5/2/0", "parcel-5/2/1"])
        #expect(seen.allSatisfy { $0.attempt == 2 })
        // What the dead worker would have reported comes too late to change anything.
        try await store.settleEffects(
            claimed.map { EffectOutcome(key: $0.key, attempt: 1, result: .retry(at: clock.now, error: "late")) })
        #expect(try await fleet.outbox(of: "parcel-5").isEmpty)
        #expect(try await store.backlog(now: clock.now).isEmpty)
        #expect(try await fleet.machine("ledger")?.context.followUps == [5])
    }

    @Test("an attempt longer than its time limit is cancelled and retried", arguments: stores)
    func timeLimit(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let cancelled = Locked(0)
        let policy = RetryPolicy(initialDelay: .seconds(1), timeLimit: .milliseconds(50))
        let fleet = try shipments(store, clock, retry: policy) { delivery in
            guard case .send = delivery.effect else { return }
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                cancelled.withLock { $0 += 1 }
                throw error
            }
        }
        try await fleet.send(.ship(6), to: "parcel-6")
        try await fleet.drain()
        #expect(cancelled.withLock { $0 } == 1)
        let entry = try #require(try await fleet.outbox(of: "parcel-6").first { $0.kind == "send" })
        #expect(entry.lastError?.contains("longer than its time limit") == true)
        #expect(entry.attempts == 1)
        #expect(entry.isDeadLetter == false)
    }

    @Test("an effect key reads back from its text, machine identifiers with slashes included")
    func effectKeys() {
        let key = EffectKey(machine: "orders/eu/17", sequence: 42, index: 3)
        #expect(key.description == "orders/eu/17/42/3")
        #expect(EffectKey(key.description) == key)
        #expect(EffectKey("a/1") == nil)
        #expect(EffectKey("a/x/1") == nil)
        #expect(EffectKey("a/1/-1") == nil)
        #expect(EffectKey("/1/2") == EffectKey(machine: "", sequence: 1, index: 2))
    }

    @Test("retry policies that cannot be followed are refused")
    func invalidPolicies() throws {
        let store = try SQLiteMachineStore(
            path: FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite")
                .path)
        for policy in [
            RetryPolicy(maximumAttempts: 0), RetryPolicy(initialDelay: .seconds(10), maximumDelay: .seconds(1)),
            RetryPolicy(backoffMultiplier: 0.5), RetryPolicy(timeLimit: .zero),
        ] {
            #expect(throws: StoreError.self) {
                _ = try Shipments(
                    chart: shipmentChart(), store: store, options: DurableOptions(retryByKind: [.log: policy])
                ) { _ in ShipmentRecord() }
            }
        }
    }
}
#endif
