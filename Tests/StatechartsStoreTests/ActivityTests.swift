#if Store
import Foundation
import Statecharts
import StatechartsStore
import Testing

/// Durable work, on every store: an invocation of a durable machine runs in the fleet's workers as
/// an activity, at least once, with a stable key, retried under its policy; its outcome comes back
/// to the machine journaled exactly once; exiting its state cancels it; a worker that dies mid-way
/// leaves it to another once its lease ends.
@Suite(.serialized) struct ActivityTests {
    static let stores = StoreKind.available

    @Test("an activity's result comes back as its invocation's event, journaled once under its key", arguments: stores)
    func resultComesBack(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = ActivityAttempts([])
        let charge = DurableActivity<PaymentState, PaymentEvent, Payment> { request in
            attempts.withLock { $0.append((request.key.description, request.attempt)) }
            #expect(request.name == "charge")
            #expect(request.state == .charging)
            return .charged(request.context.amount)
        }
        let fleet = try payments(store, clock.read, activities: ["charge": charge])
        try await fleet.send(.pay(30), to: "payment-1")
        _ = try await fleet.process()
        // The step that entered `charging` wrote the activity; nothing ran yet.
        #expect(try await fleet.outbox(of: "payment-1").map(\.kind) == ["activity"])
        #expect(attempts.withLock { $0.isEmpty })
        try await fleet.drain()
        #expect(attempts.withLock { $0.map(\.key) } == ["payment-1/2/0"])
        let machine = try #require(try await fleet.machine("payment-1"))
        #expect(machine.configuration == [.paid])
        #expect(machine.context.charged == [30])
        let outcomes = try await store.journal(of: "payment-1").filter { $0.kind == .outcome }
        #expect(outcomes.map(\.eventID) == ["payment-1/2/0"])
        #expect(try await fleet.outbox(of: "payment-1").isEmpty)
        // The same outcome journaled again, as a worker that ran the work twice would, is a duplicate.
        let again = try await store.enqueue([
            IncomingEvent(
                machine: "payment-1", eventID: "payment-1/2/0", payload: outcomes.first?.payload ?? "",
                acknowledgedAt: clock.now, kind: .outcome)
        ])
        #expect(again == [.duplicate])
    }

