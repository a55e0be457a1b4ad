/// An action run when the enclosing state is entered (SCXML `<onentry>`).
///
/// Entry actions run in document order, parents before children, after the state's ``StateData``
/// is made. A state may have several.
public struct OnEntry<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let element: ChartElement<State, Event, Context>

    /// An entry action.
    public init(_ action: @escaping StatechartAction<State, Event, Context>) {
        element = .onEntry(action)
    }

    /// An entry action that sends `event` to the machine itself after `delay`, cancellable by
    /// `id` with ``OnExit/init(cancel:)`` or ``Scope/cancel(id:)``: SCXML's
    /// `<onentry><send event="…" delay="…" id="…"/></onentry>`.
    ///
    /// It does what `OnEntry { $0.send(event, after: delay, id: id) }` does, in the same place
    /// among the state's entry actions. Written as data rather than as a closure, it lets a step
    /// that enters the state arm the event as it arms the state's ``After`` timeouts: when every
    /// entry action of a state is such a send and every exit action a cancel, the machine's quick
    /// step enters and exits the state without building a scope or calling a closure.
    ///
    /// ```swift
    /// StateNode(.playing) {
    ///     OnEntry(send: .tick, after: .seconds(1), id: "tick")
    ///     OnExit(cancel: "tick")
    ///     On(.tick, to: .playing)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event to send.
    ///   - delay: How long the machine waits before the event joins its external queue. Zero or
    ///     less queues it when the action runs, as ``Scope/send(_:after:id:)`` does.
    ///   - id: An identifier to cancel the event by while it waits.
    @inlinable
    public init(send event: Event, after delay: Duration, id: String? = nil)
    where State: SendableMetatype, Event: Sendable {
        // Inlinable, so that the closure the general path may run is specialised where the chart
        // is written, as a closure written there would be.
        element = .declaredEntry(
            { scope in scope.send(event, after: delay, id: id) }, send: event, after: delay, id: id)
    }
}

/// An action run when the enclosing state is exited (SCXML `<onexit>`).
///
/// Exit actions run children before parents, before the state's ``StateData`` is dropped.
public struct OnExit<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let element: ChartElement<State, Event, Context>

    /// An exit action.
    public init(_ action: @escaping StatechartAction<State, Event, Context>) {
        element = .onExit(action)
    }

    /// An exit action that cancels the delayed events sent with identifier `id` that have not been
    /// delivered yet: SCXML's `<onexit><cancel sendid="…"/></onexit>`.
    ///
    /// It does what `OnExit { $0.cancel(id: id) }` does, in the same place among the state's exit
    /// actions; written as data, it lets the machine's quick step exit the state without calling
    /// a closure (see ``OnEntry/init(send:after:id:)``).
    @inlinable
    public init(cancel id: String) where State: SendableMetatype, Event: SendableMetatype {
        element = .declaredExit({ scope in scope.cancel(id: id) }, cancel: id)
    }
}

extension OnEntry: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension OnExit: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
