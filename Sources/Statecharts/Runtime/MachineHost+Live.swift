/// The host of a live machine (``IsolatedStatechart``, ``StatechartActor``): on the clock of a
/// ``TimerWheel``, with its effects routed by a ``LiveRouter``.
@usableFromInline
typealias LiveHost<State: Hashable, Event: StatechartEvent, Context> = MachineHost<
    LiveRouter<State, Event, Context>, WheelClock
> where Event.Kind: Hashable

/// The router of a live host: a ``LiveRouter``, which holds the machine's attachments.
@usableFromInline
protocol LiveRouting: EffectRouter {
    /// A router for a machine on `wheel`, with its inspection hook.
    init(wheel: TimerWheel, inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?)
    /// What few live machines use: the inspection hook, tasks, streams, family and system.
    var attachments: LiveAttachments<State, Event, Context>? { get }
    /// The attachments, made on first use.
    mutating func mutableAttachments() -> LiveAttachments<State, Event, Context>
}

extension LiveRouter: LiveRouting {}

/// What a live host adds to settling: its owner's tasks, the inspection hook, snapshot streams
/// and the flags its owner reads for Observation.
///
/// Held inline by ``StatechartActor`` and ``IsolatedStatechart``, which guarantee that one call at
/// a time reaches it, on their executor, and which make themselves the clock's target and the
/// router's owner when they are made.
///
/// Everything on the per-event path is `@inlinable`, so that it is specialised for the app's own
/// types where the app calls it: no generic metadata is looked up per event.
extension MachineHost where Clock == WheelClock, Router: LiveRouting {
    @usableFromInline typealias Inspector = @Sendable (MachineInspection<Router.State, Router.Event>) -> Void

    /// A live host of `machine` on `timers`, which continues from the machine's own time.
    @inlinable
    init(live machine: Machine, timers: TimerWheel, inspect: Inspector?) {
        self.init(
            machine: machine, router: Router(wheel: timers, inspect: inspect),
            clock: WheelClock(wheel: timers, machineTime: machine.time))
        clock.connect(&self.machine)
    }

    /// The attachments, when the machine has any.
    @inlinable
    var attachments: LiveAttachments<Router.State, Router.Event, Router.Context>? { router.attachments }

    /// The attachments, made on first use.
    @inlinable
    mutating func mutableAttachments() -> LiveAttachments<Router.State, Router.Event, Router.Context> {
        router.mutableAttachments()
    }

    /// The inspection hook.
    @inlinable
    var inspect: Inspector? { router.attachments?.inspect }

    /// The wheel the machine's time follows.
    @inlinable
    var wheel: TimerWheel { clock.wheel }

