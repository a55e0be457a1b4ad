/// A transition taken when the enclosing state completes: a compound state whose final child is
/// entered, or a parallel state whose regions are all in final states.
///
/// It is a transition on the SCXML event `done.state.ID` of its own state. The done data of the
/// final state that completed it is in ``Scope/doneData``.
///
/// ```swift
/// StateNode(.download, initial: .fetching) {
///     StateNode(.fetching) { On(.received, to: .complete) }
///     Final(.complete)
///     OnDone(to: .idle)
/// }
/// ```
public struct OnDone<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A completion transition.
    ///
    /// - Parameters:
    ///   - targets: The states to go to; none for a targetless transition, several to enter
    ///     states in different regions of a parallel state.
    ///   - type: ``TransitionType/external`` (the default) or ``TransitionType/internal``.
    ///   - condition: Must hold for the transition to be taken.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    public init(
        to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        element = .transition(
            .done, targets: targets, type: type, guard: condition, action: nil,
            location: SourcePosition(file: file, line: line, column: column))
    }

    /// A completion transition with an action.
    ///
    /// - Parameters:
    ///   - targets: The states to go to; none for a targetless transition, several to enter
    ///     states in different regions of a parallel state.
    ///   - type: ``TransitionType/external`` (the default) or ``TransitionType/internal``.
    ///   - condition: Must hold for the transition to be taken.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - action: Runs after the exited states' exit actions and before the entered states'
    ///     entry actions.
    public init(
        to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column,
        action: @escaping StatechartAction<State, Event, Context>
    ) {
        element = .transition(
            .done, targets: targets, type: type, guard: condition, action: action,
            location: SourcePosition(file: file, line: line, column: column))
    }
}

extension OnDone: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
