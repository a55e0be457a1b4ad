/// The clock of a live machine (``IsolatedStatechart``, ``StatechartActor``): the machine's time
/// follows a ``TimerWheel``'s, and the machine keeps one entry in the wheel, at its earliest
/// pending deadline, which calls its owner back.
///
/// An event that arms no timer reads no clock: before such a step the machine's time is marked
/// stale, and the machine reads the wheel's time itself the first time the step needs it (see
/// ``StateMachine/currentTime()``).
@usableFromInline
struct WheelClock: HostClock {
    /// The wheel and the wheel's time when the machine's time was zero. The machine's own
    /// reference to it (``StateMachine/liveClock``) is not counted: this one is.
    @usableFromInline let clock: LiveClock
    /// The machine's entry in the wheel.
    @usableFromInline var timer = LiveTimer()
    /// What the wheel calls back: the machine's owner, which holds this clock and cancels the
    /// entry before it goes away (so it is never called back after). Not counted, and lent to the
    /// wheel without a count: the owner's references are counted on a side table (the wheel keeps
    /// it weakly), which made a counted load cost about 190 instructions per rearm.
    @usableFromInline var target: Unmanaged<AnyObject>?

    /// A clock on `wheel` for a machine whose time is now `machineTime` nanoseconds (a machine
    /// restored from an archive goes on from its own time). ``connect(_:)`` connects the machine.
    @inlinable
    init(wheel: TimerWheel, machineTime: Int64) {
        clock = LiveClock(wheel: wheel, origin: wheel.now.clampedNanoseconds &- machineTime)
    }

    /// Makes `machine` read its time from this clock when a step needs it.
    @inlinable
    func connect<State, Event, Context>(_ machine: inout StateMachine<State, Event, Context>) {
        machine.liveClock = clock
        machine.timeIsStale = false
        machine.liveFlags = 0
    }

    /// The wheel the machine's time follows.
    @inlinable
    var wheel: TimerWheel { clock.wheel }

    /// The machine's time on the wheel's clock now.
    @inlinable
    var elapsed: Duration { .nanoseconds(clock.elapsed) }

    /// Fires the timers due by now when some are pending (reading the clock); otherwise marks the
    /// machine's time stale, so that only a step that needs it reads the clock.
    @inlinable @inline(__always)
    func beginStep<State, Event, Context, Observer: MachineObserver>(
        _ machine: inout StateMachine<State, Event, Context>, observer: inout Observer
    ) throws(MachineError<State, Event>)
    where Observer.State == State, Observer.Event == Event {
        if machine.extras?.timers.isEmpty == false {
            try catchUp(&machine, observer: &observer)
        } else {
            machine.timeIsStale = true
        }
    }

    /// Brings the machine's time to the wheel's, firing the timers due by then, and marks the
    /// machine active (in its ``StateMachine/liveFlags``) when one was due. Before the machine
    /// starts, this only sets its time.
    @inlinable
    func catchUp<State, Event, Context, Observer: MachineObserver>(
        _ machine: inout StateMachine<State, Event, Context>, observer: inout Observer
    ) throws(MachineError<State, Event>)
    where Observer.State == State, Observer.Event == Event {
        let now = elapsed
        if let due = machine.extras?.timers.nextDeadline, due <= now.clampedNanoseconds { machine.liveFlags |= 1 }
        try machine.advance(to: now, observer: &observer)
    }

    @inlinable
    var isWaiting: Bool { timer.isArmed }

    /// Moves the wheel entry to `deadline`, when it is elsewhere.
    @inlinable
    mutating func wake(atNanoseconds deadline: Int64) {
        guard deadline != timer.deadline, let target else { return }
        var timer = timer
        target._withUnsafeGuaranteedRef { target in
            timer.rearm(at: deadline, origin: clock.origin, in: wheel, for: target)
        }
        self.timer = timer
    }

    /// The wheel removed the entry when it fired it.
    @inlinable
    mutating func fired() { timer.fired() }

    /// Removes the entry: the owner is going away.
    @usableFromInline
    mutating func cancel() { timer.cancel(in: wheel) }
}

/// A live host's one entry in its wheel, at its earliest pending deadline: a typed live machine's
/// (in its ``WheelClock``) and a live document session's.
///
/// Not generic, so that arming and cancelling need no specialisation.
@usableFromInline
package struct LiveTimer {
    /// The machine time, in nanoseconds, the wheel entry is armed for; `Int64.max` when none is.
    @usableFromInline package var deadline: Int64 = .max
    @usableFromInline var handle = TimerHandle(index: -1, generation: 0)

    @inlinable
    package init() {}

    @inlinable
    var isArmed: Bool { deadline != .max }

    /// Moves the entry to `newDeadline` (`Int64.max`: removes it), a machine time whose zero is
    /// `origin` on `wheel`; `target` is a ``TimerWheelTarget``.
    @usableFromInline
    package mutating func rearm(at newDeadline: Int64, origin: Int64, in wheel: TimerWheel, for target: AnyObject) {
        if isArmed { wheel.cancel(handle) }
        deadline = newDeadline
        guard isArmed else { return }
        handle = wheel.arm(at: .nanoseconds(origin.addingClamped(newDeadline)), forTargetObject: target)
    }

    /// The wheel removed the entry when it fired it.
    @inlinable
    package mutating func fired() { deadline = .max }

    /// Removes the entry.
    @usableFromInline
    package mutating func cancel(in wheel: TimerWheel) {
        if isArmed { wheel.cancel(handle) }
        deadline = .max
    }
}