    /// What the steps report to, when anything watches them: the inspection hook, or snapshot
    /// streams, whose snapshots carry the microsteps taken since the one before. `nil` for a
    /// machine nothing watches, whose steps then report to no observer at all.
    @inlinable
    var stepObserver: LiveObserver<Router.State, Router.Event, Router.Context>? {
        guard let attachments = router.attachments, attachments.watchesSteps else { return nil }
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

    /// Whether ``startLive()`` has connected the machine's timers and invocations.
    @inlinable
    var connected: Bool {
        get { machine.liveFlags & 2 != 0 }
        set { machine.liveFlags = newValue ? machine.liveFlags | 2 : machine.liveFlags & ~2 }
    }

    // MARK: - Steps

    /// Enters the initial configuration; for a machine given already running, connects its timers
    /// and invocations instead.
    @inlinable
    mutating func startLive() throws(Failure) {
        defer { finishStep() }
        let given = machine.status != .notStarted && !connected
        connected = true
        try catchUpToClock()
        if given { return }
        activity = true
        if var observer = stepObserver {
            try machine.start(observer: &observer)
        } else {
            try machine.start()
        }
    }

    /// Processes `event` to completion. The owner then settles the step (``liveNeedsSettling``,
    /// ``settleLive()``), also when this throws: kept apart, so that a step with nothing to
    /// settle costs nothing more.
    @inlinable
    mutating func sendLive(_ event: Router.Event) throws(Failure) -> Bool {
        let handled: Bool
        if var observer = stepObserver {
            handled = try sendWithoutSettling(event, observer: &observer)
        } else {
            handled = try sendWithoutSettling(event)
        }
        if handled { activity = true }
        return handled
    }

    /// The owner was called back: processes what it was called back for.
    @inlinable
    mutating func wokeUp(_ reason: LiveWakeUp<Router.Event>) {
        switch reason {
        case .timer: timerFired()
        case .outcome(let outcome, let id): deliverLive(outcome, from: id)
        case .undelivered(let outgoing, let reason): reportUndeliveredLive(outgoing, reason: reason)
        case .received(let event): receive(event)
        case .fromChild(let event, let id):
            // A child's event counts while its invocation runs: once the invoking state was exited,
            // what the child sent before is dropped, as its outcome would be.
            if machine.isRunning(id) {
                receive(event)
            } else {
                finishStep()
            }
        }
    }

    /// Another member of the machine's system sent it `event`: processes it as an event sent from
    /// outside. What the step throws goes to the inspection hook: it is the machine's own business,
    /// not the sender's.
    @inlinable
    mutating func receive(_ event: Router.Event) {
        do {
            _ = try sendLive(event)
        } catch {
            inspect?(.failed(error))
        }
        finishStep()
    }

    /// The wheel says the machine's timer is due: processes every timer due by now.
    @inlinable
    mutating func timerFired() {
        clock.fired()
        do { try catchUpToClock() } catch { inspect?(.failed(error)) }
        finishStep()
    }

    /// An invocation's task ended: processes its outcome.
    @inlinable
    mutating func deliverLive(_ outcome: InvocationOutcome<Router.Event>, from id: InvocationID) {
        router.attachments?.tasks[id] = nil
        router.attachments?.children?.remove(invocation: id)
        do {
            activity = true
            if var observer = stepObserver {
                try clock.beginStep(&machine, observer: &observer)
                try machine.deliver(outcome, from: id, observer: &observer)
            } else {
                var observer = NoObserver<Router.State, Router.Event>()
                try clock.beginStep(&machine, observer: &observer)
                try machine.deliver(outcome, from: id)
            }
        } catch {
            inspect?(.failed(error))
        }
        finishStep()
    }

    /// An event I/O processor reports that an event sent through it could not be delivered:
    /// processes `error.communication`.
    @inlinable
    mutating func reportUndeliveredLive(_ outgoing: OutgoingEvent<Router.Event>, reason: String) {
        guard machine.status == .running else { return }
        do {
            activity = true
            if var observer = stepObserver {
                try clock.beginStep(&machine, observer: &observer)
                try machine.reportUndelivered(outgoing, reason: reason, observer: &observer)
            } else {
                var observer = NoObserver<Router.State, Router.Event>()
                try clock.beginStep(&machine, observer: &observer)
                try machine.reportUndelivered(outgoing, reason: reason)
            }
        } catch {
            inspect?(.failed(error))
        }
        finishStep()
    }

    /// Cancels the delayed events sent with identifier `id`.
    @inlinable
    mutating func cancelDelayedEventsLive(id: String) -> Int {
        defer { finishStep() }
        return machine.cancelDelayedEvents(id: id)
    }

    /// The machine with its time moved to the clock's now (firing the timers due by then), as a
    /// value that no longer follows the clock: what an archive of a live machine records.
    @inlinable
    mutating func currentMachine() -> Machine {
        if machine.status == .running {
            do { try catchUpToClock() } catch { inspect?(.failed(error)) }
            finishStep()
        } else if machine.timeIsStale {
            machine.synchroniseTime()
        }
        var copy = machine
        copy.liveClock = nil
        copy.liveFlags = 0
        copy.timeIsStale = false
        return copy
    }

    /// Brings the machine's time to the clock's, firing the timers due by then, reported to the
    /// step observer when there is one.
    @inlinable
    mutating func catchUpToClock() throws(Failure) {
        if var observer = stepObserver {
            try clock.catchUp(&machine, observer: &observer)
        } else {
            var observer = NoObserver<Router.State, Router.Event>()
            try clock.catchUp(&machine, observer: &observer)
        }
    }

    // MARK: - Reading

    /// The configuration, context and status now, at the clock's time.
    @inlinable
    var snapshot: MachineSnapshot<Router.State, Router.Context> {
        MachineSnapshot(
            configuration: machine.configuration, activeStates: machine.activeStates, context: machine.context,
            status: machine.status, now: max(machine.now, clock.elapsed), timers: machine.pendingTimers)
    }

    /// The current snapshot, then one after every step.
    @inlinable
    mutating func snapshots(
        bufferingPolicy: AsyncStream<MachineSnapshot<Router.State, Router.Context>>.Continuation.BufferingPolicy
    ) -> AsyncStream<MachineSnapshot<Router.State, Router.Context>> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MachineSnapshot<Router.State, Router.Context>.self, bufferingPolicy: bufferingPolicy)
        // The owners offer streams only of `Sendable` states and contexts.
        nonisolated(unsafe) let current = snapshot
        continuation.yield(current)
        mutableAttachments().streams.append(continuation)
        return stream
    }

    /// Cancels the timer, the invocations' tasks and the streams: the owner is being released.
    @usableFromInline
    mutating func stopLive() {
        clock.cancel()
        guard let attachments = router.attachments else { return }
        attachments.membership?.leave()
        attachments.delayedPosts?.cancelAll()
        for task in attachments.tasks.values { task.cancel() }
        for stream in attachments.streams { stream.finish() }
    }

    // MARK: - Around a step

    /// After a step: settles when there is anything of the kind to do.
    @inlinable @inline(__always)
    mutating func finishStep() {
        guard liveNeedsSettling else { return }
        settleLive()
    }

    /// Whether a step may have left anything for ``settleLive()``: a machine without extras (no
    /// timer, queue or invocation), with no wheel entry and no stream, has nothing.
    @inlinable
    var liveNeedsSettling: Bool { needsSettling || router.attachments?.settlesEveryStep == true }

    /// ``liveNeedsSettling``, asked in place: an owner that is an actor reads its stored
    /// properties through accessors, which would copy the whole host for a plain read.
    @inlinable
    mutating func mustSettle() -> Bool { liveNeedsSettling }

    /// Settles the step (``MachineHost/settle(observer:)``): starts and cancels invocation tasks,
    /// reports logs to the inspection hook, hands each event sent out to the machine's parent,
    /// children or system, and moves the wheel entry to the earliest pending deadline; then
    /// publishes a snapshot, when snapshots are read.
    ///
    /// An event nobody takes is answered with `error.communication` at once, before the owner
    /// takes anything else (SCXML puts it on the internal queue): ahead of the outcome of an
    /// invocation the same step started, and of any event that arrives later. A chart that
    /// answers `error.communication` with another send nobody takes is stopped after as many
    /// rounds as its microstep limit, with ``MachineError/microstepLimitExceeded(limit:configuration:)``
    /// reported to the inspection hook.
    ///
    /// Inlinable, so that the router is specialised for the chart's types: generic, it looked up
    /// metadata for every effect (the rally of `Profile system/rally` took 28,692 instructions per
    /// delivered event instead of 18,764).
    @inlinable
    mutating func settleLive() {
        // Answering what nobody took may change the context.
        if machine.extras?.hasEffects == true { activity = true }
        do throws(Failure) {
            if var observer = stepObserver {
                try settle(observer: &observer)
            } else {
                var observer = NoObserver<Router.State, Router.Event>()
                try settle(observer: &observer)
            }
        } catch {
            inspect?(.failed(error))
        }
        if let attachments = router.attachments, attachments.settlesEveryStep {
            if !attachments.streams.isEmpty { publish() }
            if let parent = attachments.parent, machine.status == .finished { parent.finish() }
        }
    }

    @usableFromInline
    mutating func publish() {
        var next = snapshot
        if let attachments = router.attachments {
            next.microsteps = attachments.taken
            attachments.taken.removeAll()
        }
        // The owners offer streams only of `Sendable` states and contexts.
        nonisolated(unsafe) let current = next
        router.attachments?.streams.removeAll { stream in
            if case .terminated = stream.yield(current) { return true }
            return false
        }
    }
}
