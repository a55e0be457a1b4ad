/// Reading a chart's structure: what checks, pictures and tools are built on.
extension Statechart {
    /// The kind of `state`, or `nil` if the chart has no such state.
    public func kind(of state: State) -> StateKind? {
        guard let index = storage.stateIndices[state] else { return nil }
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
