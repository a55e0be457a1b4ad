import Observation

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
/// @MainActor @Observable
/// final class PlayerModel {
///     let machine = IsolatedStatechart(playerChart, context: Player())
///
///     func playTapped() { try? machine.send(.play) }
/// }
/// ```
///
/// It is `Observable`: a SwiftUI view (or `withObservationTracking`) that reads
/// ``configuration``, ``context`` or ``isActive(_:isolation:)`` is told once after each step that
/// changes what it read, and never for a step that changes nothing. A view that reads only
/// whether a state is active is not invalidated by a step that changes only the context, nor by
/// one that changes other states. When nothing observes the machine, it costs nothing.
///
/// Every method takes the caller's isolation (`#isolation`), and the properties check it;
/// calling from another actor, or from code that is not isolated to any actor, stops the
/// program, as Swift's own isolation checks do.
///
/// Its states, events and context need not be `Sendable` or have nonisolated conformances: with
/// Xcode 26's default main-actor isolation, an app's enums work as written.
public final class IsolatedStatechart<State: Hashable, Event: StatechartEvent, Context>:
    TimerWheelTarget, Observable, @unchecked Sendable
where Event.Kind: Hashable {
    /// The actor the machine belongs to.
    public let isolation: any Actor
    // Only touched on `isolation`, which every entry point checks; one call at a time, so the
    // dynamic exclusivity checks of class properties are not needed.
    @exclusivity(unchecked) @usableFromInline var live: LiveMachine<State, Event, Context>
    @exclusivity(unchecked) @usableFromInline var observed: ObservedParts
    @usableFromInline let registrar = ObservationRegistrar()
    /// Compares contexts, when `Context` is `Equatable`: observers of the context are then told
    /// only of real changes.
    @usableFromInline let contextsEqual: ((Context, Context) -> Bool)?

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
        live = LiveMachine(machine: machine, timers: timers, inspect: inspect)
        observed = ObservedParts(stateCount: machine.chart.layout.stateCount)
        contextsEqual = equality(of: Context.self)
    }

    deinit {
        live.stop()
    }

    // MARK: - Driving

    /// Enters the initial configuration and processes what follows, to completion; for a machine
    /// given already running (``init(machine:timers:inspect:isolation:)``), arms its pending
    /// timers on the clock and starts the invocations of its active states instead.
    ///
    /// - Throws: ``MachineError/alreadyStarted`` the second time.
    @inlinable
    public func start(isolation caller: isolated (any Actor)? = #isolation) throws(MachineError<State, Event>) {
        check(caller)
        let before = observed.isEmpty ? nil : observationPoint()
        defer { if let before { notifyObservers(since: before) } }
        try live.start(owner: self, spawn: { self.startTask($0) })
    }

    /// Processes `event` to completion (see ``StateMachine/send(_:)``).
    ///
    /// - Returns: Whether a transition handled it.
    @discardableResult
    @inlinable
    public func send(
        _ event: Event, isolation caller: isolated (any Actor)? = #isolation
    ) throws(MachineError<State, Event>) -> Bool {
        check(caller)
        if _slowPath(!observed.isEmpty) { return try sendObserved(event) }
        return try live.send(event, owner: self, spawn: { self.startTask($0) })
    }

    @usableFromInline
    func sendObserved(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        let before = observationPoint()
        defer { notifyObservers(since: before) }
        return try live.send(event, owner: self, spawn: { self.startTask($0) })
    }

    /// Cancels the delayed events sent with identifier `id`.
    @discardableResult
    @inlinable
    public func cancelDelayedEvents(id: String, isolation caller: isolated (any Actor)? = #isolation) -> Int {
        check(caller)
        return live.cancelDelayedEvents(id: id, owner: self, spawn: { self.startTask($0) })
    }

    // MARK: - Reading

    /// The active states, parents before children, in document order. Observable.
    public var configuration: [State] {
        checkIsolation()
        registrar.access(self, keyPath: \.configuration)
        observed.configuration = true
        return live.machine.configuration
    }

    /// The machine's context: the extended state its actions change. Observable.
    public var context: Context {
        checkIsolation()
        registrar.access(self, keyPath: \.context)
        observed.context = true
        return live.machine.context
    }

    /// Whether `state` is active. Observable: a reader is told only when this state's activity
    /// changes.
    public func isActive(_ state: State, isolation caller: isolated (any Actor)? = #isolation) -> Bool {
        check(caller)
        guard let index = live.machine.chart.stateIndices[state] else {
            // Never active; observing the configuration covers a chart that could not change.
            return false
        }
        registrar.access(self, keyPath: \.[activityOf: Int(index)])
        observed.states.insert(Int(index))
        observed.anyState = true
        return live.machine.active.contains(Int(index))
    }

    /// The activity of the state at `index`: the key path observers of ``isActive(_:isolation:)``
    /// are registered under.
    subscript(activityOf index: Int) -> Bool { live.machine.active.contains(index) }

    /// The configuration, context and status now.
    public func snapshot(isolation caller: isolated (any Actor)? = #isolation) -> MachineSnapshot<State, Context> {
        check(caller)
        return live.snapshot
    }

    /// The machine itself, as it is now (its time brought to the clock's, firing the timers due
    /// by then): a copy, to inspect.
    public func machine(isolation caller: isolated (any Actor)? = #isolation) -> StateMachine<State, Event, Context> {
        check(caller)
        let before = observed.isEmpty ? nil : observationPoint()
        defer { if let before { notifyObservers(since: before) } }
        return live.currentMachine(owner: self, spawn: { self.startTask($0) })
    }

    // MARK: - Coming back to the actor

    @usableFromInline
    func timerFired() async {
        await wake(isolation: isolation)
    }

    private func wake(isolation: isolated any Actor) {
        let before = observed.isEmpty ? nil : observationPoint()
        defer { if let before { notifyObservers(since: before) } }
        live.timerFired(owner: self, spawn: { self.startTask($0) })
    }

    /// Runs an invocation's work in a task and brings its outcome back to the machine's actor.
    @usableFromInline
    func startTask(_ start: InvocationStart<State, Event, Context>) -> Task<Void, Never> {
        launch(IsolatedInvocation(start: start, owner: self))
    }

    fileprivate func deliver(
        _ outcome: InvocationOutcome<Event>, from id: InvocationID, isolation: isolated any Actor
    ) {
        let before = observed.isEmpty ? nil : observationPoint()
        defer { if let before { notifyObservers(since: before) } }
        live.deliver(outcome, from: id, owner: self, spawn: { self.startTask($0) })
    }

    // MARK: - Isolation

    @inlinable
    func check(_ caller: (any Actor)?) {
        guard let caller, caller === isolation else { isolationViolation() }
    }

    @usableFromInline
    func checkIsolation() {
        isolation.preconditionIsolated("an IsolatedStatechart was used off the actor that made it")
    }

    @usableFromInline
    func isolationViolation() -> Never {
        preconditionFailure("an IsolatedStatechart was used off the actor that made it")
    }

    // MARK: - Observation

    /// What observers may have read, before a step.
    @usableFromInline
    struct ObservationPoint {
        @usableFromInline var active: StateSet
        @usableFromInline var context: Context?

        @usableFromInline
        init(active: StateSet, context: Context?) {
            self.active = active
            self.context = context
        }
    }

    @usableFromInline
    func observationPoint() -> ObservationPoint {
        live.activity = false
        let context = observed.context && contextsEqual != nil ? live.machine.context : nil
        return ObservationPoint(active: live.machine.active, context: context)
    }

    /// Tells the observers of what a step changed, once each.
    @usableFromInline
    func notifyObservers(since before: ObservationPoint) {
        let active = live.machine.active
        if active != before.active {
            if observed.configuration {
                registrar.willSet(self, keyPath: \.configuration)
                registrar.didSet(self, keyPath: \.configuration)
            }
            observed.states.forEachAscending { index in
                guard active.contains(index) != before.active.contains(index) else { return }
                registrar.willSet(self, keyPath: \.[activityOf: index])
                registrar.didSet(self, keyPath: \.[activityOf: index])
            }
        }
        if observed.context {
            let changed: Bool
            if let contextsEqual, let previous = before.context {
                changed = !contextsEqual(previous, live.machine.context)
            } else {
                changed = live.activity
            }
            if changed {
                registrar.willSet(self, keyPath: \.context)
                registrar.didSet(self, keyPath: \.context)
            }
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
        try machine(isolation: caller).archive()
    }
}

