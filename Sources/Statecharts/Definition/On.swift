/// A transition taken when an event arrives.
///
/// ```swift
/// On(.play, to: .playing)                                   // on an event kind
/// On(.chooseLevel, to: .playing, guard: { $0.context.episode != nil }) { scope in
///     if case .chooseLevel(let level) = scope.event { scope.context.level = level }
/// }
/// On(.tick) { $0.context.elapsed += 1 }                     // targetless: no state changes
/// On(named: "error.network", to: .offline)                  // SCXML descriptor matching
/// ```
///
/// Without targets the transition exits and enters nothing and only runs its action. With several
/// targets (in different regions of a parallel state) it enters them all. Among the transitions a
/// state has for an event, the first in document order whose guard holds is taken; a state's
/// transitions take precedence over its ancestors'.
public struct On<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A transition on events of the given kinds.
    ///
    /// - Parameters:
    ///   - kinds: The event kinds that fire the transition.
    ///   - targets: The states to go to; none for a targetless transition, several to enter
    ///     states in different regions of a parallel state.
    ///   - type: ``TransitionType/external`` (the default) or ``TransitionType/internal``.
    ///   - condition: Must hold for the transition to be taken.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    public init(
        _ kinds: Event.Kind..., to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        element = .transition(
            .events(kinds.map { .kind($0) }), targets: targets, type: type, guard: condition, action: nil,
            location: SourcePosition(file: file, line: line, column: column))
    }

    /// A transition on events of the given kinds, with an action.
    ///
    /// - Parameters:
    ///   - kinds: The event kinds that fire the transition.
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
        _ kinds: Event.Kind..., to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column,
        action: @escaping StatechartAction<State, Event, Context>
    ) {
        element = .transition(
            .events(kinds.map { .kind($0) }), targets: targets, type: type, guard: condition, action: action,
            location: SourcePosition(file: file, line: line, column: column))
    }

    /// A transition on events whose names match SCXML descriptors, such as `"error"` (which also
    /// matches `"error.execution"`) or `"*"` (every event).
    ///
    /// - Parameters:
    ///   - descriptors: SCXML event descriptors; a string may hold several, separated by spaces.
    ///   - targets: The states to go to; none for a targetless transition, several to enter
    ///     states in different regions of a parallel state.
    ///   - type: ``TransitionType/external`` (the default) or ``TransitionType/internal``.
    ///   - condition: Must hold for the transition to be taken.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    public init(
        named descriptors: String..., to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        element = .transition(
            .events(EventDescriptor.list(descriptors).map { .descriptor($0) }), targets: targets, type: type,
            guard: condition, action: nil, location: SourcePosition(file: file, line: line, column: column))
    }

    /// A transition on events whose names match SCXML descriptors, with an action.
    ///
    /// - Parameters:
    ///   - descriptors: SCXML event descriptors; a string may hold several, separated by spaces.
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
        named descriptors: String..., to targets: State..., type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column,
        action: @escaping StatechartAction<State, Event, Context>
    ) {
        element = .transition(
            .events(EventDescriptor.list(descriptors).map { .descriptor($0) }), targets: targets, type: type,
            guard: condition, action: action, location: SourcePosition(file: file, line: line, column: column))
    }
}

extension On: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
