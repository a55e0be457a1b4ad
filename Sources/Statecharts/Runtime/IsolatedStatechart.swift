/// A live machine that lives on the actor that made it: the main actor in an app.
///
/// Made and used on one actor, it is called synchronously (no `await`, no hop to another
/// executor): `send` returns when the event has been processed to completion. Its timers and the
/// results of its invocations come back to that same actor. Otherwise it behaves as
/// ``StatechartActor``: events one at a time, each to completion; timeouts on the clock of its
/// ``TimerWheel``; invocation tasks cancelled with their state; everything cancelled when it is
/// released.
///
/// ```swift
/// @MainActor
/// final class PlayerModel {
///     let machine = IsolatedStatechart(playerChart, context: Player())
///
///     func playTapped() throws { try machine.send(.play) }
/// }
/// ```
///
/// Every method takes the caller's isolation (`#isolation`); calling one from another actor, or
/// from code that is not isolated to any actor, stops the program, as Swift's own isolation
/// checks do.
public final class IsolatedStatechart<State: Hashable & Sendable, Event: StatechartEvent, Context: Sendable>:
    TimerWheelTarget, @unchecked Sendable
{
    /// The actor the machine belongs to.
    public let isolation: any Actor
    // Only touched on `isolation`, which every entry point checks.
    private let runtime: MachineRuntime<State, Event, Context>

    /// A machine of `chart` on the caller's actor, not started yet.
    ///
    /// - Parameters:
    ///   - chart: The chart.
    ///   - context: The initial context.
    ///   - unhandledEvents: Whether ``send(_:isolation:)`` ignores or rejects events no transition
    ///     handles.
    ///   - timers: The wheel whose clock the machine runs on: ``TimerWheel/continuous`` by default.
    ///   - inspect: Called synchronously, on the machine's actor, for every event, microstep,
    ///     failed action and invocation.
    ///   - isolation: The actor the machine belongs to: the caller's, which must be an actor.
    public convenience init(
        _ chart: Statechart<State, Event, Context>, context: Context,
        unhandledEvents: UnhandledEventPolicy = .ignore, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            machine: StateMachine(chart: chart, context: context, unhandledEvents: unhandledEvents), timers: timers,
            inspect: inspect, isolation: isolation)
    }

    /// A live machine on the caller's actor that continues `machine`: one restored from a
    /// ``MachineArchive``, or one made and perhaps started by hand. Its time goes on from
    /// ``StateMachine/now``; call ``start(isolation:)`` to connect it.
    ///
    /// - Parameters:
    ///   - machine: The machine.
    ///   - timers: The wheel whose clock the machine runs on: ``TimerWheel/continuous`` by default.
    ///   - inspect: Called synchronously, on the machine's actor, for every event, microstep,
    ///     failed action and invocation.
    ///   - isolation: The actor the machine belongs to: the caller's, which must be an actor.
    public init(
        machine: StateMachine<State, Event, Context>, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) {
        guard let isolation else {
            preconditionFailure("an IsolatedStatechart must be made on an actor, such as the main actor")
        }
        self.isolation = isolation
        runtime = MachineRuntime(machine: machine, timers: timers, inspect: inspect)
        runtime.target = self
        runtime.spawn = { [weak self] start in
            Task {
                let outcome = await start.run()
                await self?.deliver(outcome, from: start.id, isolation: isolation)
            }
        }
    }

    /// Enters the initial configuration and processes what follows, to completion; for a machine
    /// given already running (``init(machine:timers:inspect:isolation:)``), arms its pending
    /// timers on the clock and starts the invocations of its active states instead.
    public func start(isolation caller: isolated (any Actor)? = #isolation) throws(MachineError<State, Event>) {
        check(caller)
        try runtime.start()
    }

    /// Processes `event` to completion (see ``StateMachine/send(_:)``).
    ///
    /// - Returns: Whether a transition handled it.
    @discardableResult
    public func send(
        _ event: Event, isolation caller: isolated (any Actor)? = #isolation
    ) throws(MachineError<State, Event>) -> Bool {
        check(caller)
        return try runtime.send(event)
    }

    /// Cancels the delayed events sent with identifier `id`.
    @discardableResult
    public func cancelDelayedEvents(id: String, isolation caller: isolated (any Actor)? = #isolation) -> Int {
        check(caller)
        return runtime.cancelDelayedEvents(id: id)
    }

    /// The configuration, context and status now.
    public func snapshot(isolation caller: isolated (any Actor)? = #isolation) -> MachineSnapshot<State, Context> {
        check(caller)
        return runtime.machine.snapshot
    }

    /// The machine itself, as it is now: a copy, to inspect.
    public func machine(isolation caller: isolated (any Actor)? = #isolation) -> StateMachine<State, Event, Context> {
        check(caller)
        return runtime.machine
    }

    /// The current snapshot, then one after every step, until the machine is released.
    public func snapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<State, Context>>.Continuation.BufferingPolicy = .unbounded,
        isolation caller: isolated (any Actor)? = #isolation
    ) -> AsyncStream<MachineSnapshot<State, Context>> {
        check(caller)
        return runtime.snapshots(bufferingPolicy: bufferingPolicy)
    }

    // MARK: - Coming back to the actor

    func timerFired() async {
        await wake(isolation: isolation)
    }

    private func wake(isolation: isolated any Actor) {
        runtime.timerFired()
    }

    private func deliver(_ outcome: InvocationOutcome<Event>, from id: InvocationID, isolation: isolated any Actor) {
        runtime.deliver(outcome, from: id)
    }

    fileprivate func check(_ caller: (any Actor)?) {
        guard let caller, caller === isolation else {
            preconditionFailure("an IsolatedStatechart was used off the actor that made it")
        }
    }
}

extension IsolatedStatechart where State: Codable, Event: Codable, Context: Codable {
    /// The machine's whole state now, to restore it later with
    /// ``StateMachine/init(chart:restoring:unhandledEvents:)`` and
    /// ``init(machine:timers:inspect:isolation:)``.
    ///
    /// The machine's time is first brought to the clock's now, firing the timers due by then.
    ///
    /// - Throws: ``MachineArchiveError/stateDataNotCodable(state:type:)`` when an active state
    ///   holds data of a type that is not `Codable`.
    public func archive(
        isolation caller: isolated (any Actor)? = #isolation
    ) throws(MachineArchiveError) -> MachineArchive<State, Event, Context> {
        check(caller)
        return try runtime.currentMachine().archive()
    }
}

extension IsolatedStatechart where Context == Void {
    /// A machine of `chart`, which has no context, on the caller's actor, not started yet.
    public convenience init(
        _ chart: Statechart<State, Event, Void>, unhandledEvents: UnhandledEventPolicy = .ignore,
        timers: TimerWheel = .continuous, inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            chart, context: (), unhandledEvents: unhandledEvents, timers: timers, inspect: inspect,
            isolation: isolation)
    }
}
