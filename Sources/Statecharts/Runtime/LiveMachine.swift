/// The effects around a ``StateMachine`` that a live machine needs: its clock, its one entry in a
/// ``TimerWheel``, the tasks of its invocations and the streams of its snapshots.
///
/// Held inline by ``StatechartActor`` and ``IsolatedStatechart``, which guarantee that one call at
/// a time reaches it, on their executor. The semantics stay in ``StateMachine``; this only maps
/// its virtual time onto a clock and its invocation requests onto tasks.
///
/// Everything on the per-event path is `@inlinable`, so that it is specialised for the app's own
/// types where the app calls it: no generic metadata is looked up per event. An event that arms
/// no timer reads no clock: the machine's time is marked stale, and the machine reads the clock
/// itself the first time the step needs the time (see ``StateMachine/currentTime()``).
@usableFromInline
struct LiveMachine<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline typealias Failure = MachineError<State, Event>
    @usableFromInline typealias Inspector = @Sendable (MachineInspection<State, Event>) -> Void

    @usableFromInline var machine: StateMachine<State, Event, Context>
    /// The clock the machine's time follows, held here: the machine's own reference to it
    /// (``StateMachine/liveClock``) is not counted.
    @usableFromInline let clock: LiveClock
    /// The machine's entry in its wheel.
    @usableFromInline var timer = LiveTimer()
    /// What few live machines use: the inspection hook, invocation tasks and snapshot streams.
    @usableFromInline var attachments: LiveAttachments<State, Event, Context>?

    @usableFromInline
    init(machine: StateMachine<State, Event, Context>, timers: TimerWheel, inspect: Inspector?) {
        // A machine that has run already (restored from an archive) continues from its own time.
        self.machine = machine
        clock = LiveClock(wheel: timers, origin: timers.now.clampedNanoseconds &- machine.time)
        self.machine.liveClock = clock
        self.machine.timeIsStale = false
        self.machine.liveFlags = 0
        if let inspect { attachments = LiveAttachments(inspect: inspect) }
    }

    /// The inspection hook.
    @inlinable
    var inspect: Inspector? { attachments?.inspect }

    /// What the steps report to, when anything watches them: the inspection hook, or snapshot
    /// streams, whose snapshots carry the microsteps taken since the one before. `nil` for a
    /// machine nothing watches, whose steps then report to no observer at all.
    @inlinable
    var stepObserver: LiveObserver<State, Event, Context>? {
        guard let attachments, attachments.watchesSteps else { return nil }
        return LiveObserver(attachments: attachments)
    }

    /// Set by every step that may have changed the context (it handled an event, fired a timer or
    /// took an invocation's outcome); ``IsolatedStatechart`` clears and reads it to tell observers
    /// of a context that is not `Equatable`. Kept in the machine's ``StateMachine/liveFlags``.
    @inlinable
    var activity: Bool {
        get { machine.liveFlags & 1 != 0 }
        set { machine.liveFlags = newValue ? machine.liveFlags | 1 : machine.liveFlags & ~1 }
    }

    /// Whether ``start(owner:spawn:)`` has connected the machine's timers and invocations.
    @inlinable
    var connected: Bool {
        get { machine.liveFlags & 2 != 0 }
        set { machine.liveFlags = newValue ? machine.liveFlags | 2 : machine.liveFlags & ~2 }
    }

    /// The attachments, made on first use.
    @inlinable
    mutating func mutableAttachments() -> LiveAttachments<State, Event, Context> {
        if let attachments { return attachments }
        let created = LiveAttachments<State, Event, Context>(inspect: nil)
        attachments = created
        return created
    }

    /// The wheel the machine's time follows.
    @inlinable
    var wheel: TimerWheel { clock.wheel }

    // MARK: - Steps

    /// Enters the initial configuration; for a machine given already running, connects its timers
    /// and invocations instead.
    @inlinable
    mutating func start(
        owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) throws(Failure) {
        defer { finishStep(owner: owner, spawn: spawn) }
        let given = machine.status != .notStarted && !connected
        connected = true
        try catchUp()
        if given { return }
        activity = true
        if var observer = stepObserver {
            try machine.start(observer: &observer)
        } else {
            try machine.start()
        }
    }

    /// Processes `event` to completion. The owner then settles the step (``needsSettling``,
    /// ``settle(owner:spawn:)``), also when this throws: kept apart, so that a step with nothing to
    /// settle passes the owner nowhere.
    @inlinable
    mutating func send(_ event: Event) throws(Failure) -> Bool {
        try beginStep()
        let handled: Bool
        if var observer = stepObserver {
            handled = try machine.send(event, observer: &observer)
        } else {
            handled = try machine.send(event)
        }
        if handled { activity = true }
        return handled
    }

    /// The owner was called back: processes what it was called back for.
    @inlinable
    mutating func wokeUp(
        _ reason: LiveWakeUp<Event>, owner: some TimerWheelTarget,
        spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        switch reason {
        case .timer: timerFired(owner: owner, spawn: spawn)
        case .outcome(let outcome, let id): deliver(outcome, from: id, owner: owner, spawn: spawn)
        case .undelivered(let outgoing, let reason):
            reportUndelivered(outgoing, reason: reason, owner: owner, spawn: spawn)
        case .received(let event): receive(event, owner: owner, spawn: spawn)
        case .fromChild(let event, let id):
            // A child's event counts while its invocation runs: once the invoking state was exited,
            // what the child sent before is dropped, as its outcome would be.
            if machine.isRunning(id) {
                receive(event, owner: owner, spawn: spawn)
            } else {
                finishStep(owner: owner, spawn: spawn)
            }
        }
    }

    /// Another member of the machine's system sent it `event`: processes it as an event sent from
    /// outside. What the step throws goes to the inspection hook: it is the machine's own business,
    /// not the sender's.
    @inlinable
    mutating func receive(
        _ event: Event, owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        do {
            _ = try send(event)
        } catch {
            inspect?(.failed(error))
        }
        finishStep(owner: owner, spawn: spawn)
    }

    /// The wheel says the machine's timer is due: processes every timer due by now.
    @inlinable
    mutating func timerFired(
        owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        timer.fired()
        do { try catchUp() } catch { inspect?(.failed(error)) }
        finishStep(owner: owner, spawn: spawn)
    }

    /// An invocation's task ended: processes its outcome.
    @inlinable
    mutating func deliver(
        _ outcome: InvocationOutcome<Event>, from id: InvocationID, owner: some TimerWheelTarget,
        spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        attachments?.tasks[id] = nil
        attachments?.children?.remove(invocation: id)
        do {
            try beginStep()
            activity = true
            if var observer = stepObserver {
                try machine.deliver(outcome, from: id, observer: &observer)
            } else {
                try machine.deliver(outcome, from: id)
            }
        } catch {
            inspect?(.failed(error))
        }
        finishStep(owner: owner, spawn: spawn)
    }

    /// Cancels the delayed events sent with identifier `id`.
    @inlinable
    mutating func cancelDelayedEvents(
        id: String, owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) -> Int {
        defer { finishStep(owner: owner, spawn: spawn) }
        return machine.cancelDelayedEvents(id: id)
    }

    /// The machine with its time moved to the clock's now (firing the timers due by then), as a
    /// value that no longer follows the clock: what an archive of a live machine records.
    @inlinable
    mutating func currentMachine(
        owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) -> StateMachine<State, Event, Context> {
        if machine.status == .running {
            do { try catchUp() } catch { inspect?(.failed(error)) }
            finishStep(owner: owner, spawn: spawn)
        } else if machine.timeIsStale {
            machine.synchroniseTime()
        }
        var copy = machine
        copy.liveClock = nil
        copy.liveFlags = 0
        copy.timeIsStale = false
        return copy
    }

    /// The configuration, context and status now, at the clock's time.
    @inlinable
    var snapshot: MachineSnapshot<State, Context> {
        MachineSnapshot(
            configuration: machine.configuration, activeStates: machine.activeStates, context: machine.context,
            status: machine.status, now: max(machine.now, elapsed), timers: machine.pendingTimers)
    }

    /// The current snapshot, then one after every step.
    @inlinable
    mutating func snapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<State, Context>>.Continuation.BufferingPolicy
    ) -> AsyncStream<MachineSnapshot<State, Context>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MachineSnapshot<State, Context>.self, bufferingPolicy: bufferingPolicy)
        // The owners offer streams only of `Sendable` states and contexts.
        nonisolated(unsafe) let current = snapshot
        continuation.yield(current)
        mutableAttachments().streams.append(continuation)
        return stream
    }

    /// Cancels the timer, the invocations' tasks and the streams: the owner is being released.
    @usableFromInline
    mutating func stop() {
        timer.cancel(in: wheel)
        guard let attachments else { return }
        attachments.membership?.leave()
        attachments.delayedPosts?.cancelAll()
        for task in attachments.tasks.values { task.cancel() }
        for stream in attachments.streams { stream.finish() }
    }

    // MARK: - Around a step

    /// Before a step: fires the timers due by now when some are pending (reading the clock);
    /// otherwise marks the machine's time stale, so that only a step that needs it reads the clock.
    @inlinable @inline(__always)
    mutating func beginStep() throws(Failure) {
        if machine.extras?.timers.isEmpty == false {
            try catchUp()
        } else {
            machine.timeIsStale = true
        }
    }

    /// The machine's time on the clock now.
    @inlinable
    var elapsed: Duration { .nanoseconds(clock.elapsed) }

    /// Brings the machine's time to the clock's, firing the timers due by then. Before the machine
    /// starts, this only sets its time.
    @inlinable
    mutating func catchUp() throws(Failure) {
        let now = elapsed
        if let due = machine.extras?.timers.first?.deadline, due <= now.clampedNanoseconds { activity = true }
        if var observer = stepObserver {
            try machine.advance(to: now, observer: &observer)
        } else {
            try machine.advance(to: now)
        }
    }

    /// After a step: starts and cancels invocation tasks, moves the wheel entry to the earliest
    /// pending deadline and publishes a snapshot, when there is anything of the kind to do.
    @inlinable @inline(__always)
    mutating func finishStep(
        owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        guard needsSettling else { return }
        settle(owner: owner, spawn: spawn)
    }

    /// Whether a step may have left anything for ``settle(owner:spawn:)``: a machine without extras
    /// (no timer, queue or invocation), with no wheel entry and no stream, has nothing.
    @inlinable
    var needsSettling: Bool { machine.extras != nil || timer.isArmed || attachments?.settlesEveryStep == true }

    /// ``needsSettling``, asked in place: an owner that is an actor reads its stored properties
    /// through accessors, which would copy the whole core for a plain read.
    @inlinable
    mutating func mustSettle() -> Bool { needsSettling }

    @inlinable
    mutating func settle(
        owner: some TimerWheelTarget, spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        if machine.extras?.hasEffects == true { perform(spawn: spawn) }
        let deadline = machine.status == .running ? machine.extras?.timers.first?.deadline ?? .max : .max
        if deadline != timer.deadline {
            timer.rearm(at: deadline, origin: clock.origin, in: wheel, for: owner)
        }
        if let attachments, attachments.settlesEveryStep {
            if !attachments.streams.isEmpty { publish() }
            if let parent = attachments.parent, machine.status == .finished { parent.finish() }
        }
    }

    /// Does what a step asked for, through the machine's ``LiveRouter``: starts and cancels
    /// invocation tasks, reports logs to the inspection hook, and hands each event sent out to the
    /// machine's parent, children or system. An event nobody takes is answered with
    /// `error.communication` at once, before the owner takes anything else (SCXML puts it on the
    /// internal queue): ahead of the outcome of an invocation the same step started, and of any
    /// event that arrives later. Then what that step asked for is routed, and so on
    /// (``StateMachine/settleEffects(through:observer:)``, as ``MachineHost`` settles); a chart
    /// that answers `error.communication` with another send nobody takes is stopped after as many
    /// rounds as its microstep limit, with ``MachineError/microstepLimitExceeded(limit:configuration:)``
    /// reported to the inspection hook.
    ///
    /// Inlinable, so that the router is specialised for the chart's types: generic, it looked up
    /// metadata for every effect (the rally of `Profile system/rally` took 28,692 instructions per
    /// delivered event instead of 18,764).
    @inlinable
    mutating func perform(spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>) {
        let attachments = mutableAttachments()
        // Answering what nobody took may change the context.
        activity = true
        withoutActuallyEscaping(spawn) { spawn in
            var router = LiveRouter(attachments: attachments, wheel: wheel, spawn: spawn)
            do throws(Failure) {
                if var observer = stepObserver {
                    try machine.settleEffects(through: &router, observer: &observer)
                } else {
                    var observer = NoObserver<State, Event>()
                    try machine.settleEffects(through: &router, observer: &observer)
                }
            } catch {
                inspect?(.failed(error))
            }
        }
    }

    /// An event I/O processor reports that an event sent through it could not be delivered:
    /// processes `error.communication`.
    @inlinable
    mutating func reportUndelivered(
        _ outgoing: OutgoingEvent<Event>, reason: String, owner: some TimerWheelTarget,
        spawn: (LiveJob<State, Event, Context>) -> Task<Void, Never>
    ) {
        guard machine.status == .running else { return }
        do {
            try beginStep()
            activity = true
            if var observer = stepObserver {
                try machine.reportUndelivered(outgoing, reason: reason, observer: &observer)
            } else {
                try machine.reportUndelivered(outgoing, reason: reason)
            }
        } catch {
            inspect?(.failed(error))
        }
        finishStep(owner: owner, spawn: spawn)
    }

    @usableFromInline
    mutating func publish() {
        var next = snapshot
        if let attachments {
            next.microsteps = attachments.taken
            attachments.taken.removeAll()
        }
        // The owners offer streams only of `Sendable` states and contexts.
        nonisolated(unsafe) let current = next
        attachments?.streams.removeAll { stream in
            if case .terminated = stream.yield(current) { return true }
            return false
        }
    }
}

