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
public struct Statechart<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
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
    @inlinable
    public init(
        _ name: String = "statechart", initial: State..., microstepLimit: Int = Self.defaultMicrostepLimit,
        @ChartBuilder<State, Event, Context> _ content: () -> [ChartElement<State, Event, Context>]
    ) throws(ChartValidationError) {
        try self.init(
            name: name, initial: initial, elements: content(), microstepLimit: microstepLimit,
            maximumDepth: Self.defaultMaximumDepth, source: nil, binder: nil, operations: .forMachines())
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
    ///   - source: What the chart was made from, such as an SCXML document, for tools that write
    ///     the chart back out; see ``source``.
    /// - Throws: ``ChartValidationError`` with every problem found.
    @inlinable
    public init(
        name: String, initial: [State] = [], elements: [ChartElement<State, Event, Context>],
        microstepLimit: Int = Self.defaultMicrostepLimit, maximumDepth: Int = Self.defaultMaximumDepth,
        source: (any Sendable)? = nil
    ) throws(ChartValidationError) {
        try self.init(
            name: name, initial: initial, elements: elements, microstepLimit: microstepLimit,
            maximumDepth: maximumDepth, source: source, binder: nil, operations: .forMachines())
    }

    /// Compiles the chart. `operations` are made where the chart's types are known (the public
    /// initialisers are inlined into the code that builds a chart), so that they are specialised.
    @usableFromInline
    init(
        name: String, initial: [State], elements: [ChartElement<State, Event, Context>], microstepLimit: Int,
        maximumDepth: Int, source: (any Sendable)?, binder: (@Sendable (inout Context, ProcessedEvent<Event>) -> Void)?,
        operations: ScopeOperations<State, Event, Context>
    ) throws(ChartValidationError) {
        var compiler = ChartCompiler<State, Event, Context>(
            name: name, initial: initial, maximumDepth: maximumDepth, microstepLimit: max(microstepLimit, 1))
        compiler.source = source
        compiler.binder = binder
        storage = try compiler.compile(elements, operations: operations)
    }

    /// What the chart was made from, if its maker said: for a chart read from an SCXML document,
    /// the document.
    public var source: (any Sendable)? { storage.source }

    /// The chart's name.
    public var name: String { storage.name }

    /// Every state, in document order (history states included).
    public var states: [State] { storage.states.compactMap { $0 } }

    /// A machine of this chart, not started yet.
    @inlinable
    public func makeMachine(
        context: Context, unhandledEvents: UnhandledEventPolicy = .ignore
    ) -> StateMachine<State, Event, Context> {
        StateMachine(chart: self, context: context, unhandledEvents: unhandledEvents)
    }
}

extension Statechart where Context: DataModel, Context.Event == Event, Event: Sendable {
    /// Builds a chart whose context is a ``DataModel``, which is told of every event.
    ///
    /// - Parameters:
    ///   - name: A name for diagnostics and pictures.
    ///   - initial: The state (or, across parallel regions, states) the machine starts in; omitted,
    ///     the first top-level state.
    ///   - microstepLimit: The most microsteps a machine may take in one call.
    ///   - content: The top-level states.
    /// - Throws: ``ChartValidationError`` with every problem found.
    @inlinable
    public init(
        _ name: String = "statechart", initial: State..., microstepLimit: Int = Self.defaultMicrostepLimit,
        @ChartBuilder<State, Event, Context> _ content: () -> [ChartElement<State, Event, Context>]
    ) throws(ChartValidationError) {
        try self.init(
            name: name, initial: initial, elements: content(), microstepLimit: microstepLimit,
            maximumDepth: Self.defaultMaximumDepth, source: nil, binder: { $0.bind($1) }, operations: .forMachines())
    }

    /// Builds a chart whose context is a ``DataModel`` from elements made in code.
    ///
    /// - Parameters:
    ///   - name: A name for diagnostics and pictures.
    ///   - initial: The states the machine starts in; empty, the first top-level state.
    ///   - elements: The top-level states.
    ///   - microstepLimit: The most microsteps a machine may take in one call.
    ///   - maximumDepth: The deepest nesting allowed.
    ///   - source: What the chart was made from, such as an SCXML document.
    /// - Throws: ``ChartValidationError`` with every problem found.
    @inlinable
    public init(
        name: String, initial: [State] = [], elements: [ChartElement<State, Event, Context>],
        microstepLimit: Int = Self.defaultMicrostepLimit, maximumDepth: Int = Self.defaultMaximumDepth,
        source: (any Sendable)? = nil
    ) throws(ChartValidationError) {
        try self.init(
            name: name, initial: initial, elements: elements, microstepLimit: microstepLimit,
            maximumDepth: maximumDepth, source: source, binder: { $0.bind($1) }, operations: .forMachines())
    }
}

extension Statechart where Context: DataModel, Context.Event == Event, Event: Sendable {
    /// Builds a chart whose context is a ``DataModel`` that is told of every event only when
    /// `announcingEvents`: for a data model that cannot read the events it is told of (SCXML's null
    /// data model), whose machines then take the quick steps of a chart without a data model.
    @inlinable
    package init(
        name: String, initial: [State], elements: [ChartElement<State, Event, Context>], maximumDepth: Int,
        source: (any Sendable)?, announcingEvents: Bool
    ) throws(ChartValidationError) {
        var binder: (@Sendable (inout Context, ProcessedEvent<Event>) -> Void)?
        if announcingEvents { binder = { $0.bind($1) } }
        try self.init(
            name: name, initial: initial, elements: elements, microstepLimit: Self.defaultMicrostepLimit,
            maximumDepth: maximumDepth, source: source, binder: binder, operations: .forMachines())
    }
}

extension Statechart where Context == Void {
    /// A machine of this chart, which has no context.
    @inlinable
    public func makeMachine(unhandledEvents: UnhandledEventPolicy = .ignore) -> StateMachine<State, Event, Void> {
        StateMachine(chart: self, context: (), unhandledEvents: unhandledEvents)
    }
}

extension Statechart: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
