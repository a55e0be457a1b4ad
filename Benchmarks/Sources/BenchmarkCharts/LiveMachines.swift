import Observation
import Statecharts

// Live machines: the runtime around a machine (clock, timer wheel), measured as an app uses it,
// beside the bare machine and an empty actor call in the same run.

/// Sends `count` events to a started bare machine of `chart`: the engine's own cost.
@inlinable
public func sendToBareMachine<State: Hashable, Event: StatechartEvent>(
    _ chart: Statechart<State, Event, Void>, event: Event, count: Int
) throws -> StateMachine<State, Event, Void> where Event.Kind: Hashable {
    var machine = chart.makeMachine()
    try machine.start()
    for _ in 0..<count { try machine.send(event) }
    return machine
}

/// Sends `count` events to an ``IsolatedStatechart`` on the main actor, as a view model does;
/// with `observed`, a view reads its configuration and context, and reads them again each time it
/// is told of a change, as SwiftUI evaluates a body again: every step is observed.
@MainActor @inlinable
public func sendToIsolatedStatechart<State: Hashable, Event: StatechartEvent>(
    _ chart: Statechart<State, Event, Void>, event: Event, count: Int, observed: Bool = false
) throws -> [State] where Event.Kind: Hashable {
    let machine = IsolatedStatechart(chart, timers: TimerWheel(clock: ContinuousClock()))
    try machine.start()
    let view = RereadingView(machine)
    if observed {
        view.read()
        for _ in 0..<count {
            try machine.send(event)
            if view.isStale { view.read() }
        }
        if view.changes != count { fatalError("the view was told of \(view.changes) changes, not \(count)") }
    } else {
        for _ in 0..<count { try machine.send(event) }
    }
    return machine.snapshot().activeStates
}

/// A view that reads a machine's configuration and context, and is read again after it is told
/// of a change, as SwiftUI evaluates a body again before the next event.
@MainActor
public final class RereadingView<State: Hashable, Event: StatechartEvent> where Event.Kind: Hashable {
    let machine: IsolatedStatechart<State, Event, Void>
    /// How many changes it was told of.
    public private(set) var changes = 0
    /// Whether it was told of a change since it last read.
    public private(set) var isStale = false

    /// A view of `machine` that has read nothing yet.
    public init(_ machine: IsolatedStatechart<State, Event, Void>) { self.machine = machine }

    /// Reads the configuration and the context, observing them.
    public func read() {
        isStale = false
        let view = self
        withObservationTracking {
            _ = machine.configuration
            _ = machine.context
        } onChange: {
            MainActor.assumeIsolated {
                view.changes += 1
                view.isStale = true
            }
        }
    }
}

/// Sends `count` events to a ``StatechartActor`` from the caller's task, awaiting each.
@inlinable
public func sendToStatechartActor<State: Hashable & Sendable, Event: StatechartEvent & Sendable>(
    _ chart: Statechart<State, Event, Void>, event: Event, count: Int
) async throws -> [State] where Event.Kind: Hashable & Sendable {
    let machine = StatechartActor(chart, timers: TimerWheel(clock: ContinuousClock()))
    try await machine.start()
    for _ in 0..<count { try await machine.send(event) }
    return await machine.snapshot.activeStates
}

/// An actor whose method does nothing but has the shape of ``StatechartActor/send(_:)``: what a
/// call into an actor from another task costs by itself, the hop there and back.
public actor EmptyActor {
    var calls = 0

    /// An actor with no calls yet.
    public init() {}

    /// Counts the call and returns whether the count is even; throws nothing. Not inlinable, so
    /// that the caller cannot see that nothing happens in it: a call the runtime must make.
    @discardableResult
    public func call(_ event: Flick) throws(EmptyActorError) -> Bool {
        calls &+= 1
        return calls & 1 == 0
    }

    /// How many calls were made.
    public var count: Int { calls }
}

