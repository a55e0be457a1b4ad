/// Checks of a chart before it runs.
extension Statechart {
    /// What the checks find in this chart, most serious first, then in document order.
    ///
    /// The checks read only the chart's structure: a guard is assumed to be able to pass, and a
    /// history state to restore only states entered before. Each finding is a
    /// ``ChartDiagnostic`` with the state and the source position concerned:
    ///
    /// - ``ChartDiagnostic/Code/unreachableState``: no sequence of events enters the state.
    /// - ``ChartDiagnostic/Code/unreachableFinalState``: the same, for a final state.
    /// - ``ChartDiagnostic/Code/trap``: an atomic state, not final, that nothing leaves once
    ///   entered: no transition of it, of an ancestor or of a parallel region beside it exits it.
    /// - ``ChartDiagnostic/Code/shadowedTransition``: a transition that never fires because an
    ///   earlier unguarded transition of the same state takes every event it would (a wildcard,
    ///   a descriptor that covers it, an earlier eventless or `done` transition, or a shorter
    ///   timeout that leaves the state).
    /// - ``ChartDiagnostic/Code/conflictingTransitions``: two unguarded transitions of one state
    ///   on the same event; only the first ever fires.
    /// - ``ChartDiagnostic/Code/conflictingRegions``: unguarded transitions in two regions of a
    ///   parallel state on the same event that both leave it; only the first in document order is
    ///   taken.
    /// - ``ChartDiagnostic/Code/neverCompletes``: a state with ``OnDone`` transitions that can
    ///   never complete.
    ///
    /// For the events each state ignores, see ``completenessTable()``.
    public func diagnostics() -> [ChartDiagnostic<State>] {
        let analysis = ChartAnalysis(storage)
        var found = analysis.reachabilityDiagnostics()
        found += analysis.trapDiagnostics()
        found += analysis.transitionDiagnostics()
        found += analysis.regionDiagnostics()
        found += analysis.completionDiagnostics()
        return found.enumerated().sorted { first, second in
            if first.element.severity != second.element.severity {
                return first.element.severity > second.element.severity
            }
            let firstLine = first.element.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let secondLine = second.element.location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            if firstLine != secondLine { return firstLine < secondLine }
            return first.offset < second.offset
        }.map(\.element)
    }

    /// The states that some sequence of events enters, in document order (history states
    /// excluded), assuming every guard can pass.
    public var reachableStates: [State] {
        let analysis = ChartAnalysis(storage)
        return (0..<storage.layout.stateCount).filter { analysis.isState($0) && analysis.reachable[$0] }
            .compactMap { storage.states[$0] }
    }

    /// The names of the events a user can send that this chart knows: every kind of the event
    /// type, then every name its transitions mention. Events the engine raises (`done.*`,
    /// `error.*`) are left out.
    public var eventNames: [String] { ChartAnalysis(storage, reachability: false).eventNames }

    /// The names of ``eventNames`` that `state` or one of its ancestors has a transition for
    /// (guarded or not).
    public func handledEventNames(in state: State) -> [String] {
        guard let index = storage.stateIndices[state] else { return [] }
        let analysis = ChartAnalysis(storage, reachability: false)
        return analysis.eventNames.filter { analysis.handles(Int(index), name: $0) }
    }
}
