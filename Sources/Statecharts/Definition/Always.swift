/// An eventless transition: taken as soon as its source is active and its guard holds.
///
/// After every transition the machine keeps taking eventless transitions until none is enabled,
/// before it looks at the next event. A guard that reads the context turns a change of the context
/// into a change of state:
///
/// ```swift
/// StateNode(.checking) {
///     Always(to: .passed, guard: { $0.context.score >= 50 })
///     Always(to: .failed)
/// }
/// ```
///
/// It is an SCXML `<transition>` without `event`.
public struct Always<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// An eventless transition.
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
            .eventless, targets: targets, type: type, guard: condition, action: nil,
            location: SourcePosition(file: file, line: line, column: column))
    }

    /// An eventless transition with an action.
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
            .eventless, targets: targets, type: type, guard: condition, action: action,
            location: SourcePosition(file: file, line: line, column: column))
    }
}

extension Always: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