/// A live machine's one entry in its wheel, at the machine's earliest pending deadline.
///
/// Not generic, so that arming and cancelling need no specialisation.
@usableFromInline
struct LiveTimer {
    /// The machine time, in nanoseconds, the wheel entry is armed for; `Int64.max` when none is.
    @usableFromInline var deadline: Int64 = .max
    @usableFromInline var handle = TimerHandle(index: -1, generation: 0)

    @inlinable
    init() {}

    @inlinable
    var isArmed: Bool { deadline != .max }

    /// Moves the entry to `newDeadline` (`Int64.max`: removes it), a machine time whose zero is
    /// `origin` on `wheel`.
    @usableFromInline
    mutating func rearm(at newDeadline: Int64, origin: Int64, in wheel: TimerWheel, for target: any TimerWheelTarget) {
        if isArmed { wheel.cancel(handle) }
        deadline = newDeadline
        guard isArmed else { return }
        handle = wheel.arm(at: .nanoseconds(origin.addingClamped(newDeadline)), for: target)
    }

    /// The wheel removed the entry when it fired it.
    @inlinable
    mutating func fired() { deadline = .max }

    @usableFromInline
    mutating func cancel(in wheel: TimerWheel) {
        if isArmed { wheel.cancel(handle) }
        deadline = .max
    }
}

