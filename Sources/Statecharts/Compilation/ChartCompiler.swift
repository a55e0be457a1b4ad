/// Turns a chart's definition into its ``ChartStorage``: flattens the state tree into document
/// order, validates it, numbers the transitions and builds the tables the interpreter reads.
///
/// Every problem is collected; compilation fails only at the end, with all of them.
struct ChartCompiler<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    typealias Element = ChartElement<State, Event, Context>
    /// Closures leave the definition wrapped, before any array holds them (see ``StoredAction``).
    typealias Action = StoredAction<State, Event, Context>
    typealias Guard = StoredGuard<State, Event, Context>

    /// A state of the definition, flattened.
    struct FlatState {
        var id: State?
        var declaredKind: StateKind
        var historyType: HistoryType = .shallow
        var initial: [State] = []
        var initialElements: [(targets: [State], action: Action?, location: SourcePosition?)] = []
        var transitions: [TransitionDefinition<State, Event, Context>] = []
        var entry: [Action] = []
        var exit: [Action] = []
        var stateData: [StateDataDefinition<State, Event, Context>] = []
        var doneData: [ChartStorage<State, Event, Context>.DoneDataMaker] = []
        var invocations: [InvocationDefinition<State, Event, Context>] = []
        var location: SourcePosition?
        var parent: Int
        var depth: Int
        var children: [Int] = []
        var subtreeEnd = 0
    }

    let name: String
    let initial: [State]
    var binder: (@Sendable (inout Context, ProcessedEvent<Event>) -> Void)?
    var source: (any Sendable)?
    var startActions: [Action] = []
    let maximumDepth: Int
    let microstepLimit: Int

    var problems: [ChartProblem] = []
    var flat: [FlatState] = []
    var indexOf: [State: Int] = [:]
    var names: [String] = []
    var layout = ChartLayout()
    var actions: [Action] = []
    var guards: [Guard] = []
    var doneDataMakers: [ChartStorage<State, Event, Context>.DoneDataMaker] = []
    var stateDataDefinitions: [StateDataDefinition<State, Event, Context>] = []
    var invocations: [InvocationDefinition<State, Event, Context>] = []
    /// For each state, where its invocations start in ``invocations``; one more entry at the end.
    var invocationOffsets: [Int32] = []
    var transitionLocations: [SourcePosition?] = []
    /// For each transition, its targets (the layout's table is complete only at the end).
    var resolvedTargets: [[Int]] = []
    /// For each transition, its definition's trigger (structural transitions: `.eventless`).
    var triggers: [TransitionTrigger<Event.Kind>] = []

    init(name: String, initial: [State], maximumDepth: Int, microstepLimit: Int) {
        self.name = name
        self.initial = initial
        self.maximumDepth = maximumDepth
        self.microstepLimit = microstepLimit
    }

    /// Compiles `elements`, the top level of the chart.
    mutating func compile(
        _ elements: [Element], operations: ScopeOperations<State, Event, Context>
    ) throws(ChartValidationError) -> ChartStorage<State, Event, Context> {
        flatten(elements)
        if flat.count == 1 {
            problems.append(ChartProblem(code: .emptyChart, message: "the chart '\(name)' has no states"))
        }
        indexStates()
        classifyStates()
        buildTransitions()
        // The tables below follow initial states, history defaults and targets; they are only
        // built for a chart whose structure is valid, where every such walk terminates.
        if !problems.isEmpty { throw ChartValidationError(problems: problems) }
        let kinds = buildKinds()
        buildDispatch(kinds: kinds)
        buildPlans()
        layout.computeSummaries()
        // Debug builds only (see ChartLayout+Invariants.swift).
        assert(layout.tablesHold(chart: name))
        return ChartStorage(
            scopeOperations: operations,
            layout: layout, kindMap: kinds.map, states: flat.map(\.id), stateIndices: indexOf.mapValues { Int32($0) },
            actions: actions, guards: guards, doneDataMakers: doneDataMakers, stateData: stateDataDefinitions,
            name: name, stateNames: names, stateLocations: flat.map(\.location),
            transitionLocations: transitionLocations, userKinds: kinds.userKinds, microstepLimit: microstepLimit,
            binder: binder, startActions: startActions, source: source, triggers: triggers,
            invocations: invocations, invocationOffsets: invocationOffsets)
    }

    // MARK: - Flattening

    /// Numbers the states in document order (pre-order), without recursion.
    mutating func flatten(_ elements: [Element]) {
        flat = [FlatState(id: nil, declaredKind: .state, parent: -1, depth: 0)]
        var stack: [(elements: [Element], cursor: Int, state: Int)] = [(elements, 0, 0)]
        while let top = stack.last {
            if top.cursor == top.elements.count {
                flat[top.state].subtreeEnd = flat.count - 1
                stack.removeLast()
                continue
            }
            let element = top.elements[top.cursor]
            stack[stack.count - 1].cursor += 1
            let owner = top.state
            switch element.content {
            case .node(let node):
                let depth = flat[owner].depth + 1
                if depth > maximumDepth {
                    problems.append(
                        ChartProblem(
                            code: .nestingTooDeep,
                            message: "states are nested more than \(maximumDepth) deep at '\(node.id)'",
                            state: "\(node.id)", location: node.location))
                    continue
                }
                let index = flat.count
                flat.append(
                    FlatState(
                        id: node.id, declaredKind: node.kind, historyType: node.historyType, initial: node.initial,
                        location: node.location, parent: owner, depth: depth))
                flat[owner].children.append(index)
                stack.append((node.elements, 0, index))
            case .transition(let transition):
                if owner == 0, case .after = transition.trigger {
                    problems.append(
                        ChartProblem(
                            code: .misplacedElement,
                            message:
                                "a timeout is at the top of the chart '\(name)', which is never entered to arm it; put it in a state",
                            location: transition.location))
                } else {
                    flat[owner].transitions.append(transition)
                }
            case .start(let action):
                if owner == 0 {
                    startActions.append(Action(action))
                } else {
                    problems.append(
                        ChartProblem(
                            code: .misplacedElement,
                            message:
                                "a start action is in '\(flat[owner].id.map { "\($0)" } ?? name)'; start actions belong at the top of the chart",
                            state: flat[owner].id.map { "\($0)" }, location: flat[owner].location))
                }
            case .entry(let action, let declared):
                if owner == 0 {
                    misplaced("an entry action", location: nil)
                } else {
                    flat[owner].entry.append(Action(action, declared: declared))
                }
            case .exit(let action, let declared):
                if owner == 0 {
                    misplaced("an exit action", location: nil)
                } else {
                    flat[owner].exit.append(Action(action, declared: declared))
                }
            case .initial(let targets, let action, let location):
                if owner == 0 {
                    misplaced("an initial transition", location: location)
                } else {
                    flat[owner].initialElements.append((targets, Action.wrapping(action), location))
                }
            case .stateData(let definition):
                if owner == 0 {
                    misplaced("state data", location: nil)
                } else {
                    flat[owner].stateData.append(definition)
                }
            case .doneData(let make):
                if owner == 0 {
                    misplaced("done data", location: nil)
                } else {
                    flat[owner].doneData.append(StoredDoneData(make))
                }
            case .invoke(let definition):
                if owner == 0 {
                    misplaced("an invocation", location: definition.location)
                } else {
                    flat[owner].invocations.append(definition)
                }
            }
        }
    }

    mutating func misplaced(_ what: String, location: SourcePosition?) {
        problems.append(
            ChartProblem(
                code: .misplacedElement,
                message:
                    "\(what) is at the top of the chart '\(name)', which is never entered or exited; put it in a state",
                location: location))
    }

    mutating func indexStates() {
        names = flat.map { state in state.id.map { "\($0)" } ?? name }
        for index in 1..<flat.count {
            guard let id = flat[index].id else { continue }
            if let first = indexOf[id] {
                let firstPlace = flat[first].location.map { " (first declared at \($0))" } ?? ""
                problems.append(
                    ChartProblem(
                        code: .duplicateState, message: "the state '\(id)' is declared more than once\(firstPlace)",
                        state: names[index], location: flat[index].location))
            } else {
                indexOf[id] = index
            }
        }
    }

    // MARK: - States

    /// Fills the state tables and checks each state's own rules.
    mutating func classifyStates() {
        let count = flat.count
        layout.stateCount = count
        layout.parents = flat.map { Int32($0.parent) }
        layout.subtreeEnds = flat.map { Int32($0.subtreeEnd) }
        layout.depths = flat.map { Int32($0.depth) }
        layout.kinds = (0..<count).map { kind(of: $0) }
        layout.childOffsets = []
        layout.children = []
        for state in flat {
            layout.childOffsets.append(Int32(layout.children.count))
            layout.children.append(contentsOf: state.children.map { Int32($0) })
        }
        layout.childOffsets.append(Int32(layout.children.count))

        layout.stateFlags = Array(repeating: [], count: count)
        layout.historySlots = Array(repeating: -1, count: count)
        layout.dataSlots = Array(repeating: -1, count: count)
        layout.doneDataIndices = Array(repeating: -1, count: count)
        for index in 0..<count {
            check(index)
            var flags: StateFlags = []
            let state = flat[index]
            if !state.entry.isEmpty { flags.insert(.hasEntryActions) }
            if !state.exit.isEmpty { flags.insert(.hasExitActions) }
            // Entry and exit actions that are all delayed sends, or all cancels, written as data:
            // the quick step does them itself (``DeclaredTimerAction``).
            if !state.entry.isEmpty, state.entry.allSatisfy({ $0.declared?.isDelayedSend ?? false }) {
                flags.insert(.entrySendsOnly)
            }
            if !state.exit.isEmpty, state.exit.allSatisfy({ $0.declared?.isCancel ?? false }) {
                flags.insert(.exitCancelsOnly)
            }
            if layout.kinds[index] == .final { flags.insert(.isFinal) }
            if state.declaredKind == .parallel && index != 0 { flags.insert(.declaredParallel) }
            if state.children.contains(where: { layout.kinds[$0].isHistory }) { flags.insert(.hasHistoryChildren) }
            if state.transitions.contains(where: { if case .after = $0.trigger { true } else { false } }) {
                flags.insert(.hasTimeouts)
            }
            if let data = state.stateData.first {
                flags.insert(.hasStateData)
                layout.dataSlots[index] = Int32(stateDataDefinitions.count)
                stateDataDefinitions.append(data)
            }
            if let make = state.doneData.first, layout.kinds[index] == .final {
                layout.doneDataIndices[index] = Int32(doneDataMakers.count)
                doneDataMakers.append(make)
            }
            invocationOffsets.append(Int32(invocations.count))
            if !state.invocations.isEmpty {
                flags.insert(.hasInvocations)
                invocations.append(contentsOf: state.invocations)
            }
            if layout.kinds[index].isHistory {
                layout.historySlots[index] = Int32(layout.historySlotCount)
                layout.historySlotCount += 1
            }
            layout.stateFlags[index] = flags
        }
        invocationOffsets.append(Int32(invocations.count))
        layout.dataSlotCount = stateDataDefinitions.count

        layout.entryOffsets = []
        layout.exitOffsets = []
        for state in flat {
            layout.entryOffsets.append(Int32(layout.entryActions.count))
            for action in state.entry {
                layout.entryActions.append(Int32(actions.count))
                actions.append(action)
            }
            layout.exitOffsets.append(Int32(layout.exitActions.count))
            for action in state.exit {
                layout.exitActions.append(Int32(actions.count))
                actions.append(action)
            }
        }
        layout.entryOffsets.append(Int32(layout.entryActions.count))
        layout.exitOffsets.append(Int32(layout.exitActions.count))
    }

    func kind(of index: Int) -> LayoutStateKind {
        if index == 0 { return .root }
        let state = flat[index]
        switch state.declaredKind {
        case .parallel:
            // A parallel state without child states is atomic (SCXML's `isAtomicState`): it takes
            // events itself, as a state without children does.
            return state.children.contains(where: { flat[$0].declaredKind != .history }) ? .parallel : .atomic
        case .final: return .final
        case .history: return state.historyType == .deep ? .deepHistory : .shallowHistory
        case .state:
            return state.children.contains(where: { flat[$0].declaredKind != .history }) ? .compound : .atomic
        }
    }

    func isHistory(_ index: Int) -> Bool { flat[index].declaredKind == .history && index != 0 }

    /// Checks the rules that concern one state alone.
    mutating func check(_ index: Int) {
        guard index != 0 else { return }
        let state = flat[index]
        let name = names[index]
        let location = state.location
        func report(_ code: ChartProblem.Code, _ message: String) {
            problems.append(ChartProblem(code: code, message: message, state: name, location: location))
        }
        switch state.declaredKind {
        case .history:
            if layout.kinds[state.parent] == .parallel || layout.kinds[state.parent] == .compound {
                break
            }
            if state.parent == 0 {
                report(
                    .invalidHistory,
                    "the history state '\(name)' is at the top of the chart; a history state belongs to a compound or parallel state"
                )
            } else {
                report(
                    .invalidHistory,
                    "the history state '\(name)' is in '\(names[state.parent])', which has no child states to remember")
            }
        case .final:
            if !state.transitions.isEmpty {
                report(
                    .invalidFinalState,
                    "the final state '\(name)' has transitions; a final state cannot be left by its own transitions")
            }
            if !state.children.isEmpty {
                report(.invalidFinalState, "the final state '\(name)' has child states; a final state is atomic")
            }
            if !state.initial.isEmpty || !state.initialElements.isEmpty {
                report(.invalidInitial, "the final state '\(name)' has an initial state; a final state is atomic")
            }
        case .parallel:
            if !state.initial.isEmpty || !state.initialElements.isEmpty {
                report(
                    .invalidInitial,
                    "the parallel state '\(name)' has an initial state; all of a parallel state's regions are entered")
            }
        case .state:
            let hasChildStates = state.children.contains { flat[$0].declaredKind != .history }
            if !hasChildStates {
                if !state.children.isEmpty {
                    report(
                        .noChildStates,
                        "the state '\(name)' has history states but no child states for them to remember")
                }
                if !state.initial.isEmpty || !state.initialElements.isEmpty {
                    report(.invalidInitial, "the state '\(name)' has an initial state but no child states")
                }
            }
            if !state.initial.isEmpty && !state.initialElements.isEmpty {
                report(
                    .invalidInitial, "the state '\(name)' has both an initial argument and an Initial element; give one"
                )
            }
            if state.initialElements.count > 1 {
                report(
                    .invalidInitial, "the state '\(name)' has \(state.initialElements.count) Initial elements; give one"
                )
            }
        }
        if state.declaredKind != .final && !state.doneData.isEmpty {
            report(.misplacedElement, "the state '\(name)' has done data, which only a final state can have")
        }
        if state.doneData.count > 1 {
            report(
                .misplacedElement, "the final state '\(name)' has \(state.doneData.count) DoneData elements; give one")
        }
        if state.stateData.count > 1 {
            report(.misplacedElement, "the state '\(name)' has \(state.stateData.count) StateData elements; give one")
        }
        if state.declaredKind == .history && (!state.entry.isEmpty || !state.exit.isEmpty || !state.stateData.isEmpty) {
            report(
                .misplacedElement, "the history state '\(name)' has actions or data; a history state is never active")
        }
    }
}