    @Test(
        "an activity's events sent on the way are journaled once each, however many attempts send them",
        arguments: stores)
    func progressSentOnce(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let charge = DurableActivity<PaymentState, PaymentEvent, Payment> { request in
            // Every attempt reports its steps from the first; the first attempt fails after two.
            try await request.send(.progress(1))
            try await request.send(.progress(2))
            if request.attempt == 1 { throw ChargeRefused() }
            try await request.send(.progress(3))
            return .charged(request.context.amount)
        }
        let fleet = try payments(
            store, clock.read, retry: RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(1)),
            activities: ["charge": charge])
        try await fleet.send(.pay(12), to: "payment-9")
        try await fleet.drain()
        clock.advance(by: .seconds(2))
        try await fleet.drain()
        let machine = try #require(try await fleet.machine("payment-9"))
        #expect(machine.context.progress == [1, 2, 3])
        #expect(machine.configuration == [.paid])
        let outcomes = try await store.journal(of: "payment-9").filter { $0.kind == .outcome }.compactMap(\.eventID)
        #expect(outcomes == ["payment-9/2/0/1", "payment-9/2/0/2", "payment-9/2/0/3", "payment-9/2/0"])
    }

    @Test("an event an activity sends after its state was exited is dropped", arguments: stores)
    func progressAfterExitDropped(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let release = Locked(false)
        let charge = DurableActivity<PaymentState, PaymentEvent, Payment> { request in
            for _ in 0..<500 where !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            try await request.send(.progress(7))
            return .charged(request.context.amount)
        }
        let fleet = try payments(store, clock.read, activities: ["charge": charge])
        try await fleet.send(.pay(3), to: "payment-10")
        _ = try await fleet.process()
        // The work runs while another process (a second fleet object) exits the state.
        let running = Task { try await fleet.deliverEffects() }
        let other = try payments(store, clock.read, activities: ["charge": charge])
        try await other.send(.cancel, to: "payment-10")
        _ = try await other.process()
        release.withLock { $0 = true }
        _ = try await running.value
        try await other.drain()
        let machine = try #require(try await other.machine("payment-10"))
        #expect(machine.configuration == [.waiting])
        #expect(machine.context.progress.isEmpty)
        #expect(machine.context.charged.isEmpty)
    }

    @Test(
        "a failing activity is retried with back-off under one key, then onFailure makes the event", arguments: stores)
    func retriedThenOnFailure(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = ActivityAttempts([])
        let charge = DurableActivity<PaymentState, PaymentEvent, Payment>(
            { request in
                attempts.withLock { $0.append((request.key.description, request.attempt)) }
                throw ChargeRefused()
            },
            onFailure: { error in .declined("\(error)") })
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(1), backoffMultiplier: 2)
        let fleet = try payments(store, clock.read, retry: policy, activities: ["charge": charge])
        try await fleet.send(.pay(5), to: "payment-2")
        try await fleet.drain()
        #expect(attempts.withLock { $0.count } == 1)
        clock.advance(by: .milliseconds(999))
        try await fleet.drain()
        #expect(attempts.withLock { $0.count } == 1)
        clock.advance(by: .milliseconds(1))
        try await fleet.drain()
        clock.advance(by: .seconds(2))
        try await fleet.drain()
        let seen = attempts.withLock { $0 }
        #expect(seen.map(\.attempt) == [1, 2, 3])
        #expect(Set(seen.map(\.key)) == ["payment-2/2/0"])
        let machine = try #require(try await fleet.machine("payment-2"))
        #expect(machine.configuration == [.declined])
        #expect(machine.context.failures == ["the bank refused the charge"])
        #expect(try await fleet.outbox(of: "payment-2").isEmpty)
        #expect(try await fleet.deadLetters().isEmpty)
    }

    @Test("an activity that exhausts its policy without onFailure raises error.execution", arguments: stores)
    func exhaustedRaisesErrorExecution(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let charge = DurableActivity<PaymentState, PaymentEvent, Payment> { _ in throw ChargeRefused() }
        let policy = RetryPolicy(maximumAttempts: 2, initialDelay: .seconds(1))
        let fleet = try payments(store, clock.read, retry: policy, activities: ["charge": charge])
        try await fleet.send(.pay(5), to: "payment-3")
        try await fleet.drain()
        clock.advance(by: .seconds(1))
        try await fleet.drain()
        let machine = try #require(try await fleet.machine("payment-3"))
        #expect(machine.configuration == [.failed])
        #expect(machine.context.failures == ["the activity 'charge' failed 2 times: the bank refused the charge"])
    }

    @Test("an activity whose state is exited in the same transaction never runs", arguments: stores)
    func cancelledBeforeItRuns(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = ActivityAttempts([])
        let charge = recordingCharge(attempts)
        let fleet = try payments(store, clock.read, activities: ["charge": charge])
        try await fleet.send(.pay(5), to: "payment-4")
        try await fleet.send(.cancel, to: "payment-4")
        _ = try await fleet.process()
        #expect(try await fleet.outbox(of: "payment-4").isEmpty)
        // Committed first, then cancelled by a later transaction: removed before a worker takes it.
        try await fleet.send(.pay(6), to: "payment-4")
        _ = try await fleet.process()
        #expect(try await fleet.outbox(of: "payment-4").map(\.kind) == ["activity"])
        try await fleet.send(.cancel, to: "payment-4")
        try await fleet.drain()
        #expect(attempts.withLock { $0.isEmpty })
        #expect(try await fleet.outbox(of: "payment-4").isEmpty)
        let machine = try #require(try await fleet.machine("payment-4"))
        #expect(machine.configuration == [.waiting])
        #expect(machine.context.charged.isEmpty)
    }

    @Test(
        "exiting the state stops a running activity: in this process at once, from another within its interval",
        arguments: stores)
    func runningActivityIsStopped(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        for sameProcess in [true, false] {
            let id = sameProcess ? "payment-5" : "payment-6"
            let started = Locked(false)
            let stopped = Locked(false)
            let charge = DurableActivity<PaymentState, PaymentEvent, Payment> { request in
                started.withLock { $0 = true }
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    stopped.withLock { $0 = true }
                    throw error
                }
                return .charged(request.context.amount)
            }
            let fleet = try payments(
                store, DurableMachines<PaymentState, PaymentEvent, Payment>.systemTime,
                activityCheckInterval: .milliseconds(50), activities: ["charge": charge])
            // Another process's worker: a fleet of its own on the same store.
            let other = try payments(
                store, DurableMachines<PaymentState, PaymentEvent, Payment>.systemTime, activities: [:])
            try await fleet.send(.pay(7), to: id)
            _ = try await fleet.process()
            let delivery = Task { try await fleet.deliverEffects() }
            for _ in 0..<500 where !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            #expect(started.withLock { $0 })
            try await fleet.send(.cancel, to: id)
            _ = try await (sameProcess ? fleet : other).process()
            #expect(try await delivery.value == 1)
            #expect(stopped.withLock { $0 })
            #expect(try await fleet.outbox(of: id).isEmpty)
            #expect(try await store.journal(of: id).contains { $0.kind == .outcome } == false)
            #expect(try #require(try await fleet.machine(id)).configuration == [.waiting])
        }
    }

    @Test(
        "a worker that dies mid-activity leaves it to another after its lease, and the outcome is journaled once",
        arguments: stores)
    func takenOverAfterTheLease(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = ActivityAttempts([])
        let charge = recordingCharge(attempts)
        let policy = RetryPolicy(timeLimit: .seconds(10))
        let fleet = try payments(
            store, clock.read, retry: policy, leaseMargin: .seconds(2), activities: ["charge": charge])
        try await fleet.send(.pay(9), to: "payment-7")
        _ = try await fleet.process()
        // A worker claims the activity and dies: it holds it for its time limit and margin.
        let held = try await store.claimEffects(
            EffectClaimRequest(now: clock.now, limit: 10) { _ in 12_000_000_000 })
        #expect(held.map(\.key.description) == ["payment-7/2/0"])
        try await fleet.drain()
        #expect(attempts.withLock { $0.isEmpty })
        clock.advance(by: .seconds(12))
        try await fleet.drain()
        #expect(attempts.withLock { $0.map(\.attempt) } == [2])
        let machine = try #require(try await fleet.machine("payment-7"))
        #expect(machine.context.charged == [9])
        #expect(try await store.journal(of: "payment-7").filter { $0.kind == .outcome }.count == 1)
    }

    @Test("an Invoke with work of its own runs as an activity when none is registered", arguments: stores)
    func chartsOwnWork(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let fleet = try payments(store, TestClock().read, activities: [:])
        try await fleet.send(.audit, to: "payment-8")
        _ = try await fleet.process()
        #expect(try await fleet.outbox(of: "payment-8").map(\.kind) == ["activity"])
        try await fleet.drain()
        #expect(try #require(try await fleet.machine("payment-8")).configuration == [.waiting])
        #expect(try await store.journal(of: "payment-8").filter { $0.kind == .outcome }.count == 1)
        // A named Invoke with no activity registered and no work of its own fails as the chart says.
        try await fleet.send(.pay(1), to: "payment-9")
        try await fleet.drain()
        let unpaid = try #require(try await fleet.machine("payment-9"))
        #expect(unpaid.configuration == [.failed])
        #expect(unpaid.context.failures.first?.contains("no activity is registered under 'charge'") == true)
    }
}
#endif
