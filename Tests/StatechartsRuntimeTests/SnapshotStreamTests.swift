import Clocks
import Statecharts
import Testing

/// The snapshots a live machine publishes carry the microsteps taken since the one before, which
/// the inspector draws highlighted (a snapshot read alone, and the first of a stream, carry none),
/// and the timers pending.
@Suite struct SnapshotStreamTests {
    @Test(
        "an IsolatedStatechart's snapshots carry each step's microsteps: event, transitions, states exited and entered")
    @MainActor func isolated() async throws {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let machine = IsolatedStatechart(try watchChart(), context: 0, timers: timers)
        let stream = machine.snapshots()
        var iterator = stream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.microsteps.isEmpty, "the machine as it was when the stream began")

        try machine.start()
        let started = try #require(await iterator.next())
        #expect(started.microsteps.map(\.event) == [nil])
        #expect(started.microsteps.first?.transitions.map(\.source) == [nil], "the chart's initial transition")
        #expect(started.microsteps.first?.entered == [.idle])

        try machine.send(.wait)
        let waiting = try #require(await iterator.next())
        #expect(waiting.microsteps.map(\.event) == ["wait"])
        #expect(waiting.microsteps.first?.transitions.map(\.source) == [.idle])
        #expect(waiting.microsteps.first?.transitions.map(\.targets) == [[.waiting]])
        #expect(waiting.microsteps.first?.exited == [.idle])
        #expect(waiting.microsteps.first?.entered == [.waiting])
        #expect(waiting.timers.map(\.state) == [.waiting], "the state's timeout, with its state")
        #expect(waiting.timers.map(\.deadline) == [.seconds(5)])

        // A step that takes no transition has no microstep.
        try machine.send(.ping)
        #expect(try #require(await iterator.next()).microsteps.isEmpty)

        // A timer's step, taken when the clock moves.
        await clock.advance(by: .seconds(5))
        await timers.settle()
        let expired = try #require(await iterator.next())
        #expect(expired.configuration == [.expired])
        #expect(expired.microsteps.first?.transitions.map(\.targets) == [[.expired]])
        #expect(expired.timers.isEmpty)
        #expect(machine.snapshot().microsteps.isEmpty, "a snapshot read alone")
    }

    @Test("a StatechartActor's snapshots carry each step's microsteps")
    func actor() async throws {
        let machine = StatechartActor(try watchChart(), context: 0)
        try await machine.start()
        let stream = await machine.snapshots()
        var iterator = stream.makeAsyncIterator()
        #expect(try #require(await iterator.next()).microsteps.isEmpty)
        try await machine.send(.wait)
        try await machine.send(.poke)
        let waiting = try #require(await iterator.next())
        let idle = try #require(await iterator.next())
        #expect(waiting.microsteps.flatMap(\.entered) == [.waiting])
        #expect(idle.microsteps.map(\.event) == ["poke"])
        #expect(idle.microsteps.flatMap(\.transitions).map(\.source) == [.waiting])
    }
}
