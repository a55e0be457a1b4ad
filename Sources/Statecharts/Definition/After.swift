/// A transition taken when its source state has been active for a given time: a timeout that
/// belongs to the state.
///
/// Entering the state arms the timer; exiting it cancels the timer, so a timeout never outlives
/// its state, and re-entering the state starts it again. When the timer fires, the machine
/// processes it like an external event; if the guard does not hold then, nothing happens.
///
/// ```swift
/// StateNode(.scanning) {
///     After(.seconds(10), to: .idle) { $0.context.lastError = .scanTimedOut }
///     On(.discovered, to: .connecting)
/// }
/// ```
public struct After<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A timeout transition.
    ///
    /// - Parameters:
    ///   - delay: How long the source state must stay active; zero or more.
    ///   - targets: The states to go to; none for a targetless transition, several to enter
    ///     states in different regions of a parallel state.
    ///   - type: ``TransitionType/external`` (the default) or ``TransitionType/internal``.
    ///   - condition: Must hold for the transition to be taken.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    public init(
        _ delay: Duration, to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        element = .transition(
            .after(delay), targets: targets, type: type, guard: condition, action: nil,
            location: SourcePosition(file: file, line: line, column: column))
    }

    /// A timeout transition with an action.
    ///
    /// - Parameters:
    ///   - delay: How long the source state must stay active; zero or more.
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
        _ delay: Duration, to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column,
        action: @escaping StatechartAction<State, Event, Context>
    ) {
        element = .transition(
            .after(delay), targets: targets, type: type, guard: condition, action: action,
            location: SourcePosition(file: file, line: line, column: column))
    }
}

extension After: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
