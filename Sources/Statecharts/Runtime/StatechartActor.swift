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
/// Its states, events and context cross into the actor, so they must be `Sendable` with
/// nonisolated conformances. In a module whose default isolation is the main actor (Xcode 26's
/// default for apps), declare them `nonisolated` (`nonisolated enum PlayerState: Hashable,
/// Sendable { … }`), or keep the machine on the main actor with ``IsolatedStatechart``, which
/// takes them as written.
public final actor StatechartActor<
    State: Hashable & Sendable, Event: StatechartEvent & Sendable, Context: Sendable
>: TimerWheelTarget, ChildEventReceiver, LiveOwner where Event.Kind: Hashable & Sendable {
    // `final`, though no actor can be subclassed: without it, an app's call of `send` or `start`
    // whose actor was made by an initialiser that is not inlined goes through the class's table
    // to the generic method, never specialised (the actor's toggle took 5,110 instructions per
    // event instead of 487).
    //
    // Only touched on the actor, one call at a time, and by `deinit` when nothing else can: the
    // dynamic exclusivity checks of class properties are not needed.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var live: LiveHost<State, Event, Context>

    /// A machine of `chart`, not started yet.
    ///
    /// - Parameters:
    ///   - chart: The chart.
    ///   - context: The initial context.
    ///   - unhandledEvents: Whether ``send(_:)`` ignores or rejects events no transition handles.
    ///   - timers: The wheel whose clock the machine runs on: ``TimerWheel/continuous`` by default.
    ///   - inspect: Called synchronously, on the actor, for every event, microstep, failed action
    ///     and invocation: for logging and tests. Keep it short.
    @inlinable
    public init(
        _ chart: Statechart<State, Event, Context>, context: Context,
        unhandledEvents: UnhandledEventPolicy = .ignore, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil
    ) {
        live = LiveHost(
            live: StateMachine(chart: chart, context: context, unhandledEvents: unhandledEvents), timers: timers,
            inspect: inspect)
        connectHost()
        Self.installHook(in: chart.storage)
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
    @inlinable
    public init(
        machine: StateMachine<State, Event, Context>, timers: TimerWheel = .continuous,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)? = nil
    ) {
        live = LiveHost(live: machine, timers: timers, inspect: inspect)
        connectHost()
        Self.installHook(in: machine.chart)
    }

    /// Makes this actor what its host's wheel entry calls back and what starts its invocations'
    /// tasks. Not counted references: the actor holds the host, and cancels both before it goes.
    @usableFromInline
    nonisolated func connectHost() {
        live.clock.target = Unmanaged.passUnretained(self as AnyObject)
        live.router.owner = self
    }

    /// Installs, once per chart, the handler of timers and invocations made here, where this is
    /// inlined: specialised for the chart's types (see ``LiveHooks``).
    @inlinable
    static func installHook(in chart: ChartStorage<State, Event, Context>) {
        // The step is written out here rather than called through `handle(_:)`: the compiler does
        // not specialise a call to an actor's generic method from this closure, and the timer's or
        // delivery's step then looked up generic metadata at every turn (about 50,000 instructions
        // per event delivered between two actors).
        chart.liveHooks.installActorHook {
            ActorHook<State, Event, Context> { actor, reason in
                actor.live.wokeUp(reason)
            }
        }
    }

    deinit {
        live.stopLive()
    }

    /// Enters the initial configuration and processes what follows, to completion; for a machine
    /// given already running (``init(machine:timers:inspect:)``), arms its pending timers on the
    /// clock and starts the invocations of its active states instead.
    ///
    /// - Throws: ``MachineError/alreadyStarted`` the second time.
    @inlinable
    public func start() throws(MachineError<State, Event>) {
        try live.startLive()
    }

    /// Processes `event` to completion (see ``StateMachine/send(_:)``).
    ///
    /// - Returns: Whether a transition handled it.
    @discardableResult
    @inlinable
    public func send(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        let handled: Bool
        do {
            handled = try live.sendLive(event)
        } catch {
            if live.mustSettle() { settle() }
            throw error
        }
        if live.mustSettle() { settle() }
        return handled
    }

    /// Arms the timer, starts and cancels invocations and publishes a snapshot after a step.
    @inlinable @inline(never)
    func settle() {
        live.settleLive()
    }

    /// Cancels the delayed events sent with identifier `id`.
    ///
    /// - Returns: How many were cancelled.
    @discardableResult
    @inlinable
    public func cancelDelayedEvents(id: String) -> Int {
        live.cancelDelayedEventsLive(id: id)
    }

    /// The configuration, context and status now.
    public var snapshot: MachineSnapshot<State, Context> { live.snapshot }

    /// The machine itself, as it is now (its time brought to the clock's, firing the timers due
    /// by then): a copy, to inspect.
    public var machine: StateMachine<State, Event, Context> {
        live.currentMachine()
    }

    /// The current snapshot, then one after every step, until the actor is released.
    ///
    /// - Parameter bufferingPolicy: What to keep while the reader is behind: every snapshot (the
    ///   default), or only the newest ones, as a view that shows the latest state wants.
    public func snapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<State, Context>>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<MachineSnapshot<State, Context>> {
        live.snapshots(bufferingPolicy: bufferingPolicy)
    }

    /// The wheel says the machine's timer is due.
    @usableFromInline
    package func timerFired() async {
        wake(.timer)
    }

    /// Calls the chart's specialised handler.
    private func wake(_ reason: LiveWakeUp<Event>) {
        if let hook = live.machine.chart.liveHooks.actorHook(as: ActorHook<State, Event, Context>.self) {
            hook.wake(self, reason)
        } else {
            handle(reason)
        }
    }

    /// Processes a timer, an invocation's outcome or an undelivered send.
    @inlinable @inline(never)
    func handle(_ reason: LiveWakeUp<Event>) {
        live.wokeUp(reason)
    }

    /// Runs an invocation's work in a task, and brings its outcome back to the actor.
    ///
    /// Called only on the actor, from a step (through the router's `owner`), which is why it
    /// may be `nonisolated`: it touches nothing but the host, which only the actor's calls reach.
    @usableFromInline
    nonisolated func startTask(_ job: LiveJob<State, Event, Context>) -> Task<Void, Never> {
        if case .invocation(let start) = job, start.startsChildMachine {
            // A child machine's task is linked to this machine: its clock, its children's
            // registry, and the way back here for what the child sends to `#_parent`.
            let id = start.id
            let slot = live.mutableAttachments().invokedChildren().open(
                start.name ?? "", invocation: id, events: Event.self)
            let link = ChildLink<Event>(
                wheel: live.wheel, slot: slot, parent: WeakChildReceiver(self), invocation: id,
                membership: live.attachments?.membership)
            return Task { [weak self] in
                let outcome = await link.run { await start.run() }
                await self?.wakeUp(.outcome(outcome, from: id))
            }
        }
        switch job {
        case .invocation(let start):
            return Task { [weak self] in
                let outcome = await start.run()
                await self?.wakeUp(.outcome(outcome, from: start.id))
            }
        }
    }

    private func wakeUp(_ reason: LiveWakeUp<Event>) {
        wake(reason)
    }

    /// An event from another member of the machine's system, processed through the chart's
    /// specialised handler.
    func receiveFromSystem(_ event: Event) {
        wake(.received(event))
    }

    /// A send of the machine's own that an event I/O processor could not deliver: processes
    /// `error.communication` through the chart's specialised handler.
    func undeliveredThroughProcessor(_ outgoing: OutgoingEvent<Event>, reason: String) {
        wake(.undelivered(outgoing, reason: reason))
    }

    /// An event the child machine run by `invocation` sent to `#_parent`.
    func receiveFromChild(_ event: sending Event, invocation: InvocationID) {
        wake(.fromChild(event, invocation))
    }

    /// Connects the machine, a child invoked by another, to its parent: before it starts.
    func connect(to parent: ParentChannel) {
        live.mutableAttachments().parent = parent
    }
}

