/// A state: atomic while it has no child states, compound once it has some.
///
/// ```swift
/// StateNode(.player, initial: .paused) {
///     History(.resume, default: .paused)
///     StateNode(.playing) { On(.pause, to: .paused) }
///     StateNode(.paused) { On(.play, to: .playing) }
///     On(.stop, to: .stopped)
/// }
/// ```
///
/// A compound state enters its `initial` child when it is the target of a transition, or its first
/// child in document order when `initial` is omitted. It is SCXML's `<state>`.
///
/// The name avoids `State`, which SwiftUI uses for its property wrapper.
public struct StateNode<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A state with its children, transitions, actions and data.
    ///
    /// - Parameters:
    ///   - id: The state's identity, unique in the chart.
    ///   - initial: The child entered by default; several only to enter descendants in different
    ///     regions of a parallel child. Omitted: the first child.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - content: The children, transitions, actions and data of the state.
    public init(
        _ id: State, initial: State..., file: String = #fileID, line: Int = #line, column: Int = #column,
        @ChartBuilder<State, Event, Context> _ content: () -> [ChartElement<State, Event, Context>] = { [] }
    ) {
        element = .state(
            id, kind: .state, initial: initial, elements: content(),
            location: SourcePosition(file: file, line: line, column: column))
    }
}

/// A state whose children (its regions) are all active at once.
///
/// Every region reacts to each event; a parallel state is complete (`done.state.ID`) when every
/// region is in a final state. It is SCXML's `<parallel>`.
public struct Parallel<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A parallel state with its regions, transitions and actions.
    ///
    /// - Parameters:
    ///   - id: The state's identity, unique in the chart.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - content: The regions (child states), transitions and actions of the state.
    public init(
        _ id: State, file: String = #fileID, line: Int = #line, column: Int = #column,
        @ChartBuilder<State, Event, Context> _ content: () -> [ChartElement<State, Event, Context>]
    ) {
        element = .state(
            id, kind: .parallel, elements: content(), location: SourcePosition(file: file, line: line, column: column))
    }
}

/// A final state: entering it completes its parent.
///
/// Entering a final child of a compound state raises `done.state.PARENT`; a final state at the top
/// of the chart finishes the machine. It may have entry and exit actions and ``DoneData``, but no
/// transitions or children. It is SCXML's `<final>`.
public struct Final<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A final state, with optional entry and exit actions and done data.
    ///
    /// - Parameters:
    ///   - id: The state's identity, unique in the chart.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - content: ``OnEntry``, ``OnExit`` and ``DoneData`` elements.
    public init(
        _ id: State, file: String = #fileID, line: Int = #line, column: Int = #column,
        @ChartBuilder<State, Event, Context> _ content: () -> [ChartElement<State, Event, Context>] = { [] }
    ) {
        element = .state(
            id, kind: .final, elements: content(), location: SourcePosition(file: file, line: line, column: column))
    }
}

/// A history pseudo-state: a transition to it restores what its parent had active when last exited.
///
/// A shallow history restores the parent's active children (each entering its own initial
/// state); a deep history restores the active atomic descendants at every depth. Before the parent
/// has ever been exited, a transition to the history goes to `default` (or the parent's initial
/// state). It is SCXML's `<history>`.
public struct History<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// A history state of the enclosing state.
    ///
    /// - Parameters:
    ///   - id: The history state's identity, unique in the chart; transitions target it.
    ///   - type: ``HistoryType/shallow`` (the default) or ``HistoryType/deep``.
    ///   - defaultTargets: Entered while no history is recorded. Omitted: the parent's initial
    ///     state (all regions for a parallel parent).
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - action: Runs when the default is taken.
    public init(
        _ id: State, _ type: HistoryType = .shallow, default defaultTargets: State...,
        file: String = #fileID, line: Int = #line, column: Int = #column,
        action: StatechartAction<State, Event, Context>? = nil
    ) {
        element = .history(
            id, type: type, defaultTargets: defaultTargets, action: action,
            location: SourcePosition(file: file, line: line, column: column))
    }
}

/// The initial transition of the enclosing compound state, with an action (SCXML `<initial>`).
///
/// Use it instead of the `initial:` argument of ``StateNode`` when entering by default should also
/// run an action. The action runs after the state's entry actions and before its child is entered.
public struct Initial<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// The default entry of the enclosing state.
    ///
    /// - Parameters:
    ///   - targets: The descendants entered by default.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - action: Runs after the state's entry actions, before its children are entered.
    public init(
        to targets: State..., file: String = #fileID, line: Int = #line, column: Int = #column,
        action: StatechartAction<State, Event, Context>? = nil
    ) {
        element = .initial(targets, action: action, location: SourcePosition(file: file, line: line, column: column))
    }
}

extension StateNode: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension Parallel: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension Final: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension History: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension Initial: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
