/// An action run when the enclosing state is entered (SCXML `<onentry>`).
///
/// Entry actions run in document order, parents before children, after the state's ``StateData``
/// is made. A state may have several.
public struct OnEntry<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// An entry action.
    public init(_ action: @escaping StatechartAction<State, Event, Context>) {
        element = .onEntry(action)
    }
}

/// An action run when the enclosing state is exited (SCXML `<onexit>`).
///
/// Exit actions run children before parents, before the state's ``StateData`` is dropped.
public struct OnExit<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// An exit action.
    public init(_ action: @escaping StatechartAction<State, Event, Context>) {
        element = .onExit(action)
    }
}

extension OnEntry: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension OnExit: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