/// What ``EmptyActor/call(_:)`` would throw: nothing, in fact.
public struct EmptyActorError: Error {}

/// Makes `count` awaited calls to an ``EmptyActor`` from the caller's task.
@inlinable
public func callEmptyActor(count: Int) async throws -> Int {
    let actor = EmptyActor()
    for _ in 0..<count { try await actor.call(.flick) }
    return await actor.count
}

/// Drives an ``IsolatedStatechart`` of the watchdog on its own actor.
public actor LiveWatchDriver {
    /// A driver with nothing running.
    public init() {}

    /// Sends `events` events alternating `wait` (arms the timeout) and `poke` (cancels it).
    public func armAndCancel(events: Int) throws {
        let machine = IsolatedStatechart(try makeWatchChart(), timers: TimerWheel(clock: ContinuousClock()))
        try machine.start()
        for index in 0..<events { try machine.send(index & 1 == 0 ? .wait : .poke) }
    }
}

/// A chart whose only state re-arms a timeout of `period` each time it fires.
public func makeTickerChart(every period: Duration = .seconds(1)) throws -> Statechart<Watch, Poke, Int> {
    try Statechart<Watch, Poke, Int>(initial: .waiting) {
        StateNode(.waiting) {
            After(period, to: .waiting) { $0.context &+= 1 }
        }
    }
}

/// Makes `count` started actors of `chart`, each with its timeout armed on `timers`.
public func makeLiveMachines(
    _ count: Int, chart: Statechart<Watch, Poke, Int>, timers: TimerWheel
) async throws -> [StatechartActor<Watch, Poke, Int>] {
    var machines: [StatechartActor<Watch, Poke, Int>] = []
    machines.reserveCapacity(count)
    for _ in 0..<count {
        let machine = StatechartActor(chart, context: 0, timers: timers)
        try await machine.start()
        machines.append(machine)
    }
    return machines
}

/// The states of a player of ``rallyBetweenActors(count:)``.
public enum RallyState: Hashable, Sendable { case playing }

/// A hit of the ball, numbered.
public enum RallyShot: StatechartEvent, Sendable {
    case hit(Int)

    /// One kind.
    public enum Kind: CaseIterable, Hashable, Sendable { case hit }
    /// The kind.
    public var kind: Kind { .hit }
}

/// A player: whom it returns the ball to, the last hit of the rally, and what it calls then.
public struct RallyPlayer: Sendable {
    let peer: String
    let last: Int
    let finished: @Sendable () -> Void
}

/// A player returns every hit `n` to its peer as `n + 1`, by id through their `StatechartSystem`,
/// until the last.
public func makeRallyChart() throws -> Statechart<RallyState, RallyShot, RallyPlayer> {
    try Statechart(initial: .playing) {
        StateNode(.playing) {
            On(.hit) { scope in
                guard case .hit(let count) = scope.event else { return }
                if count < scope.context.last {
                    scope.send(.hit(count + 1), to: scope.context.peer)
                } else {
                    scope.context.finished()
                }
            }
        }
    }
}

/// Two `StatechartActor`s of one system send each other `count` events by id, one at a time:
/// each event is a send out of one machine's step, a delivery through the system to the other's
/// actor, and a step there.
public func rallyBetweenActors(count: Int) async throws {
    let chart = try makeRallyChart()
    let system = StatechartSystem()
    let (ended, end) = AsyncStream.makeStream(of: Void.self)
    let finished: @Sendable () -> Void = { end.finish() }
    let timers = TimerWheel(clock: ContinuousClock())
    let left = StatechartActor(
        chart, context: RallyPlayer(peer: "right", last: count, finished: finished), timers: timers)
    let right = StatechartActor(
        chart, context: RallyPlayer(peer: "left", last: count, finished: finished), timers: timers)
    try await left.join(system, as: "left")
    try await right.join(system, as: "right")
    try await left.start()
    try await right.start()
    try await left.send(.hit(0))
    for await _ in ended {}
}