extension StatechartActor where State: Codable, Event: Codable, Context: Codable {
    /// The machine's whole state now, to restore it later with
    /// ``StateMachine/init(chart:restoring:unhandledEvents:invocations:)`` and ``init(machine:timers:inspect:)``.
    ///
    /// The machine's time is first brought to the clock's now, firing the timers due by then, so
    /// that the archive's deadlines are measured from the moment it was taken.
    ///
    /// - Throws: ``MachineArchiveError/stateDataNotCodable(state:type:)`` when an active state
    ///   holds data of a type that is not `Codable`.
    public func archive() throws(MachineArchiveError) -> MachineArchive<State, Event, Context> {
        try machine.archive()
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

/// The handler of a chart's ``StatechartActor``s (see ``LiveHooks``).
@usableFromInline
final class ActorHook<State: Hashable & Sendable, Event: StatechartEvent & Sendable, Context: Sendable>: Sendable
where Event.Kind: Hashable & Sendable {
    @usableFromInline let wake: @Sendable (isolated StatechartActor<State, Event, Context>, LiveWakeUp<Event>) -> Void

    @usableFromInline
    init(_ wake: @escaping @Sendable (isolated StatechartActor<State, Event, Context>, LiveWakeUp<Event>) -> Void) {
        self.wake = wake
    }
}
