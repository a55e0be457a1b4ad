/// What an action or a guard can see and do during a step.
///
/// An action receives its scope `inout`: it reads the event, changes the context, raises and
/// schedules events, and reads and changes state data. A guard receives it `borrowing`: it can
/// read everything but change nothing.
///
/// ```swift
/// On(.collect) { scope in
///     guard case .collect(let points) = scope.event else { return }
///     scope.context.score += points
///     if scope.context.score >= 100 { scope.raise(.levelUp) }
/// }
/// ```
///
/// A scope exists only while its action or guard runs, so it cannot be copied or kept.
public struct Scope<State: Hashable & Sendable, Event: StatechartEvent, Context: Sendable>: ~Copyable {
    @usableFromInline let machine: UnsafeMutablePointer<StateMachine<State, Event, Context>>
    @usableFromInline let signal: UnsafePointer<Signal<Event>>?

    @inlinable
    init(machine: UnsafeMutablePointer<StateMachine<State, Event, Context>>, signal: UnsafePointer<Signal<Event>>?) {
        self.machine = machine
        self.signal = signal
    }

    // MARK: - Reading

    /// The machine's context (its extended state). Actions may change it; guards only read it.
    @inlinable
    public var context: Context {
        _read { yield machine.pointee.storedContext }
        _modify { yield &machine.pointee.storedContext }
    }

    /// The event being processed, when it is of your event type; `nil` while the machine starts
    /// and for the events the machine raises (`done.state.*`, `error.execution`, timeouts).
    @inlinable
    public var event: Event? { signal?.pointee.event }

    /// The SCXML name of the event being processed; `nil` while the machine starts and for
    /// eventless transitions.
    public var eventName: String? {
        guard let signal else { return nil }
        return machine.pointee.name(of: signal.pointee)
    }

    /// For a completion (``OnDone``) transition: the ``DoneData`` of the final state that
    /// completed the state.
    public var doneData: (any Sendable)? {
        signal?.pointee.doneData
    }

    /// For a transition on `error.execution`: what the failed action or guard threw.
    public var error: (any Error)? {
        signal?.pointee.error
    }

    /// The machine's time.
    public var now: Duration { machine.pointee.now }

    /// Whether `state` is active (SCXML's `In()` predicate).
    public func isActive(_ state: State) -> Bool { machine.pointee.isActive(state) }

    /// The data that the active state `state` holds, if it is active and holds a `Value`.
    public func data<Value>(of state: State, as type: Value.Type = Value.self) -> Value? {
        machine.pointee.data(of: state, as: type)
    }

    // MARK: - Acting

    /// Raises an internal event: it is processed in this macrostep, after the current microstep,
    /// before any external event (SCXML `<raise>`).
    public mutating func raise(_ event: Event) {
        machine.pointee.enqueueInternal(.event(event, kind: machine.pointee.kindIndex(of: event)))
    }

    /// Sends an event to the machine itself, through the external queue (SCXML `<send>`).
    ///
    /// Without a delay, the event is processed after the current macrostep completes. With a delay,
    /// it is processed when the machine's time reaches the deadline, even if the state that sent it
    /// has been exited, unless it is cancelled first with ``cancel(id:)``.
    ///
    /// - Parameters:
    ///   - event: The event to send.
    ///   - delay: How long to wait; zero or more.
    ///   - id: An identifier to cancel the delayed event by.
    public mutating func send(_ event: Event, after delay: Duration = .zero, id: String? = nil) {
        let signal = Signal.event(event, kind: machine.pointee.kindIndex(of: event))
        machine.pointee.schedule(signal, after: delay.clampedNanoseconds, id: id)
    }

    /// Cancels the delayed events sent with this identifier that have not been delivered yet
    /// (SCXML `<cancel>`). Does nothing if there are none.
    public mutating func cancel(id: String) {
        machine.pointee.cancelDelayedEvents(id: id)
    }

    /// Changes the data that the active state `state` holds, and returns what `body` returns;
    /// `nil`, without calling `body`, when the state is not active or holds no `Value`.
    @discardableResult
    public mutating func updateData<Value: Sendable, Result>(
        of state: State, as type: Value.Type = Value.self, _ body: (inout Value) throws -> Result
    ) rethrows -> Result? {
        try machine.pointee.updateData(of: state, as: type, body)
    }
}
