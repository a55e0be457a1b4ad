/// A statechart over your own types: states, events and context.
///
/// ```swift
/// let chart = try Statechart<PlayerState, PlayerEvent, PlayerContext>(initial: .stopped) {
///     StateNode(.stopped) {
///         On(.play, to: .active)
///     }
///     StateNode(.active, initial: .playing) {
///         StateNode(.playing) { On(.pause, to: .paused) }
///         StateNode(.paused) { On(.play, to: .playing) }
///         On(.stop, to: .stopped)
///     }
/// }
/// ```
///
/// Building a chart validates it, reporting every problem at once (see ``ChartValidationError``),
/// and compiles it into tables that its machines share: a chart is immutable and can be used by
/// any number of ``StateMachine``s, on any thread.
public struct Statechart<State: Hashable & Sendable, Event: StatechartEvent, Context: Sendable>: Sendable {
    @usableFromInline let storage: ChartStorage<State, Event, Context>

    init(storage: ChartStorage<State, Event, Context>) { self.storage = storage }

    /// The default for ``StateMachine/microstepLimit``.
    public static var defaultMicrostepLimit: Int { 100_000 }

    /// The default limit on how deeply states may be nested.
    public static var defaultMaximumDepth: Int { 500 }

    /// Builds a chart from its states.
    ///
    /// - Parameters:
    ///   - name: A name for diagnostics and pictures.
    ///   - initial: The state (or, across parallel regions, states) the machine starts in; omitted,
    ///     the first top-level state.
    ///   - microstepLimit: The most microsteps a machine may take in one call (see
    ///     ``StateMachine/microstepLimit``).
    ///   - content: The top-level states.
    /// - Throws: ``ChartValidationError`` with every problem found.
    public init(
        _ name: String = "statechart", initial: State..., microstepLimit: Int = Self.defaultMicrostepLimit,
        @ChartBuilder<State, Event, Context> _ content: () -> [ChartElement<State, Event, Context>]
    ) throws(ChartValidationError) {
        try self.init(name: name, initial: initial, elements: content(), microstepLimit: microstepLimit)
    }

    /// Builds a chart from elements made in code, as the SCXML reader does.
    ///
    /// - Parameters:
    ///   - name: A name for diagnostics and pictures.
    ///   - initial: The state (or, across parallel regions, states) the machine starts in; empty,
    ///     the first top-level state.
    ///   - elements: The top-level states.
    ///   - microstepLimit: The most microsteps a machine may take in one call.
    ///   - maximumDepth: The deepest nesting allowed; deeper charts are rejected with
    ///     ``ChartProblem/Code/nestingTooDeep`` rather than risk exhausting the stack.
    /// - Throws: ``ChartValidationError`` with every problem found.
    public init(
        name: String, initial: [State] = [], elements: [ChartElement<State, Event, Context>],
        microstepLimit: Int = Self.defaultMicrostepLimit, maximumDepth: Int = Self.defaultMaximumDepth
    ) throws(ChartValidationError) {
        var compiler = ChartCompiler<State, Event, Context>(
            name: name, initial: initial, maximumDepth: maximumDepth, microstepLimit: max(microstepLimit, 1))
        storage = try compiler.compile(elements)
    }

    /// The chart's name.
    public var name: String { storage.name }

    /// Every state, in document order (history states included).
    public var states: [State] { storage.states.compactMap { $0 } }

    /// A machine of this chart, not started yet.
    public func makeMachine(
        context: Context, unhandledEvents: UnhandledEventPolicy = .ignore
    ) -> StateMachine<State, Event, Context> {
        StateMachine(chart: self, context: context, unhandledEvents: unhandledEvents)
    }
}

extension Statechart where Context == Void {
    /// A machine of this chart, which has no context.
    public func makeMachine(unhandledEvents: UnhandledEventPolicy = .ignore) -> StateMachine<State, Event, Void> {
        StateMachine(chart: self, context: (), unhandledEvents: unhandledEvents)
    }
}
