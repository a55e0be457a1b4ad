import Clocks
import Statecharts
import Testing

@Suite("Timers on a clock", .timeLimit(.minutes(1)))
struct TimerTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    @Test func aTimeoutFiresAtItsDeadline() async throws {
        let machine = StatechartActor(try watchChart(), context: 0, timers: timers)
        try await machine.start()
        try await machine.send(.wait)
        await clock.advance(by: .milliseconds(4999))
        await timers.settle()
        #expect(await machine.snapshot.activeStates == [.waiting])
        await clock.advance(by: .milliseconds(1))
        await timers.settle()
        #expect(await machine.snapshot.activeStates == [.expired])
        #expect(timers.count == 0)
    }

    /// The clock reaching a deadline exactly while the wheel's driver is on its way to sleep:
    /// a manual clock suspends a sleep until exactly `now` until it moves again, so `settle` must
    /// not rely on that sleep ending.
    @Test func settlingRightAfterTheClockReachesADeadlineExactlyNeverHangs() async throws {
        for round in 1...100 {
            let machine = StatechartActor(try watchChart(), context: 0, timers: timers)
            try await machine.start()
            try await machine.send(.wait)
            await clock.advance(by: .seconds(5))
            let settled = Flag()
            Task { [timers] in
                await timers.settle()
                settled.set()
            }
            // Bounded in real time, so that a regression fails here instead of hanging the run.
            let done = await eventually { settled.isSet }
            #expect(done, "settle() did not return in round \(round)")
            guard done else { return }
            #expect(await machine.snapshot.activeStates == [.expired])
        }
    }

    @Test func exitingTheStateCancelsItsTimeout() async throws {
        let machine = StatechartActor(try watchChart(), context: 0, timers: timers)
        try await machine.start()
        try await machine.send(.wait)
        #expect(timers.count == 1)
        await clock.advance(by: .seconds(2))
        try await machine.send(.poke)
        #expect(timers.count == 0)
        await clock.advance(by: .seconds(10))
        await timers.settle()
        #expect(await machine.snapshot.activeStates == [.idle])
        #expect(await machine.machine.pendingTimerCount == 0)
    }

    @Test func reenteringTheStateRestartsItsTimeout() async throws {
        let machine = StatechartActor(try watchChart(), context: 0, timers: timers)
        try await machine.start()
        try await machine.send(.wait)
        await clock.advance(by: .seconds(3))
        try await machine.send(.poke)
        try await machine.send(.wait)
        await clock.advance(by: .seconds(3))
        await timers.settle()
        // Six seconds after the first entry, three after the second: still waiting.
        #expect(await machine.snapshot.activeStates == [.waiting])
        await clock.advance(by: .seconds(2))
        await timers.settle()
        #expect(await machine.snapshot.activeStates == [.expired])
    }

    @Test func aDelayedEventCancelledByIdIsNeverDelivered() async throws {
        let chart = try Statechart<Watch, Poke, Int>(initial: .idle) {
            StateNode(.idle) {
                OnEntry { $0.send(.ping, after: .seconds(2), id: "ping") }
                OnEntry { $0.send(.ping, after: .seconds(3), id: "other") }
                On(.ping) { $0.context += 1 }
            }
        }
        let machine = StatechartActor(chart, context: 0, timers: timers)
        try await machine.start()
        #expect(await machine.cancelDelayedEvents(id: "ping") == 1)
        await clock.advance(by: .seconds(5))
        await timers.settle()
        // Only the other one arrived.
        #expect(await machine.snapshot.context == 1)
    }

    @Test func delayedEventsArriveInDeadlineOrderOnTheClock() async throws {
        let log = InspectionLog<Watch, Poke>()
        let chart = try Statechart<Watch, Poke, Int>(initial: .idle) {
            StateNode(.idle) {
                OnEntry { $0.send(.poke, after: .seconds(2)) }
                OnEntry { $0.send(.ping, after: .seconds(1)) }
                On(.ping) { $0.context += 1 }
            }
        }
        let machine = StatechartActor(chart, context: 0, timers: timers, inspect: log.hook)
        try await machine.start()
        await clock.advance(by: .seconds(2))
        await timers.settle()
        #expect(log.processed == ["ping", "poke"])
    }

    @Test func oneWheelServesManyMachines() async throws {
        let chart = try watchChart()
        var machines: [StatechartActor<Watch, Poke, Int>] = []
        for _ in 0..<200 {
            let machine = StatechartActor(chart, context: 0, timers: timers)
            try await machine.start()
            try await machine.send(.wait)
            machines.append(machine)
        }
        #expect(timers.count == 200)
        for machine in machines.prefix(50) { try await machine.send(.poke) }
        #expect(timers.count == 150)
        await clock.advance(by: .seconds(5))
        await timers.settle()
        var expired = 0
        for machine in machines where await machine.snapshot.isActive(.expired) { expired += 1 }
        #expect(expired == 150)
        #expect(timers.count == 0)
    }

    @Test func aTimerFarBeyondOneTurnOfTheWheelFiresOnTime() async throws {
        let small = TimerWheel(clock: clock, resolution: .milliseconds(1), slots: 16)
        let machine = StatechartActor(try watchChart(), context: 0, timers: small)
        try await machine.start()
        try await machine.send(.wait)
        await clock.advance(by: .milliseconds(4990))
        await small.settle()
        #expect(await machine.snapshot.activeStates == [.waiting])
        await clock.advance(by: .milliseconds(10))
        await small.settle()
        #expect(await machine.snapshot.activeStates == [.expired])
    }
}
