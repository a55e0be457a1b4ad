/// The clock of a ``MachineHost``: what its machine's time follows, and what wakes the host when
/// the machine's next timer falls due.
///
/// A machine keeps its own time (``StateMachine/now``), which moves only when it is told. A host's
/// clock decides when to tell it:
/// - ``ManualClock`` never does on its own: time moves when the host is told to
///   (``MachineHost/advance(by:)``). The tester, the path search, a bare machine an app drives by
///   hand, and a store's transactions, which give each step its time, run on it.
/// - The live clock of ``IsolatedStatechart`` and ``StatechartActor`` follows a ``TimerWheel``
///   on a real `Clock` (or a test clock): before each step it brings the machine's time to the
///   wheel's now, and after each step it keeps one wheel entry at the machine's earliest deadline,
///   which calls the host back.
///
/// Both hooks run on every step, so a clock keeps them short.
public protocol HostClock {
    /// Called before each step of `machine`: brings its time to the clock's now, firing the timers
    /// due by then (reported to `observer`), or arranges that the step reads the clock only when it
    /// first needs the time. A manual clock does nothing.
    mutating func beginStep<State, Event, Context, Observer: MachineObserver>(
        _ machine: inout StateMachine<State, Event, Context>, observer: inout Observer
    ) throws(MachineError<State, Event>)
    where Observer.State == State, Observer.Event == Event

    /// Whether the clock holds a wake-up for the machine: the host then settles after every step,
    /// so that the wake-up moves with the machine's deadlines.
    var isWaiting: Bool { get }

    /// Called after each settled step: the host is to be woken when the machine's time reaches
    /// `deadline`, in nanoseconds of the machine's time; `Int64.max` when nothing is due.
    mutating func wake(atNanoseconds deadline: Int64)
}

/// A clock that moves only when its host is told to: ``MachineHost/advance(by:)`` lets time pass
/// and fires the timers due by then. Deterministic; nothing wakes the host.
public struct ManualClock: HostClock, Sendable, Hashable {
    /// A manual clock.
    @inlinable
    public init() {}

    /// Nothing: the machine's time is where the last call left it.
    @inlinable
    public func beginStep<State, Event, Context, Observer: MachineObserver>(
        _ machine: inout StateMachine<State, Event, Context>, observer: inout Observer
    ) throws(MachineError<State, Event>)
    where Observer.State == State, Observer.Event == Event {}

    /// Never: nothing wakes the host.
    @inlinable
    public var isWaiting: Bool { false }

    /// Nothing: the host's caller decides when time passes.
    @inlinable
    public func wake(atNanoseconds deadline: Int64) {}
}
