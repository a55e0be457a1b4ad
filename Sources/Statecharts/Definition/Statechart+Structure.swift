/// Reading a chart's structure: what checks, pictures and tools are built on.
extension Statechart {
    /// The kind of `state`, or `nil` if the chart has no such state.
    public func kind(of state: State) -> StateKind? {
        guard let index = storage.stateIndices[state] else { return nil }
        if storage.layout.stateFlags[Int(index)].contains(.declaredParallel) { return .parallel }
        switch storage.layout.kinds[Int(index)] {
        case .atomic, .compound, .root: return .state
        case .parallel: return .parallel
        case .final: return .final
        case .shallowHistory, .deepHistory: return .history
        }
    }

    /// Whether `state` has child states (history states aside): compound and parallel states do.
    public func hasChildStates(_ state: State) -> Bool {
        guard let index = storage.stateIndices[state] else { return false }
        let kind = storage.layout.kinds[Int(index)]
        return kind == .compound || kind == .parallel
    }

    /// The type of the history state `state`; `nil` for other states.
    public func historyType(of state: State) -> HistoryType? {
        guard let index = storage.stateIndices[state] else { return nil }
        switch storage.layout.kinds[Int(index)] {
        case .shallowHistory: return .shallow
        case .deepHistory: return .deep
        default: return nil
        }
    }

    /// The parent of `state`; `nil` for top-level states and states the chart lacks.
    public func parent(of state: State) -> State? {
        guard let index = storage.stateIndices[state] else { return nil }
        let parent = Int(storage.layout.parents[Int(index)])
        return parent > 0 ? storage.states[parent] : nil
    }

    /// The children of `state` (history states included), in document order; the top-level
    /// states when `state` is `nil`.
    public func children(of state: State?) -> [State] {
        let index: Int
        if let state {
            guard let found = storage.stateIndices[state] else { return [] }
            index = Int(found)
        } else {
            index = 0
        }
        return storage.layout.childRange(of: index).compactMap { storage.states[Int(storage.layout.children[$0])] }
    }

    /// The states a compound state (or, for `nil`, the chart) enters by default.
    public func initialStates(of state: State?) -> [State] {
        let index: Int
        if let state {
            guard let found = storage.stateIndices[state] else { return [] }
            index = Int(found)
        } else {
            index = 0
        }
        let transition = Int(storage.layout.initialTransitions[index])
        guard transition >= 0 else { return [] }
        return storage.layout.targetRange(of: transition).compactMap { storage.states[Int(storage.layout.targets[$0])] }
    }
}

/// A transition of a chart, as written: what pictures, checks and writers read.
public struct TransitionInfo<State: Hashable, Event: StatechartEvent> where Event.Kind: Hashable {
    /// The state it belongs to; `nil` for a transition of the chart itself.
    public var source: State?
    /// What fires it.
    public var trigger: TransitionTrigger<Event.Kind>
    /// Its targets (history states included); empty for a targetless transition.
    public var targets: [State]
    /// Its type.
    public var type: TransitionType
    /// Whether it has a guard.
    public var hasGuard: Bool
    /// Whether it has an action.
    public var hasAction: Bool
    /// Where it was written.
    public var location: SourcePosition?
    /// Which transition of the chart it is: a ``TakenTransition`` of the same transition has the
    /// same identifier.
    public var id: Int

    /// The names of the events that fire it, as SCXML writes them: kind names and descriptors.
    public var eventNames: [String] {
        guard case .events(let patterns) = trigger else { return [] }
        return patterns.map { pattern in
            switch pattern {
            case .kind(let kind): return Event.name(of: kind)
            case .descriptor(let descriptor): return descriptor.pattern
            }
        }
    }
}

extension Statechart {
    /// The transitions of `state` (of the chart itself for `nil`), in document order; initial
    /// transitions and history defaults are not included (see ``initialStates(of:)`` and
    /// ``historyDefault(of:)``).
    public func transitions(of state: State?) -> [TransitionInfo<State, Event>] {
        let index: Int
        if let state {
            guard let found = storage.stateIndices[state] else { return [] }
            index = Int(found)
        } else {
            index = 0
        }
        let layout = storage.layout
        var result: [TransitionInfo<State, Event>] = []
        for transition in 0..<layout.transitionCount where Int(layout.sources[transition]) == index {
            let flags = layout.transitionFlags[transition]
            if flags.contains(.structural) { continue }
            result.append(info(of: transition))
        }
        return result
    }

    /// Every transition of the chart, in document order.
    public var allTransitions: [TransitionInfo<State, Event>] {
        let layout = storage.layout
        return (0..<layout.transitionCount).filter { !layout.transitionFlags[$0].contains(.structural) }.map(info(of:))
    }

    /// The default of the history state `state`: where it goes while nothing is recorded.
    public func historyDefault(of state: State) -> TransitionInfo<State, Event>? {
        guard let index = storage.stateIndices[state] else { return nil }
        let transition = Int(storage.layout.historyDefaults[Int(index)])
        return transition >= 0 ? info(of: transition) : nil
    }

    /// Whether the initial transition of `state` (or of the chart, for `nil`) has an action
    /// (an ``Initial`` element with one).
    public func hasInitialAction(_ state: State?) -> Bool {
        let index = state.flatMap { storage.stateIndices[$0] }.map(Int.init) ?? 0
        let transition = Int(storage.layout.initialTransitions[index])
        return transition >= 0 && storage.layout.actions[transition] >= 0
    }

    /// How many entry and exit actions `state` has, and whether it has state data or done data.
    public func actions(of state: State) -> StateActions {
        guard let found = storage.stateIndices[state] else { return StateActions() }
        let index = Int(found)
        let layout = storage.layout
        return StateActions(
            entry: Int(layout.entryOffsets[index + 1] - layout.entryOffsets[index]),
            exit: Int(layout.exitOffsets[index + 1] - layout.exitOffsets[index]),
            hasStateData: layout.dataSlots[index] >= 0, hasDoneData: layout.doneDataIndices[index] >= 0)
    }

    /// Where `state` was written.
    public func location(of state: State) -> SourcePosition? {
        storage.stateIndices[state].flatMap { storage.stateLocations[Int($0)] }
    }

    /// The name of the kind `kind`.
    public func name(of kind: Event.Kind) -> String { Event.name(of: kind) }

    func info(of transition: Int) -> TransitionInfo<State, Event> {
        let layout = storage.layout
        let source = Int(layout.sources[transition])
        return TransitionInfo(
            source: storage.states[source], trigger: storage.triggers[transition],
            targets: layout.targetRange(of: transition).compactMap { storage.states[Int(layout.targets[$0])] },
            type: layout.transitionFlags[transition].contains(.internal) ? .internal : .external,
            hasGuard: layout.guards[transition] >= 0, hasAction: layout.actions[transition] >= 0,
            location: storage.transitionLocations[transition], id: transition)
    }
}

/// The actions and data a state has.
public struct StateActions: Sendable, Hashable {
    /// The number of entry actions.
    public var entry = 0
    /// The number of exit actions.
    public var exit = 0
    /// Whether the state holds ``StateData``.
    public var hasStateData = false
    /// Whether the (final) state has ``DoneData``.
    public var hasDoneData = false
}

extension TransitionInfo: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable {}