/// What few live machines use, kept apart so that the others stay small: the inspection hook, the
/// tasks of running invocations and the continuations of snapshot streams.
@usableFromInline
final class LiveAttachments<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?
    @usableFromInline var tasks: [InvocationID: Task<Void, Never>] = [:]
    @usableFromInline var streams: [AsyncStream<MachineSnapshot<State, Context>>.Continuation] = []
    /// The microsteps taken since the last snapshot was published, while streams are read.
    @usableFromInline var taken: [Microstep<State>] = []
    /// The system the machine has joined, and its id there (``StatechartSystem``).
    @usableFromInline var membership: SystemMembership?
    /// For a child machine: where its sends to `#_parent` and its finishing go.
    @usableFromInline var parent: ParentChannel?
    /// The child machines it invoked that are running, by name.
    @usableFromInline var children: InvokedChildren?
    /// Its delayed sends to its parent and children, waiting on its clock.
    @usableFromInline var delayedPosts: DelayedPosts?
    /// Whether every step must be settled: snapshots are read, or a parent waits for the machine
    /// to finish.
    @inlinable
    var settlesEveryStep: Bool { !streams.isEmpty || parent != nil }
    /// Whether the steps report to an observer: the inspection hook is set, or snapshots are read
    /// (which carry the microsteps each step took).
    @inlinable
    var watchesSteps: Bool { inspect != nil || !streams.isEmpty }

    /// The registry of invoked children, made on first use.
    @usableFromInline
    func invokedChildren() -> InvokedChildren {
        if let children { return children }
        let created = InvokedChildren()
        children = created
        return created
    }

    /// The delayed sends to parent and children, made on first use.
    @usableFromInline
    func mutableDelayedPosts() -> DelayedPosts {
        if let delayedPosts { return delayedPosts }
        let created = DelayedPosts()
        delayedPosts = created
        return created
    }

    @usableFromInline
    init(inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?) { self.inspect = inspect }
}

