/// A compiled chart: its layout plus the user's states and closures. Shared, never mutated.
@usableFromInline
final class ChartStorage<State: Hashable, Event: StatechartEvent, Context>: @unchecked Sendable
where Event.Kind: Hashable {
    @usableFromInline typealias Action = StoredAction<State, Event, Context>
    @usableFromInline typealias Guard = StoredGuard<State, Event, Context>
    @usableFromInline typealias DoneDataMaker = StoredDoneData<State, Event, Context>

    @usableFromInline let layout: ChartLayout
    /// The same tables as raw pointers, for the per-event path.
    @usableFromInline let tables: ChartTables
    @usableFromInline let kindMap: EventKindMap<Event>
    /// The user's value of each state; `nil` for the root.
    @usableFromInline let states: [State?]
    @usableFromInline let stateIndices: [State: Int32]
    /// The actions, by action index; allocated with the chart and freed with it, so that calling
    /// one from the per-event path retains no array (and, since ``TabledAction`` is not copyable,
    /// not the closure either). Never written after `init`, and the closures are `@Sendable`, so
    /// sharing the pointer between threads is safe.
    @usableFromInline nonisolated(unsafe) let actionTable: UnsafeMutablePointer<TabledAction<State, Event, Context>>
    @usableFromInline let actionCount: Int
    /// The guards, by guard index; allocated like ``actionTable``.
    @usableFromInline nonisolated(unsafe) let guardTable: UnsafeMutablePointer<TabledGuard<State, Event, Context>>
    @usableFromInline let guardCount: Int
    @usableFromInline let doneDataMakers: [DoneDataMaker]
    /// State data definitions, by data slot.
    @usableFromInline let stateData: [StateDataDefinition<State, Event, Context>]
    let name: String
    let stateNames: [String]
    let stateLocations: [SourcePosition?]
    @usableFromInline let transitionLocations: [SourcePosition?]
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
    /// The ``Invoke`` elements of every state, in document order.
    @usableFromInline let invocations: [InvocationDefinition<State, Event, Context>]
    /// For each state, where its invocations start in ``invocations``; one more entry at the end.
    @usableFromInline let invocationOffsets: [Int32]
    /// The delayed sends of the states whose entry actions are all sends written as data
    /// (``StateFlags/entrySendsOnly``), in order: state `s`'s are
    /// `declaredSends[declaredSendOffsets[s] ..< declaredSendOffsets[s + 1]]`. Allocated with the
    /// chart and freed with it, as ``actionTable`` is, so that reading one retains no array; `nil`
    /// (nothing allocated) in a chart without them, where no state has the flag that reads them.
    @usableFromInline nonisolated(unsafe) let declaredSends: UnsafeMutablePointer<DeclaredSend<Event>>?
    @usableFromInline let declaredSendCount: Int
    @usableFromInline nonisolated(unsafe) let declaredSendOffsets: UnsafeMutablePointer<Int32>?
    /// The cancels of the states whose exit actions are all cancels written as data
    /// (``StateFlags/exitCancelsOnly``), each with its identifier and the owner of that
    /// identifier's timers, in order, laid out as ``declaredSends`` is.
    @usableFromInline nonisolated(unsafe) let declaredCancels: UnsafeMutablePointer<DeclaredCancel>?
    @usableFromInline let declaredCancelCount: Int
    @usableFromInline nonisolated(unsafe) let declaredCancelOffsets: UnsafeMutablePointer<Int32>?
    /// The distinct identifiers of the sends in ``declaredSends``, numbered in order of first
    /// appearance: the timer of a send with identifier number `n` has the owner
    /// ``DeclaredIdentifier/owner(ofNumber:)`` of `n`, and no identifier string.
    let declaredIdentifiers: [String]
    /// The number of each of ``declaredIdentifiers``, for a cancel by a string while a send
    /// written as data is pending (``TimerQueue/cancelMatch(ofString:)``).
    let declaredIdentifierNumbers: [String: Int32]
    /// What the scopes of its machines' actions and guards ask of a machine.
    @usableFromInline let scopeOperations: ScopeOperations<State, Event, Context>
    /// The specialised handlers of its live machines' timers and invocations.
    @usableFromInline let liveHooks = LiveHooks()

    init(
        scopeOperations: ScopeOperations<State, Event, Context>, layout: ChartLayout, kindMap: EventKindMap<Event>,
        states: [State?], stateIndices: [State: Int32],
        actions: [Action], guards: [Guard], doneDataMakers: [DoneDataMaker],
        stateData: [StateDataDefinition<State, Event, Context>], name: String, stateNames: [String],
        stateLocations: [SourcePosition?], transitionLocations: [SourcePosition?], userKinds: [Event.Kind?],
        microstepLimit: Int, binder: (@Sendable (inout Context, ProcessedEvent<Event>) -> Void)?,
        startActions: [Action], source: (any Sendable)?, triggers: [TransitionTrigger<Event.Kind>],
        invocations: [InvocationDefinition<State, Event, Context>], invocationOffsets: [Int32]
    ) {
        self.scopeOperations = scopeOperations
        self.layout = layout
        tables = ChartTables(layout, announcesEvents: binder != nil, hasStartActions: !startActions.isEmpty)
        self.kindMap = kindMap
        self.states = states
        self.stateIndices = stateIndices
        actionCount = actions.count
        actionTable = .allocate(capacity: max(actions.count, 1))
        for (index, action) in actions.enumerated() { (actionTable + index).initialize(to: TabledAction(action)) }
        guardCount = guards.count
        guardTable = .allocate(capacity: max(guards.count, 1))
        for (index, condition) in guards.enumerated() { (guardTable + index).initialize(to: TabledGuard(condition)) }
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
        self.invocations = invocations
        self.invocationOffsets = invocationOffsets
        var sends: [DeclaredSend<Event>] = []
        var sendOffsets: [Int32] = []
        var identifiers: [String] = []
        var numbers: [String: Int32] = [:]
        var cancels: [DeclaredCancel] = []
        var cancelOffsets: [Int32] = []
        for state in 0..<layout.stateCount {
            sendOffsets.append(Int32(sends.count))
            cancelOffsets.append(Int32(cancels.count))
            let flags = layout.stateFlags[state]
            if flags.contains(.entrySendsOnly) {
                for position in Int(layout.entryOffsets[state])..<Int(layout.entryOffsets[state + 1]) {
                    let action = actions[Int(layout.entryActions[position])]
                    guard case .delayedSend(let event, let delay, let id) = action.declared else { continue }
                    var owner: Int32 = -1
                    if let id {
                        let number = numbers[id] ?? Int32(identifiers.count)
                        if number == Int32(identifiers.count) {
                            numbers[id] = number
                            identifiers.append(id)
                        }
                        owner = DeclaredIdentifier.owner(ofNumber: number)
                    }
                    sends.append(DeclaredSend(event: event, kind: kindMap.index(of: event), delay: delay, owner: owner))
                }
            }
            if flags.contains(.exitCancelsOnly) {
                for position in Int(layout.exitOffsets[state])..<Int(layout.exitOffsets[state + 1]) {
                    guard case .cancel(let id) = actions[Int(layout.exitActions[position])].declared else { continue }
                    cancels.append(DeclaredCancel(id: id, owner: -1))
                }
            }
        }
        // Numbered once every send is: a cancel may come before the send it cancels.
        cancels = cancels.map { cancel in
            DeclaredCancel(id: cancel.id, owner: numbers[cancel.id].map(DeclaredIdentifier.owner(ofNumber:)) ?? -1)
        }
        declaredIdentifiers = identifiers
        declaredIdentifierNumbers = numbers
        sendOffsets.append(Int32(sends.count))
        cancelOffsets.append(Int32(cancels.count))
        declaredSendCount = sends.count
        declaredSends = Self.table(sends)
        declaredSendOffsets = sends.isEmpty ? nil : Self.table(sendOffsets)
        declaredCancelCount = cancels.count
        declaredCancels = Self.table(cancels)
        declaredCancelOffsets = cancels.isEmpty ? nil : Self.table(cancelOffsets)
    }

    /// The owner of the timers of the sends written as data with `id`, or -1 when there are none.
    @usableFromInline
    func lookUpDeclaredOwner(of id: String) -> Int32 {
        declaredIdentifierNumbers[id].map(DeclaredIdentifier.owner(ofNumber:)) ?? -1
    }

    /// The identifier of the timers of sends written as data with `owner`
    /// (``DeclaredIdentifier/owner(ofNumber:)``).
    func declaredIdentifier(ofOwner owner: Int32) -> String? {
        let number = Int(DeclaredIdentifier.number(ofOwner: owner))
        return declaredIdentifiers.indices.contains(number) ? declaredIdentifiers[number] : nil
    }

    /// `values` in memory allocated for them, or `nil` when there are none.
    static func table<Value>(_ values: [Value]) -> UnsafeMutablePointer<Value>? {
        if values.isEmpty { return nil }
        let table = UnsafeMutablePointer<Value>.allocate(capacity: values.count)
        table.initialize(from: values, count: values.count)
        return table
    }

    deinit {
        declaredSends?.deinitialize(count: declaredSendCount)
        declaredSends?.deallocate()
        declaredSendOffsets?.deallocate()
        declaredCancels?.deinitialize(count: declaredCancelCount)
        declaredCancels?.deallocate()
        declaredCancelOffsets?.deallocate()
        actionTable.deinitialize(count: actionCount)
        actionTable.deallocate()
        guardTable.deinitialize(count: guardCount)
        guardTable.deallocate()
    }
}
