import Clocks
import Statecharts
import Testing

@Suite("Work that belongs to a state", .timeLimit(.minutes(1)))
struct InvocationTests {
    @Test func aTasksResultDrivesATransition() async throws {
        let chart = try loaderChart { input in .loaded(input + 41) }
        let machine = StatechartActor(chart, context: 1)
        try await machine.start()
        try await machine.send(.load)
        let ready = await machine.waitUntil { $0.isActive(.ready) }
        #expect(ready?.context == 42)
    }

    @Test func theWorkSeesTheContextOfWhenItStarted() async throws {
        let chart = try loaderChart { input in .loaded(input * 2) }
        let machine = StatechartActor(chart, context: 21)
        try await machine.start()
        try await machine.send(.load)
        #expect(await machine.waitUntil { $0.isActive(.ready) }?.context == 42)
    }

    @Test func aTaskCancelledOnExitDeliversNothing() async throws {
        let clock = TestClock()
        let sawCancellation = Flag()
        let log = InspectionLog<Loader, LoadEvent>()
        let chart = try loaderChart { _ in
            do {
                try await clock.sleep(for: .seconds(60))
            } catch {
                sawCancellation.set()
                throw error
            }
            return .loaded(7)
        }
        let machine = StatechartActor(chart, context: 0, inspect: log.hook)
        try await machine.start()
        try await machine.send(.load)
        try await machine.send(.abandon)
        // The task sees its cancellation, and what it reports is dropped.
        #expect(await eventually { sawCancellation.isSet })
        await clock.advance(by: .seconds(120))
        for _ in 0..<100 { await Task.yield() }
        #expect(await machine.snapshot.activeStates == [.idle])
        #expect(!log.processed.contains("error.execution"))
        #expect(log.processed == ["load", "abandon"])
        let cancelled = log.all.contains { if case .invocationCancelled = $0 { true } else { false } }
        #expect(cancelled)
        #expect(await machine.machine.runningInvocations.isEmpty)
    }

    @Test func aLateResultOfAnEarlierEntryIsDropped() async throws {
        // The machine alone: a result reported for an invocation that ended is not delivered.
        var machine = try loaderChart { _ in .loaded(1) }.makeMachine(context: 0)
        try machine.start()
        try machine.send(.load)
        guard case .startInvocation(let first) = machine.takeEffects().first else {
            Issue.record("no invocation started")
            return
        }
        try machine.send(.abandon)
        #expect(machine.takeEffects().count == 1)  // the cancellation
        try machine.send(.load)
        _ = machine.takeEffects()
        #expect(try machine.deliver(.event(.loaded(99)), from: first.id) == false)
        #expect(machine.isActive(.loading))
        #expect(machine.context == 0)
    }

    @Test func anErrorBecomesTheEventOnErrorMakes() async throws {
        struct Offline: Error {}
        let chart = try loaderChart({ _ in throw Offline() }, onError: { _ in .failed })
        let machine = StatechartActor(chart, context: 0)
        try await machine.start()
        try await machine.send(.load)
        #expect(await machine.waitUntil { $0.isActive(.failed) } != nil)
    }

    @Test func anErrorWithoutOnErrorIsErrorExecution() async throws {
        struct Offline: Error {}
        let chart = try Statechart<Loader, LoadEvent, Int>(initial: .loading) {
            StateNode(.loading) {
                Invoke { (_: Int) -> LoadEvent? in throw Offline() }
                On(named: "error.execution", to: .failed) { scope in
                    if scope.error is Offline { scope.context = -1 }
                }
            }
            StateNode(.failed)
        }
        let machine = StatechartActor(chart, context: 0)
        try await machine.start()
        #expect(await machine.waitUntil { $0.isActive(.failed) }?.context == -1)
    }

    @Test func anInvocationGetsTheContextOfTheMomentItStarted() throws {
        // The entry action queues an external event that changes the context; it is processed in
        // the same call, after the invocation started.
        let chart = try Statechart<Loader, LoadEvent, Int>(initial: .idle) {
            StateNode(.idle) { On(.load, to: .loading) }
            StateNode(.loading) {
                OnEntry { $0.send(.failed) }
                Invoke { (_: Int) -> LoadEvent? in nil }
                On(.failed) { $0.context += 1 }
            }
        }
        var machine = chart.makeMachine(context: 0)
        try machine.start()
        try machine.send(.load)
        #expect(machine.context == 1)
        guard case .startInvocation(let start) = machine.takeEffects().first else {
            Issue.record("no invocation started")
            return
        }
        #expect(start.context == 0)
    }

    @Test func invocationsStartOnlyForStatesStillActiveWhenTheStepEnds() throws {
        let chart = try Statechart<Loader, LoadEvent, Int>(initial: .idle) {
            StateNode(.idle) { On(.load, to: .loading) }
            StateNode(.loading) {
                Invoke { (_: Int) -> LoadEvent? in .loaded(1) }
                Always(to: .ready)
            }
            StateNode(.ready)
        }
        var machine = chart.makeMachine(context: 0)
        try machine.start()
        try machine.send(.load)
        #expect(machine.isActive(.ready))
        #expect(machine.takeEffects().isEmpty)
    }
}

