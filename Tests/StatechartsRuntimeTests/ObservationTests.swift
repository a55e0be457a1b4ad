import Clocks
import Observation
import Statecharts
import Testing

// An `IsolatedStatechart` told to Observation: readers of what a step changed are told once,
// readers of what it did not change are not told, and a step that changes nothing tells no one.

enum Deck: Hashable, Sendable { case stopped, playing, paused, sleeping }

enum DeckEvent: StatechartEvent, CaseIterable { case play, pause, stop, louder, nothing, sleep }

/// A context that is `Equatable`: observers of it are told only of real changes.
struct Volume: Sendable, Equatable {
    var level = 5
}

/// A context that is not `Equatable`: observers of it are told after any step that did something.
struct Counter: Sendable {
    var count = 0
}

func deckChart<Context: Sendable>(
    _ louder: @escaping @Sendable (inout Scope<Deck, DeckEvent, Context>) -> Void
) throws -> Statechart<Deck, DeckEvent, Context> {
    try Statechart(initial: .stopped) {
        StateNode(.stopped) { On(.play, to: .playing) }
        StateNode(.playing) {
            On(.pause, to: .paused)
            After(.seconds(30), to: .sleeping)
        }
        StateNode(.paused) { On(.play, to: .playing) }
        StateNode(.sleeping)
        // `louder` changes only the context; `sleep` re-enters the current state's parent, no change.
        On(.louder, action: louder)
        On(.stop, to: .stopped)
    }
}

/// Counts how often Observation told it of a change to what it read.
@MainActor
final class Reader {
    var changes = 0

    /// Reads with `body`, observing what it read; the next change is counted.
    func read(_ body: () -> Void) {
        withObservationTracking(body) { [weak self] in
            MainActor.assumeIsolated { self?.changes += 1 }
        }
    }
}

@MainActor
@Suite("Observation of an IsolatedStatechart")
struct ObservationTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    func machine() throws -> IsolatedStatechart<Deck, DeckEvent, Volume> {
        let machine = IsolatedStatechart(
            try deckChart { $0.context.level += 1 }, context: Volume(), timers: timers)
        try machine.start()
        return machine
    }

    @Test("a reader of the configuration is told once of a step that changes it")
    func configurationOnce() throws {
        let machine = try machine()
        let reader = Reader()
        reader.read { _ = machine.configuration }
        try machine.send(.play)
        #expect(reader.changes == 1)
        try machine.send(.pause)
        #expect(reader.changes == 1, "told once: it has not read again")
        reader.read { #expect(machine.configuration == [.paused]) }
        try machine.send(.play)
        #expect(reader.changes == 2)
    }

    @Test("a step that changes nothing tells no one")
    func nothingChanged() throws {
        let machine = try machine()
        let reader = Reader()
        reader.read {
            _ = machine.configuration
            _ = machine.context
            _ = machine.isActive(.stopped)
        }
        try machine.send(.nothing)
        try machine.send(.pause)  // not handled in `stopped`
        #expect(reader.changes == 0)
        try machine.send(.play)
        #expect(reader.changes == 1)
    }

    @Test("a step that changes only the context does not tell readers of the configuration")
    func contextOnly() throws {
        let machine = try machine()
        let configurationReader = Reader()
        let contextReader = Reader()
        configurationReader.read { _ = machine.configuration }
        contextReader.read { #expect(machine.context.level == 5) }
        try machine.send(.louder)
        #expect(configurationReader.changes == 0)
        #expect(contextReader.changes == 1)
        #expect(machine.context.level == 6)
    }

    @Test("a step that changes only the configuration does not tell readers of an equatable context")
    func configurationOnly() throws {
        let machine = try machine()
        let contextReader = Reader()
        contextReader.read { _ = machine.context }
        try machine.send(.play)
        #expect(contextReader.changes == 0)
    }

    @Test("a reader of one state's activity is told only when that state's activity changes")
    func oneState() throws {
        let machine = try machine()
        try machine.send(.play)
        let reader = Reader()
        reader.read { #expect(machine.isActive(.paused) == false) }
        try machine.send(.louder)
        #expect(reader.changes == 0, "the context changed, not the state")
        try machine.send(.pause)
        #expect(reader.changes == 1, "paused became active")

        let playing = Reader()
        playing.read { _ = machine.isActive(.sleeping) }
        try machine.send(.play)  // paused → playing: sleeping stays inactive
        #expect(playing.changes == 0)
    }

    @Test("a reader of a context that is not Equatable is told after a step that ran, not after one that did nothing")
    func opaqueContext() throws {
        let machine = IsolatedStatechart(
            try deckChart { $0.context.count += 1 }, context: Counter(), timers: timers)
        try machine.start()
        let reader = Reader()
        reader.read { _ = machine.context }
        try machine.send(.nothing)
        #expect(reader.changes == 0)
        try machine.send(.louder)
        #expect(reader.changes == 1)
        #expect(machine.context.count == 1)
    }

    @Test("a timer that fires tells the readers of what it changed")
    func timer() async throws {
        let machine = try machine()
        try machine.send(.play)
        let reader = Reader()
        reader.read { _ = machine.isActive(.sleeping) }
        await clock.advance(by: .seconds(30))
        await timers.settle()
        #expect(machine.isActive(.sleeping))
        #expect(reader.changes == 1)
    }

    @Test("an invocation's outcome tells the readers of what it changed")
    func invocation() async throws {
        let chart = try Statechart<Deck, DeckEvent, Volume>(initial: .stopped) {
            StateNode(.stopped) {
                Invoke { _ in .play }
                On(.play, to: .playing)
            }
            StateNode(.playing)
        }
        let machine = IsolatedStatechart(chart, context: Volume(), timers: timers)
        let reader = Reader()
        reader.read { _ = machine.configuration }
        try machine.start()
        for _ in 0..<1000 where !machine.isActive(.playing) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(machine.configuration == [.playing])
        #expect(reader.changes == 1)
    }

    @Test("many steps before the reader reads again tell it once")
    func manySteps() throws {
        let machine = try machine()
        let reader = Reader()
        reader.read {
            _ = machine.configuration
            _ = machine.context
        }
        for event: DeckEvent in [.play, .louder, .pause, .louder, .play] { try machine.send(event) }
        #expect(reader.changes == 1)
    }
}
