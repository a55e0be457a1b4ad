/// A compiled chart: its layout plus the user's states and closures. Shared, never mutated.
@usableFromInline
final class ChartStorage<State: Hashable & Sendable, Event: StatechartEvent, Context: Sendable>: Sendable {
    @usableFromInline typealias Action = StatechartAction<State, Event, Context>
    @usableFromInline typealias Guard = StatechartGuard<State, Event, Context>
    @usableFromInline typealias DoneDataMaker =
        @Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable

    @usableFromInline let layout: ChartLayout
    @usableFromInline let kindMap: EventKindMap<Event>
    /// The user's value of each state; `nil` for the root.
    @usableFromInline let states: [State?]
    @usableFromInline let stateIndices: [State: Int32]
    @usableFromInline let actions: [Action]
    @usableFromInline let guards: [Guard]
    @usableFromInline let doneDataMakers: [DoneDataMaker]
    /// State data definitions, by data slot.
    @usableFromInline let stateData: [StateDataDefinition<State, Event, Context>]
    let name: String
    let stateNames: [String]
    let stateLocations: [SourcePosition?]
    let transitionLocations: [SourcePosition?]
    /// The user's kinds, by kind index; `nil` for kinds the engine raises.
    let userKinds: [Event.Kind?]
    @usableFromInline let microstepLimit: Int
    /// For a context that is a ``DataModel``: tells it of each event.
    @usableFromInline let binder: (@Sendable (inout Context, ProcessedEvent<Event>) -> Void)?
    /// Actions run by `start()` before the initial states are entered.
    @usableFromInline let startActions: [Action]
    /// What the chart was made from, such as an SCXML document, for writers and tools.
    let source: (any Sendable)?
    /// What fires each transition, as written.
    let triggers: [TransitionTrigger<Event.Kind>]

    init(
        layout: ChartLayout, kindMap: EventKindMap<Event>, states: [State?], stateIndices: [State: Int32],
        actions: [Action], guards: [Guard], doneDataMakers: [DoneDataMaker],
        stateData: [StateDataDefinition<State, Event, Context>], name: String, stateNames: [String],
        stateLocations: [SourcePosition?], transitionLocations: [SourcePosition?], userKinds: [Event.Kind?],
        microstepLimit: Int, binder: (@Sendable (inout Context, ProcessedEvent<Event>) -> Void)?,
        startActions: [Action], source: (any Sendable)?, triggers: [TransitionTrigger<Event.Kind>]
    ) {
        self.layout = layout
        self.kindMap = kindMap
        self.states = states
        self.stateIndices = stateIndices
        self.actions = actions
        self.guards = guards
        self.doneDataMakers = doneDataMakers
        self.stateData = stateData
        self.name = name
        self.stateNames = stateNames
        self.stateLocations = stateLocations
        self.transitionLocations = transitionLocations
        self.userKinds = userKinds
        self.microstepLimit = microstepLimit
        self.binder = binder
        self.startActions = startActions
        self.source = source
        self.triggers = triggers
    }
}
