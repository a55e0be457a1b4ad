/// What a machine can take now.
extension StateMachine {
    /// The names of the chart's events (``Statechart/eventNames``) that a transition of an active
    /// state or of one of its ancestors takes now, guards aside: what a person at a prompt, or a
    /// menu of actions, may offer.
    ///
    /// - Complexity: O(*s* × *t*) for *s* states and *t* transitions: for tools, not for every
    ///   event of a busy machine.
    public var handledEventNames: [String] {
        guard status == .running else { return [] }
        let analysis = ChartAnalysis(chart, reachability: false)
        var atomic: [Int] = []
        active.forEachAscending { state in
            if chart.layout.kinds[state].isAtomic { atomic.append(state) }
        }
        return analysis.eventNames.filter { name in atomic.contains { analysis.handles($0, name: name) } }
    }
}

extension Statechart {
    /// The names of the chart's events (``eventNames``) that a transition of one of `activeStates`
    /// or of one of their ancestors takes, guards aside: ``StateMachine/handledEventNames`` for a
    /// snapshot's ``MachineSnapshot/activeStates``, read without touching the live machine.
    ///
    /// - Complexity: O(*s* × *t*) for *s* states and *t* transitions: for tools, not for every
    ///   event of a busy machine.
    public func handledEventNames(activeStates: [State]) -> [String] {
        let analysis = ChartAnalysis(storage, reachability: false)
        let indices = activeStates.compactMap { storage.stateIndices[$0] }.map { Int($0) }
        return analysis.eventNames.filter { name in indices.contains { analysis.handles($0, name: name) } }
    }
}
