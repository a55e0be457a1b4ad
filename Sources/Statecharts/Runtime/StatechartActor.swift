/// A live machine that is its own actor: send it events from any task.
///
/// Events are processed one at a time, in the order they reach the actor, each to completion
/// before the next: an event an action sends is queued, never processed inside the action.
/// Timeouts and delayed events run on the clock of its ``TimerWheel``; the work of ``Invoke``
/// runs in tasks that are cancelled when their state is exited. Releasing the actor cancels its
/// timers and tasks: nothing fires and no result is delivered after that.
///
/// ```swift
/// let machine = StatechartActor(chart, context: Player())
/// try await machine.start()
/// try await machine.send(.play)
/// for await snapshot in await machine.snapshots() {
///     print(snapshot.activeStates)
/// }
/// ```
///
/// To keep a machine on the actor you already use (the main actor in an app), use
/// ``IsolatedStatechart``.
public actor StatechartActor<State: Hashable & Sendable, Event: StatechartEvent, Context: Sendable>:
    TimerWheelTarget
{
    private let runtime: MachineRuntime<State, Event, Context>

    /// A machine of `chart`, not started yet.
    ///
    /// - Parameters:
    ///   - chart: The chart.
    ///   - context: The initial context.
    ///   - unhandledEvents: Whether ``send(_:)`` ignores or rejects events no transition handles.
    ///   - timers: The wheel whose clock the machine runs on: ``TimerWheel/continuous`` by default.
    ///   - inspect: Called synchronously, on the actor, for every event, microstep, failed action
    ///     and invocation: for logging and tests. Keep it short.
    public init(
        _ chart: Statechart<State, Event, Context>, context: Context,
        unhandledEvents: UnhandledEventPolicy = .ignore, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil
    ) {
        runtime = MachineRuntime(
            machine: StateMachine(chart: chart, context: context, unhandledEvents: unhandledEvents), timers: timers,
            inspect: inspect)
    }

    /// A live machine that continues `machine`: one restored from a ``MachineArchive``, or one
    /// made and perhaps started by hand. Its time goes on from ``StateMachine/now``; call
    /// ``start()`` to connect it.
    ///
    /// - Parameters:
    ///   - machine: The machine.
    ///   - timers: The wheel whose clock the machine runs on: ``TimerWheel/continuous`` by default.
    ///   - inspect: Called synchronously, on the actor, for every event, microstep, failed action
    ///     and invocation.
    public init(
        machine: StateMachine<State, Event, Context>, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil
    ) {
        runtime = MachineRuntime(machine: machine, timers: timers, inspect: inspect)
    }

    /// Enters the initial configuration and processes what follows, to completion; for a machine
    /// given already running (``init(machine:timers:inspect:)``), arms its pending timers on the
    /// clock and starts the invocations of its active states instead.
    ///
    /// - Throws: ``MachineError/alreadyStarted`` the second time.
    public func start() throws(MachineError<State, Event>) {
        if runtime.target == nil {
            // Timers and invocations exist only once the machine runs: connect them now.
            runtime.target = self
            runtime.spawn = { [weak self] start in
                Task {
                    let outcome = await start.run()
                    await self?.deliver(outcome, from: start.id)
                }
            }
        }
        try runtime.start()
    }

    /// Processes `event` to completion (see ``StateMachine/send(_:)``).
    ///
    /// - Returns: Whether a transition handled it.
    @discardableResult
    public func send(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        try runtime.send(event)
    }

    /// Cancels the delayed events sent with identifier `id`.
    ///
    /// - Returns: How many were cancelled.
    @discardableResult
    public func cancelDelayedEvents(id: String) -> Int {
        runtime.cancelDelayedEvents(id: id)
    }

    /// The configuration, context and status now.
    public var snapshot: MachineSnapshot<State, Context> { runtime.machine.snapshot }

    /// The machine itself, as it is now: a copy, to inspect.
    public var machine: StateMachine<State, Event, Context> { runtime.machine }

    /// The current snapshot, then one after every step, until the actor is released.
    ///
    /// - Parameter bufferingPolicy: What to keep while the reader is behind: every snapshot (the
    ///   default), or only the newest ones, as a view that shows the latest state wants.
    public func snapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<State, Context>>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<MachineSnapshot<State, Context>> {
        runtime.snapshots(bufferingPolicy: bufferingPolicy)
    }

    func timerFired() async {
        runtime.timerFired()
    }

    private func deliver(_ outcome: InvocationOutcome<Event>, from id: InvocationID) {
        runtime.deliver(outcome, from: id)
    }
}

extension StatechartActor where State: Codable, Event: Codable, Context: Codable {
    /// The machine's whole state now, to restore it later with
    /// ``StateMachine/init(chart:restoring:unhandledEvents:)`` and ``init(machine:timers:inspect:)``.
    ///
    /// The machine's time is first brought to the clock's now, firing the timers due by then, so
    /// that the archive's deadlines are measured from the moment it was taken.
    ///
    /// - Throws: ``MachineArchiveError/stateDataNotCodable(state:type:)`` when an active state
    ///   holds data of a type that is not `Codable`.
    public func archive() throws(MachineArchiveError) -> MachineArchive<State, Event, Context> {
        try runtime.currentMachine().archive()
    }
}

extension StatechartActor where Context == Void {
    /// A machine of `chart`, which has no context, not started yet.
    public init(
        _ chart: Statechart<State, Event, Void>, unhandledEvents: UnhandledEventPolicy = .ignore,
        timers: TimerWheel = .continuous, inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil
    ) {
        self.init(chart, context: (), unhandledEvents: unhandledEvents, timers: timers, inspect: inspect)
    }
}
