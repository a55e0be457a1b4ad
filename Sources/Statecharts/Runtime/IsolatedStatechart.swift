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
    TimerWheelTarget, Observable, LiveOwner, @unchecked Sendable
where Event.Kind: Hashable {
    /// The actor the machine belongs to.
    public let isolation: any Actor
    // Only touched on `isolation`, which every entry point checks; one call at a time, so the
    // dynamic exclusivity checks of class properties are not needed.
    @exclusivity(unchecked) @usableFromInline var live: LiveHost<State, Event, Context>
    @exclusivity(unchecked) @usableFromInline var observed: ObservedParts
    @usableFromInline let registrar: ObservationRegistrar
    /// Compares contexts, when `Context` is `Equatable`: observers of the context are then told
    /// only of real changes.
    @usableFromInline let contextsEqual: ((Context, Context) -> Bool)?
    /// The key paths observers are registered under, made once: a key path of a generic class is
    /// instantiated anew each time its literal is evaluated.
    @usableFromInline let configurationPath: KeyPath<IsolatedStatechart, [State]>
    @usableFromInline let contextPath: KeyPath<IsolatedStatechart, Context>
    /// By state index, made on first read.
    @exclusivity(unchecked) @usableFromInline var activityPaths: [KeyPath<IsolatedStatechart, Bool>?]

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
    @inlinable
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
    @inlinable
    public init(
        machine: StateMachine<State, Event, Context>, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) {
        guard let isolation else { Self.madeOffAnActor() }
        self.isolation = isolation
        live = LiveHost(live: machine, timers: timers, inspect: inspect)
        observed = ObservedParts(stateCount: machine.chart.layout.stateCount)
        registrar = ObservationRegistrar()
        contextsEqual = equality(of: Context.self)
        configurationPath = \.configuration
        contextPath = \.context
        activityPaths = Array(repeating: nil, count: machine.chart.layout.stateCount)
        connectHost()
        machine.chart.liveHooks.installIsolatedHook {
            IsolatedHook<State, Event, Context> { machine, reason in machine.handle(reason) }
        }
    }

    /// Makes this machine what its host's wheel entry calls back and what starts its invocations'
    /// tasks. Not counted references: the machine holds the host, and cancels both before it goes.
    @usableFromInline
    func connectHost() {
        live.clock.target = Unmanaged.passUnretained(self as AnyObject)
        live.router.owner = self
    }

    @usableFromInline
    static func madeOffAnActor() -> Never {
        preconditionFailure("an IsolatedStatechart must be made on an actor, such as the main actor")
    }

    /// The key path of the activity of the state at `index`.
    @usableFromInline
    func activityPath(_ index: Int) -> KeyPath<IsolatedStatechart, Bool> {
        if let path = activityPaths[index] { return path }
        let path = \IsolatedStatechart.[activityOf: index]
        activityPaths[index] = path
        return path
    }

    deinit {
        live.stopLive()
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
        try live.startLive()
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
        let handled: Bool
        do {
            handled = try live.sendLive(event)
        } catch {
            if live.liveNeedsSettling { settle() }
            throw error
        }
        if live.liveNeedsSettling { settle() }
        return handled
    }

    /// Arms the timer, starts and cancels invocations and publishes a snapshot after a step.
    @inlinable @inline(never)
    func settle() {
        live.settleLive()
    }

    @inlinable @inline(never)
    func sendObserved(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        let before = observationPoint()
        defer { notifyObservers(since: before) }
        defer { if live.liveNeedsSettling { settle() } }
        return try live.sendLive(event)
    }

    /// Cancels the delayed events sent with identifier `id`.
    @discardableResult
    @inlinable
    public func cancelDelayedEvents(id: String, isolation caller: isolated (any Actor)? = #isolation) -> Int {
        check(caller)
        return live.cancelDelayedEventsLive(id: id)
    }

    // MARK: - Reading

    /// The active states, parents before children, in document order. Observable.
    public var configuration: [State] {
        checkIsolation()
        registrar.access(self, keyPath: configurationPath)
        observed.configuration = true
        return live.machine.configuration
    }

    /// The machine's context: the extended state its actions change. Observable.
    public var context: Context {
        checkIsolation()
        registrar.access(self, keyPath: contextPath)
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
        registrar.access(self, keyPath: activityPath(Int(index)))
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
        return live.currentMachine()
    }

    // MARK: - Coming back to the actor

    /// The wheel says the machine's timer is due.
    @usableFromInline
    package func timerFired() async {
        await wake(.timer, isolation: isolation)
    }

    /// Runs an invocation's work in a task, and brings its outcome back to the machine's actor.
    @usableFromInline
    func startTask(_ job: LiveJob<State, Event, Context>) -> Task<Void, Never> {
        let running = IsolatedJob(job: job, owner: self)
        if case .invocation(let start) = job, start.startsChildMachine {
            // See StatechartActor.startTask: the child's task is linked to this machine.
            let slot = live.mutableAttachments().invokedChildren().open(
                start.name ?? "", invocation: start.id, events: Event.self)
            running.linkToChild(wheel: live.wheel, slot: slot, membership: live.attachments?.membership)
        }
        return launch(running)
    }

    /// Calls the chart's specialised handler (see ``LiveHooks``).
    fileprivate func wake(_ reason: LiveWakeUp<Event>, isolation: isolated any Actor) {
        if let hook = live.machine.chart.liveHooks.isolatedHook(as: IsolatedHook<State, Event, Context>.self) {
            hook.wake(self, reason)
        } else {
            handle(reason)
        }
    }

    /// An event from another member of the machine's system, processed through the chart's
    /// specialised handler, on the machine's actor.
    func receiveFromSystem(_ event: Event, isolation: isolated any Actor) {
        wake(.received(event), isolation: isolation)
    }

    /// A send of the machine's own that an event I/O processor could not deliver: processes
    /// `error.communication` on the machine's actor.
    func undeliveredThroughProcessor(_ outgoing: OutgoingEvent<Event>, reason: String, isolation: isolated any Actor) {
        wake(.undelivered(outgoing, reason: reason), isolation: isolation)
    }

    /// Processes a timer, an invocation's outcome or an undelivered send, on the machine's actor.
    @inlinable @inline(never)
    func handle(_ reason: LiveWakeUp<Event>) {
        let before = observed.isEmpty ? nil : observationPoint()
        defer { if let before { notifyObservers(since: before) } }
        live.wokeUp(reason)
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

    @inlinable
    func observationPoint() -> ObservationPoint {
        live.activity = false
        let context = observed.context && contextsEqual != nil ? live.machine.context : nil
        return ObservationPoint(active: live.machine.active, context: context)
    }

    /// Tells the observers of what a step changed, once each.
    ///
    /// Observation's tracking is one-shot: an observer told of a change is removed, and observes
    /// again only by reading again (which marks the part observed again). So a part whose observers
    /// were told is no longer compared until it is read; its mark is cleared before they are told,
    /// so that one who reads again while being told stays marked.
    @inlinable
    func notifyObservers(since before: ObservationPoint) {
        // What changed among what was read, decided before anyone is told: an observer that reads
        // again while being told has read the new values.
        let active = live.machine.active
        let configurationChanged = active != before.active
        let tellConfiguration = observed.configuration && configurationChanged
        var toldStates = observed.states
        if observed.anyState && configurationChanged {
            toldStates.formIntersection(active.symmetricDifference(before.active))
        } else {
            toldStates.removeAll()
        }
        var tellContext = false
        if observed.context {
            if let contextsEqual, let previous = before.context {
                tellContext = !contextsEqual(previous, live.machine.context)
            } else {
                tellContext = live.activity
            }
        }
        if tellConfiguration { observed.configuration = false }
        if tellContext { observed.context = false }
        if !toldStates.isEmpty {
            observed.states.subtract(toldStates)
            observed.anyState = !observed.states.isEmpty
        }

        if tellConfiguration {
            registrar.willSet(self, keyPath: configurationPath)
            registrar.didSet(self, keyPath: configurationPath)
        }
        toldStates.forEachAscending { index in
            let path = activityPath(index)
            registrar.willSet(self, keyPath: path)
            registrar.didSet(self, keyPath: path)
        }
        if tellContext {
            registrar.willSet(self, keyPath: contextPath)
            registrar.didSet(self, keyPath: contextPath)
        }
    }
}

extension IsolatedStatechart where State: Codable, Event: Codable, Context: Codable {
    /// The machine's whole state now, to restore it later with
    /// ``StateMachine/init(chart:restoring:unhandledEvents:invocations:)`` and
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

/// A job of an ``IsolatedStatechart``: an invocation's work runs in a task, and its outcome is
/// delivered on the machine's actor.
///
/// The job moves into the task and the outcome back to the actor, never shared, so the two
/// cross isolation domains safely even when the chart's types are not `Sendable`.
final class IsolatedJob<State: Hashable, Event: StatechartEvent, Context>: InvocationJob, ChildEventReceiver,
    @unchecked Sendable
where Event.Kind: Hashable {
    let job: LiveJob<State, Event, Context>
    weak var owner: IsolatedStatechart<State, Event, Context>?
    let isolation: any Actor
    /// For a child machine's work: its link to the machine (set before the task starts).
    var link: ChildLink<Event>?

    init(job: LiveJob<State, Event, Context>, owner: IsolatedStatechart<State, Event, Context>) {
        self.job = job
        self.owner = owner
        isolation = owner.isolation
    }

    func run() async {
        switch job {
        case .invocation(let start):
            let outcome: InvocationOutcome<Event>
            if let link { outcome = await link.run { await start.run() } } else { outcome = await start.run() }
            await wake(.outcome(outcome, from: start.id), isolation: isolation)
        }
    }

    private func wake(_ reason: LiveWakeUp<Event>, isolation: isolated any Actor) {
        owner?.wake(reason, isolation: isolation)
    }

    /// Hands an event the child machine sent to `#_parent` to the machine, on its actor. Only a
    /// child's ``Invoke`` links a job, and it takes events of a `Sendable` type only.
    func receiveFromChild(_ event: sending Event, invocation: InvocationID) async {
        nonisolated(unsafe) let reason = LiveWakeUp<Event>.fromChild(event, invocation)
        await wake(reason, isolation: isolation)
    }

    /// Links the job's task, which runs a child machine, to the machine: before it starts.
    func linkToChild(wheel: TimerWheel, slot: ChildSlot, membership: SystemMembership?) {
        guard case .invocation(let start) = job else { return }
        link = ChildLink<Event>(
            wheel: wheel, slot: slot, parent: WeakChildReceiver(self), invocation: start.id, membership: membership)
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
                    secondPointer.withMemoryRebound(to: Known.self, capacity: 1) { right in
                        left.pointee == right.pointee
                    }
                }
            }
        }
    }
}

/// The handler of a chart's ``IsolatedStatechart``s (see ``LiveHooks``), called on the machine's
/// actor.
@usableFromInline
final class IsolatedHook<State: Hashable, Event: StatechartEvent, Context>: @unchecked Sendable
where Event.Kind: Hashable {
    @usableFromInline let wake: (IsolatedStatechart<State, Event, Context>, LiveWakeUp<Event>) -> Void

    @usableFromInline
    init(_ wake: @escaping (IsolatedStatechart<State, Event, Context>, LiveWakeUp<Event>) -> Void) {
        self.wake = wake
    }
}

extension IsolatedStatechart {
    /// The current snapshot, then one after every step, for states and contexts that need not be
    /// `Sendable`: the stream must be read on the machine's actor only. The StatechartsInspector
    /// library reads it there and turns each snapshot into text.
    package func isolatedSnapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<State, Context>>.Continuation.BufferingPolicy,
        isolation caller: isolated (any Actor)? = #isolation
    ) -> AsyncStream<MachineSnapshot<State, Context>> {
        check(caller)
        return live.snapshots(bufferingPolicy: bufferingPolicy)
    }
}
