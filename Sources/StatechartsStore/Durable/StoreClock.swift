#if Store
import Statecharts

/// The clock of a durable machine: the store's. Each step happens at the time its transaction
/// gives it, which its journal entry records, so that replaying the journal moves the machine's
/// time exactly as the first run did.
///
/// Nothing wakes the host: after a transaction the machine's pending timers are written as the
/// store's timer rows, and a worker claims the machine when the first falls due.
@usableFromInline
struct StoreClock: HostClock, Sendable {
    /// The time of the step being applied, in the machine's time.
    @usableFromInline var now: Duration = .zero

    /// Brings the machine's time to the step's, firing the timers due by then (the
    /// `OverdueTimerPolicy.fire` policy: each at its own deadline).
    @usableFromInline
    func beginStep<State, Event, Context, Observer: MachineObserver>(
        _ machine: inout StateMachine<State, Event, Context>, observer: inout Observer
    ) throws(MachineError<State, Event>)
    where Observer.State == State, Observer.Event == Event {
        try machine.advance(to: now, observer: &observer)
    }

    /// Never: the store's timer rows wake the fleet.
    @usableFromInline var isWaiting: Bool { false }

    /// Nothing: the transaction writes the machine's pending timers.
    @usableFromInline func wake(atNanoseconds deadline: Int64) {}
}
#endif
