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
    let stateLocations: [SourceLocation?]
    let transitionLocations: [SourceLocation?]
    /// The user's kinds, by kind index; `nil` for kinds the engine raises.
    let userKinds: [Event.Kind?]
    @usableFromInline let microstepLimit: Int

    init(
        layout: ChartLayout, kindMap: EventKindMap<Event>, states: [State?], stateIndices: [State: Int32],
        actions: [Action], guards: [Guard], doneDataMakers: [DoneDataMaker],
        stateData: [StateDataDefinition<State, Event, Context>], name: String, stateNames: [String],
        stateLocations: [SourceLocation?], transitionLocations: [SourceLocation?], userKinds: [Event.Kind?],
        microstepLimit: Int
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
    }
}