/// The observer a live machine steps with when something watches it: forwards what it sees to
/// the inspection hook, and keeps the microsteps taken for the next snapshot while snapshots are
/// read.
@usableFromInline
struct LiveObserver<State: Hashable, Event: StatechartEvent, Context>: MachineObserver where Event.Kind: Hashable {
    @usableFromInline let attachments: LiveAttachments<State, Event, Context>

    @inlinable
    init(attachments: LiveAttachments<State, Event, Context>) { self.attachments = attachments }

    @inlinable
    mutating func machineWillProcess(_ event: ProcessedEvent<Event>) { attachments.inspect?(.willProcess(event)) }

    @inlinable
    mutating func machineDidTake(_ microstep: Microstep<State>) {
        attachments.inspect?(.didTake(microstep))
        if !attachments.streams.isEmpty { attachments.taken.append(microstep) }
    }

    @inlinable
    mutating func machineDidNotHandle(_ event: ProcessedEvent<Event>) { attachments.inspect?(.unhandled(event)) }

    @inlinable
    mutating func machineActionDidFail(_ failure: ActionFailure<State>) {
        attachments.inspect?(.actionFailed(failure))
    }
}

/// Why a live machine's owner was called back: its timer fell due, or an invocation ended.
@usableFromInline
enum LiveWakeUp<Event: StatechartEvent> {
    /// An event from another member of the machine's system.
    case received(Event)
    /// An event a child machine sent to `#_parent`, while the invocation that runs it is running.
    case fromChild(Event, InvocationID)
    case timer
    case outcome(InvocationOutcome<Event>, from: InvocationID)
    case undelivered(OutgoingEvent<Event>, reason: String)
}

/// Work a live machine hands to a task of its own: an invocation's work.
@usableFromInline
enum LiveJob<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    case invocation(InvocationStart<State, Event, Context>)
}

extension LiveJob: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
