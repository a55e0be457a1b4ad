import Clocks
import Foundation
import Statecharts
import Testing

/// Live machines restored from archives: an app relaunched, a server restarted.
@Suite("Restoring live machines", .timeLimit(.minutes(1)))
struct RestoreTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    func archived<State, Event, Context>(
        _ machine: StateMachine<State, Event, Context>
    ) throws -> MachineArchive<State, Event, Context> {
        try JSONDecoder().decode(
            MachineArchive<State, Event, Context>.self, from: JSONEncoder().encode(machine.archive()))
    }

    @Test func aRestoredActorFiresItsPendingTimeoutAtTheOriginalDeadline() async throws {
        let chart = try watchChart()
        let first = StatechartActor(chart, context: 0, timers: timers)
        try await first.start()
        try await first.send(.wait)
        await clock.advance(by: .seconds(2))
        let archive = try JSONDecoder().decode(
            MachineArchive<Watch, Poke, Int>.self, from: JSONEncoder().encode(await first.archive()))
        #expect(archive.time == 2_000_000_000)
        #expect(archive.timers.count == 1)

        // Relaunched on the same clock, one second later: 2 s of the timeout remain.
        await clock.advance(by: .seconds(1))
        var machine = try StateMachine(chart: chart, restoring: archive)
        try machine.resume(after: .seconds(1), overdueTimers: .fire)
        let second = StatechartActor(machine: machine, timers: timers)
        try await second.start()
        #expect(await second.snapshot.activeStates == [.waiting])
        #expect(timers.count == 2, "the original still holds its entry")
        await clock.advance(by: .milliseconds(1999))
        await timers.settle()
        #expect(await second.snapshot.activeStates == [.waiting])
        await clock.advance(by: .milliseconds(1))
        await timers.settle()
        #expect(await second.snapshot.activeStates == [.expired])
        #expect(await second.snapshot.now == .seconds(5))
        do {
            try await second.start()
            Issue.record("a second start should throw")
        } catch {
            guard case .alreadyStarted = error else { throw error }
        }
    }

    @Test func aRestoredMachineStartsTheInvocationsOfItsActiveStatesAfresh() async throws {
        let started = Shared(0)
        let chart = try loaderChart { _ in
            started.withLock { $0 += 1 }
            return .loaded(42)
        }
        var machine = chart.makeMachine(context: 0)
        try machine.start()
        try machine.send(.load)
        let requests = machine.takeEffects()
        #expect(requests.count == 1, "the original machine asked for its invocation")

        let restored = try StateMachine(chart: chart, restoring: archived(machine))
        let live = StatechartActor(machine: restored, timers: timers)
        try await live.start()
        let ready = await live.waitUntil { $0.activeStates == [.ready] }
        #expect(ready?.context == 42)
        #expect(started.withLock { $0 } == 1, "only the restored machine's invocation ran")
    }

    @Test @MainActor func anIsolatedMachineResumesOnTheMainActor() async throws {
        var machine = try watchChart().makeMachine(context: 7)
        try machine.start()
        try machine.send(.wait)
        let restored = try StateMachine(chart: try watchChart(), restoring: archived(machine))
        let live = IsolatedStatechart(machine: restored, timers: timers)
        try live.start()
        #expect(live.snapshot().context == 7)
        #expect(try live.archive().timers.count == 1)
        await clock.advance(by: .seconds(5))
        await timers.settle()
        #expect(live.snapshot().activeStates == [.expired])
    }
}
