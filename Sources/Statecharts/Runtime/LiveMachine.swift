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
    /// The clock the machine's time follows, and its entry in the wheel.
    @usableFromInline var timer: LiveTimer
    @usableFromInline let inspect: Inspector?
    /// Set by every step that may have changed the context (it handled an event, fired a timer or
    /// took an invocation's outcome); ``IsolatedStatechart`` clears and reads it to tell observers
    /// of a context that is not `Equatable`.
    @usableFromInline var activity = false
    /// Whether ``start()`` has connected the machine's timers and invocations.
    @usableFromInline var connected = false
    @usableFromInline var tasks: [InvocationID: Task<Void, Never>] = [:]
    @usableFromInline var streams: [AsyncStream<MachineSnapshot<State, Context>>.Continuation] = []

    @usableFromInline
    init(machine: StateMachine<State, Event, Context>, timers: TimerWheel, inspect: Inspector?) {
        // A machine that has run already (restored from an archive) continues from its own time.
        let clock = LiveClock(wheel: timers, origin: timers.now - machine.now)
        self.machine = machine
        self.machine.liveClock = clock
        self.machine.timeIsStale = false
        timer = LiveTimer(clock: clock)
        self.inspect = inspect
    }

    // MARK: - Steps

    /// Enters the initial configuration; for a machine given already running, connects its timers
    /// and invocations instead.
    @inlinable
    mutating func start(
        owner: some TimerWheelTarget, spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) throws(Failure) {
        defer { finishStep(owner: owner, spawn: spawn) }
        let given = machine.status != .notStarted && !connected
        connected = true
        try catchUp()
        if given { return }
        activity = true
        if let inspect {
            var observer = LiveObserver<State, Event>(inspect: inspect)
            try machine.start(observer: &observer)
        } else {
            try machine.start()
        }
    }

    /// Processes `event` to completion.
    @inlinable
    mutating func send(
        _ event: Event, owner: some TimerWheelTarget,
        spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) throws(Failure) -> Bool {
        do {
            try beginStep()
            let handled: Bool
            if let inspect {
                var observer = LiveObserver<State, Event>(inspect: inspect)
                handled = try machine.send(event, observer: &observer)
            } else {
                handled = try machine.send(event)
            }
            if handled { activity = true }
            finishStep(owner: owner, spawn: spawn)
            return handled
        } catch {
            finishStep(owner: owner, spawn: spawn)
            throw error
        }
    }

    /// The wheel says the machine's timer is due: processes every timer due by now.
    @inlinable
    mutating func timerFired(
        owner: some TimerWheelTarget, spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) {
        timer.fired()
        do { try catchUp() } catch { inspect?(.failed(error)) }
        finishStep(owner: owner, spawn: spawn)
    }

    /// An invocation's task ended: processes its outcome.
    @inlinable
    mutating func deliver(
        _ outcome: InvocationOutcome<Event>, from id: InvocationID, owner: some TimerWheelTarget,
        spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) {
        tasks[id] = nil
        do {
            try beginStep()
            activity = true
            if let inspect {
                var observer = LiveObserver<State, Event>(inspect: inspect)
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
        id: String, owner: some TimerWheelTarget, spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) -> Int {
        defer { finishStep(owner: owner, spawn: spawn) }
        return machine.cancelDelayedEvents(id: id)
    }

    /// The machine with its time moved to the clock's now (firing the timers due by then), as a
    /// value that no longer follows the clock: what an archive of a live machine records.
    @inlinable
    mutating func currentMachine(
        owner: some TimerWheelTarget, spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) -> StateMachine<State, Event, Context> {
        if machine.status == .running {
            do { try catchUp() } catch { inspect?(.failed(error)) }
            finishStep(owner: owner, spawn: spawn)
        } else if machine.timeIsStale {
            machine.synchroniseTime()
        }
        var copy = machine
        copy.liveClock = nil
        copy.timeIsStale = false
        return copy
    }

    /// The configuration, context and status now, at the clock's time.
    @inlinable
    var snapshot: MachineSnapshot<State, Context> {
        MachineSnapshot(
            configuration: machine.configuration, activeStates: machine.activeStates, context: machine.context,
            status: machine.status, now: max(machine.now, timer.clock.elapsed))
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
        streams.append(continuation)
        return stream
    }

    /// Cancels the timer, the invocations' tasks and the streams: the owner is being released.
    @usableFromInline
    mutating func stop() {
        timer.cancel()
        for task in tasks.values { task.cancel() }
        for stream in streams { stream.finish() }
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

    /// Brings the machine's time to the clock's, firing the timers due by then. Before the machine
    /// starts, this only sets its time.
    @inlinable
    mutating func catchUp() throws(Failure) {
        let now = timer.clock.elapsed
        if let due = machine.extras?.timers.first?.deadline, due <= now.clampedNanoseconds { activity = true }
        if let inspect {
            var observer = LiveObserver<State, Event>(inspect: inspect)
            try machine.advance(to: now, observer: &observer)
        } else {
            try machine.advance(to: now)
        }
    }

    /// After a step: starts and cancels invocation tasks, moves the wheel entry to the earliest
    /// pending deadline and publishes a snapshot, when there is anything of the kind to do.
    @inlinable @inline(__always)
    mutating func finishStep(
        owner: some TimerWheelTarget, spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) {
        guard machine.extras != nil || timer.isArmed || !streams.isEmpty else { return }
        settle(owner: owner, spawn: spawn)
    }

    @inlinable
    mutating func settle(
        owner: some TimerWheelTarget, spawn: (InvocationStart<State, Event, Context>) -> Task<Void, Never>
    ) {
        if machine.extras?.invocationOutbox.isEmpty == false {
            for request in machine.takeInvocationRequests() {
                switch request {
                case .start(let start):
                    inspect?(.invocationStarted(start.id, name: start.name, state: start.state))
                    tasks[start.id] = spawn(start)
                case .cancel(let id):
                    inspect?(.invocationCancelled(id))
                    tasks.removeValue(forKey: id)?.cancel()
                }
            }
        }
        let deadline = machine.status == .running ? machine.extras?.timers.first?.deadline ?? .max : .max
        if deadline != timer.deadline { timer.rearm(at: deadline, for: owner) }
        if !streams.isEmpty { publish() }
    }

    @usableFromInline
    mutating func publish() {
        // The owners offer streams only of `Sendable` states and contexts.
        nonisolated(unsafe) let current = snapshot
        streams.removeAll { stream in
            if case .terminated = stream.yield(current) { return true }
            return false
        }
    }
}

/// A live machine's clock and its one entry in the wheel, at its earliest pending deadline.
///
/// Not generic, so that arming and cancelling need no specialisation.
@usableFromInline
struct LiveTimer {
    @usableFromInline let clock: LiveClock
    /// The machine time, in nanoseconds, the wheel entry is armed for; `Int64.max` when none is.
    @usableFromInline var deadline: Int64 = .max
    @usableFromInline var handle = TimerHandle(index: -1, generation: 0)

    @usableFromInline
    init(clock: LiveClock) { self.clock = clock }

    @inlinable
    var isArmed: Bool { deadline != .max }

    /// Moves the entry to `newDeadline` (`Int64.max`: removes it).
    @usableFromInline
    mutating func rearm(at newDeadline: Int64, for target: any TimerWheelTarget) {
        if isArmed { clock.wheel.cancel(handle) }
        deadline = newDeadline
        guard isArmed else { return }
        handle = clock.wheel.arm(at: clock.origin + .nanoseconds(newDeadline), for: target)
    }

    /// The wheel removed the entry when it fired it.
    @inlinable
    mutating func fired() { deadline = .max }

    @usableFromInline
    mutating func cancel() {
        if isArmed { clock.wheel.cancel(handle) }
        deadline = .max
    }
}

/// The observer a live machine steps with when it is inspected: forwards what it sees to the
/// inspection closure.
@usableFromInline
struct LiveObserver<State: Hashable, Event: StatechartEvent>: MachineObserver where Event.Kind: Hashable {
    @usableFromInline let inspect: @Sendable (MachineInspection<State, Event>) -> Void

    @inlinable
    init(inspect: @escaping @Sendable (MachineInspection<State, Event>) -> Void) { self.inspect = inspect }

    @inlinable
    mutating func machineWillProcess(_ event: ProcessedEvent<Event>) { inspect(.willProcess(event)) }

    @inlinable
    mutating func machineDidTake(_ microstep: Microstep<State>) { inspect(.didTake(microstep)) }

    @inlinable
    mutating func machineActionDidFail(_ failure: ActionFailure<State>) { inspect(.actionFailed(failure)) }
}
