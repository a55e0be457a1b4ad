import Clocks
import Foundation
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
    /// not rely on that sleep ending. The gate holds the driver until the clock has moved, so the
    /// case happens every time, not by chance (100 rounds left to the scheduler, as before, never
    /// made it: on a turn of 4,096 ms the driver sleeps until 904 ms, which the clock passes).
    @Test func settlingRightAfterTheClockReachesADeadlineExactlyNeverHangs() async throws {
        let gate = SleepGate()
        // A turn of 8,192 ms: the driver sleeps until the timeout's own deadline, 5 s, not until
        // the slot's first time in an earlier turn.
        let timers = TimerWheel(clock: GatedClock(base: clock, gate: gate), slots: 8192)
        let machine = StatechartActor(try watchChart(), context: 0, timers: timers)
        try await machine.start()
        try await machine.send(.wait)
        // The driver read the clock at 0 s and waits at the gate to sleep until 5 s.
        #expect(await eventually { gate.waiting == 1 })
        await clock.advance(by: .seconds(5))
        gate.open()
        let settled = Flag()
        Task { [timers] in
            await timers.settle()
            settled.set()
        }
        // Bounded in real time, so that a regression fails here instead of hanging the run.
        #expect(await eventually { settled.isSet }, "settle() did not return")
        #expect(await machine.snapshot.activeStates == [.expired])
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
        // A turn of 512 ms: the 5 s timer is ten turns away. (With a turn of 16 ms the test clock
        // stopped at about 300 of the driver's sleeps, with at least 20 detached yields each: over
        // a minute under the thread sanitizer on a busy 2-core machine.)
        let small = TimerWheel(clock: clock, resolution: .milliseconds(1), slots: 512)
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

/// A test clock whose sleeps first wait at a gate: the test decides when a sleep begins.
struct GatedClock: Clock {
    typealias Duration = Swift.Duration
    typealias Instant = TestClock<Swift.Duration>.Instant

    let base: TestClock<Swift.Duration>
    let gate: SleepGate

    var now: Instant { base.now }
    var minimumResolution: Swift.Duration { base.minimumResolution }

    func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        await gate.pass()
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}

/// Holds whoever passes until it is opened; open, it lets everyone through.
final class SleepGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var held: [CheckedContinuation<Void, Never>] = []

    /// How many are held now.
    var waiting: Int { lock.withLock { held.count } }

    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let through = lock.withLock {
                if isOpen { return true }
                held.append(continuation)
                return false
            }
            if through { continuation.resume() }
        }
    }

    func open() {
        let released = lock.withLock {
            isOpen = true
            defer { held.removeAll() }
            return held
        }
        for continuation in released { continuation.resume() }
    }
}
