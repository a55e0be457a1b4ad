/// The parts of a step that read the layout struct: kept out of line, so that the per-event
/// path, which reads ``ChartTables``, never copies the layout.
extension ChartStorage {
    /// The domain of a transition that targets a history state.
    @usableFromInline
    func transitionDomain(of transition: Int, history: HistoryValues) -> Int {
        layout.transitionDomain(of: transition, history: history)
    }

    /// The states that `enabled` enter, for transitions whose entry set depends on history.
    @usableFromInline
    func entrySet(of enabled: UnsafeBufferPointer<EnabledTransition>, history: HistoryValues) -> EntrySet {
        var set = EntrySet(capacity: layout.stateCount)
        for transition in enabled where transition.domain >= 0 {
            layout.addEntrySet(
                of: Int(transition.transition), domain: Int(transition.domain), history: history, into: &set)
        }
        return set
    }

    /// Records the history of every active state below `domain` that has history children.
    @usableFromInline
    func recordHistory(below domain: Int, configuration: StateSet, into history: inout HistoryValues) {
        let upper = Int(layout.subtreeEnds[domain])
        var cursor = domain + 1
        while let state = configuration.firstMember(lower: cursor, upper: upper) {
            cursor = state + 1
            guard layout.stateFlags[state].contains(.hasHistoryChildren) else { continue }
            for position in layout.childRange(of: state) {
                let child = Int(layout.children[position])
                let slot = Int(layout.historySlots[child])
                if slot >= 0 { layout.recordHistory(child, configuration: configuration, into: &history[slot]) }
            }
        }
    }

    /// SCXML's `isInFinalState`.
    @usableFromInline
    func isInFinalState(_ state: Int, configuration: StateSet) -> Bool {
        layout.isInFinalState(state, configuration: configuration)
    }

    /// The record of an observed microstep.
    @usableFromInline
    func microstep(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, event: String?, record: MicrostepRecord,
        active: StateSet
    ) -> Microstep<State> {
        let transitions = enabled.map { enabled -> TakenTransition<State> in
            let transition = Int(enabled.transition)
            return TakenTransition(
                source: states[Int(layout.sources[transition])],
                targets: layout.targetRange(of: transition).compactMap { states[Int(layout.targets[$0])] },
                location: transitionLocations[transition], id: transition)
        }
        return Microstep(
            event: event, transitions: transitions, exited: record.exited.compactMap { states[$0] },
            entered: record.entered.compactMap { states[$0] }, configuration: configuration(of: active))
    }

    /// The user's values of the states of `active`, in document order.
    @usableFromInline
    func configuration(of active: StateSet) -> [State] {
        var result: [State] = []
        active.forEachAscending { index in
            if let state = states[index] { result.append(state) }
        }
        return result
    }
}