extension IsolatedStatechart where State: Sendable, Context: Sendable {
    /// The current snapshot, then one after every step, until the machine is released.
    ///
    /// Offered when states and context are `Sendable` with nonisolated conformances, since the
    /// stream may be read anywhere. A view on the main actor reads the machine through
    /// Observation instead (``configuration``, ``context``, ``isActive(_:isolation:)``).
    public func snapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<State, Context>>.Continuation.BufferingPolicy = .unbounded,
        isolation caller: isolated (any Actor)? = #isolation
    ) -> AsyncStream<MachineSnapshot<State, Context>> {
        check(caller)
        return live.snapshots(bufferingPolicy: bufferingPolicy)
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

/// What the observers of an ``IsolatedStatechart`` have read: only those parts are compared
/// after a step.
@usableFromInline
struct ObservedParts {
    @usableFromInline var configuration = false
    @usableFromInline var context = false
    /// The states whose activity was read with ``IsolatedStatechart/isActive(_:isolation:)``.
    @usableFromInline var states: StateSet
    /// Whether ``states`` holds any state.
    @usableFromInline var anyState = false

    @usableFromInline
    init(stateCount: Int) { states = StateSet(capacity: stateCount) }

    /// Whether nothing has been read yet: steps then compare nothing.
    @inlinable
    var isEmpty: Bool { !configuration && !context && !anyState }
}

/// An invocation of an ``IsolatedStatechart``: its work runs in a task, and its outcome is
/// delivered on the machine's actor.
///
/// The start moves into the task and the outcome back to the actor, never shared, so the two
/// cross isolation domains safely even when the chart's types are not `Sendable`.
final class IsolatedInvocation<State: Hashable, Event: StatechartEvent, Context>: InvocationJob, @unchecked Sendable
where Event.Kind: Hashable {
    let start: InvocationStart<State, Event, Context>
    weak var owner: IsolatedStatechart<State, Event, Context>?
    let isolation: any Actor

    init(start: InvocationStart<State, Event, Context>, owner: IsolatedStatechart<State, Event, Context>) {
        self.start = start
        self.owner = owner
        isolation = owner.isolation
    }

    func run() async {
        let outcome = await start.run()
        await deliver(outcome, isolation: isolation)
    }

    private func deliver(_ outcome: InvocationOutcome<Event>, isolation: isolated any Actor) {
        owner?.deliver(outcome, from: start.id, isolation: isolation)
    }
}

/// Work a live machine runs in a task of its own.
protocol InvocationJob: Sendable {
    func run() async
}

/// Starts `job` in a new task.
func launch(_ job: some InvocationJob) -> Task<Void, Never> {
    Task { await job.run() }
}

/// A function that tells whether two values of `Value` are equal, when `Value` is `Equatable`.
@usableFromInline
func equality<Value>(of type: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    return equality(equatable, as: type)
}

private func equality<Known: Equatable, Value>(_ known: Known.Type, as type: Value.Type) -> (Value, Value) -> Bool {
    { first, second in
        withUnsafePointer(to: first) { firstPointer in
            withUnsafePointer(to: second) { secondPointer in
                firstPointer.withMemoryRebound(to: Known.self, capacity: 1) { left in
                    secondPointer.withMemoryRebound(to: Known.self, capacity: 1) { right in left.pointee == right.pointee }
                }
            }
        }
    }
}