@Suite("Actors and isolation", .timeLimit(.minutes(1)))
struct IsolationTests {
    enum Counter: Hashable, Sendable { case counting }
    enum Count: StatechartEvent {
        case add(sender: Int, sequence: Int)
        enum Kind: CaseIterable, Sendable { case add }
        var kind: Kind { .add }
    }
    struct Tally: Sendable {
        var last: [Int: Int] = [:]
        var received = 0
        var outOfOrder = 0
    }

    @Test func eventsFromThousandsOfSendersAreAllProcessedInOrderPerSender() async throws {
        let chart = try Statechart<Counter, Count, Tally>(initial: .counting) {
            StateNode(.counting) {
                On(.add) { scope in
                    guard case .add(let sender, let sequence) = scope.event else { return }
                    if scope.context.last[sender, default: -1] != sequence - 1 { scope.context.outOfOrder += 1 }
                    scope.context.last[sender] = sequence
                    scope.context.received += 1
                }
            }
        }
        let machine = StatechartActor(chart, context: Tally())
        try await machine.start()
        let senders = 2000
        let eventsPerSender = 10
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for sequence in 0..<eventsPerSender {
                        _ = try? await machine.send(.add(sender: sender, sequence: sequence))
                    }
                }
            }
        }
        let tally = await machine.snapshot.context
        #expect(tally.received == senders * eventsPerSender)
        #expect(tally.outOfOrder == 0)
        #expect(tally.last.count == senders)
    }

    @MainActor
    @Test func anIsolatedMachineRunsOnTheMainActorAndItsTimersComeBackThere() async throws {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let chart = try Statechart<Watch, Poke, Int>(initial: .idle) {
            StateNode(.idle) { On(.wait, to: .waiting) }
            StateNode(.waiting) { After(.seconds(1), to: .expired) }
            StateNode(.expired) { OnEntry { _ in MainActor.assertIsolated("timeouts come back to the main actor") } }
        }
        let machine = IsolatedStatechart(chart, context: 0, timers: timers)
        try machine.start()
        try machine.send(.wait)  // synchronous: no await
        #expect(machine.snapshot().activeStates == [.waiting])
        await clock.advance(by: .seconds(1))
        await timers.settle()
        #expect(machine.snapshot().activeStates == [.expired])
    }

    @MainActor
    @Test func anIsolatedMachinesInvocationReportsOnItsActor() async throws {
        let chart = try loaderChart { input in .loaded(input + 1) }
        let machine = IsolatedStatechart(chart, context: 4)
        try machine.start()
        try machine.send(.load)
        for await snapshot in machine.snapshots() where snapshot.isActive(.ready) {
            #expect(snapshot.context == 5)
            break
        }
    }

    @Test func snapshotsFollowEveryStep() async throws {
        let machine = StatechartActor(try watchChart(), context: 0)
        let stream = await machine.snapshots()
        try await machine.start()
        try await machine.send(.wait)
        try await machine.send(.poke)
        var seen: [[Watch]] = []
        for await snapshot in stream {
            seen.append(snapshot.activeStates)
            if seen.count == 4 { break }
        }
        #expect(seen == [[], [.idle], [.waiting], [.idle]])
    }
}

@Suite("Release", .timeLimit(.minutes(1)))
struct ReleaseTests {
    @Test func aReleasedMachineCancelsItsTimersAndTasksAndDeinitialises() async throws {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let log = InspectionLog<Loader, LoadEvent>()
        let taskCancelled = Flag()
        let chart = try Statechart<Loader, LoadEvent, Int>(initial: .loading) {
            StateNode(.loading) {
                Invoke { (_: Int) -> LoadEvent? in
                    do { try await clock.sleep(for: .seconds(60)) } catch { taskCancelled.set() }
                    return .loaded(1)
                }
                After(.seconds(5), to: .failed)
            }
            StateNode(.failed)
        }
        weak var released: StatechartActor<Loader, LoadEvent, Int>?
        do {
            let machine = StatechartActor(chart, context: 0, timers: timers, inspect: log.hook)
            try await machine.start()
            released = machine
            #expect(timers.count == 1)
        }
        #expect(released == nil)
        #expect(timers.count == 0)
        #expect(await eventually { taskCancelled.isSet })
        let before = log.all.count
        await clock.advance(by: .seconds(120))
        await timers.settle()
        for _ in 0..<100 { await Task.yield() }
        // No timer fired and no result was delivered after the release.
        #expect(log.all.count == before)
    }

    @Test func aMachineWhoseActionsCaptureItsOwnerStronglyIsStillReleased() async throws {
        final class Owner: Sendable {
            let pings = Shared(0)
        }
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        weak var weakOwner: Owner?
        weak var weakMachine: StatechartActor<Watch, Poke, Int>?
        do {
            let owner = Owner()
            weakOwner = owner
            // The chart's closures hold the owner strongly; the machine holds the chart; nothing
            // holds the machine but this scope, so there is no cycle.
            let chart = try Statechart<Watch, Poke, Int>(initial: .waiting) {
                StateNode(.waiting) {
                    OnEntry { _ in owner.pings.withLock { $0 += 1 } }
                    After(.seconds(5), to: .expired)
                }
                StateNode(.expired)
            }
            let machine = StatechartActor(chart, context: 0, timers: timers)
            weakMachine = machine
            try await machine.start()
            #expect(owner.pings.withLock { $0 } == 1)
        }
        #expect(weakMachine == nil)
        #expect(weakOwner == nil)
        #expect(timers.count == 0)
    }
}
