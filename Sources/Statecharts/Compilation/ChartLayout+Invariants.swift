/// Checked invariants of a compiled chart: what the interpreter assumes of the tables and never
/// checks while it runs.
///
/// The interpreter indexes the tables without bounds it could check cheaply (a subtree is an index
/// range, a state's children a slice), so a compiler mistake would read the wrong state, not fail.
/// In debug builds, which is how the tests run, the compiler checks the tables under `assert` once
/// it has built them; release builds compile the check out.
extension ChartLayout {
    /// Whether the tables are consistent; stops the process with the first inconsistency when
    /// they are not. Meant to be called under `assert`.
    func tablesHold(chart name: String) -> Bool {
        guard let problem = tableProblem() else { return true }
        preconditionFailure("the compiled tables of the chart '\(name)' are inconsistent: \(problem)")
    }

    /// The first inconsistency in the tables, described; `nil` when there is none.
    func tableProblem() -> String? {
        let perState = [
            parents.count, kinds.count, subtreeEnds.count, stateFlags.count, depths.count, initialTransitions.count,
            historyDefaults.count, historySlots.count, dataSlots.count,
        ]
        guard perState.allSatisfy({ $0 == stateCount }) else { return "a per-state table has the wrong length" }
        for (name, offsets) in [
            ("child", childOffsets), ("entry action", entryOffsets), ("exit action", exitOffsets),
            ("timeout", timeoutOffsets), ("transition", stateTransitionOffsets), ("eventless", eventlessOffsets),
        ] {
            guard offsets.count == stateCount + 1, offsets.first == 0 else {
                return "the \(name) offsets are incomplete"
            }
            guard zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                return "the \(name) offsets decrease"
            }
        }
        guard stateCount > 0, parents[0] == -1, kinds[0] == .root, depths[0] == 0 else {
            return "state 0 is not the root"
        }
        for state in 0..<stateCount {
            let end = Int(subtreeEnds[state])
            guard end >= state, end < stateCount else { return "state \(state)'s subtree ends outside the chart" }
            if state > 0 {
                let parent = Int(parents[state])
                guard parent >= 0, parent < state else { return "state \(state)'s parent is not before it" }
                guard end <= Int(subtreeEnds[parent]) else { return "state \(state)'s subtree leaves its parent's" }
                guard depths[state] == depths[parent] + 1 else {
                    return "state \(state)'s depth is not its parent's + 1"
                }
            }
            var next = state + 1
            for index in childRange(of: state) {
                let child = Int(children[index])
                guard child == next, Int(parents[child]) == state else {
                    return "state \(state)'s children are not its subtree in document order"
                }
                next = Int(subtreeEnds[child]) + 1
            }
            guard next == end + 1 else { return "state \(state)'s children do not cover its subtree" }
            switch kinds[state] {
            case .root, .compound:
                let initial = Int(initialTransitions[state])
                guard initial >= 0, initial < transitionCount else { return "state \(state) has no initial transition" }
                for target in targetRange(of: initial) where !isDescendant(Int(targets[target]), of: state) {
                    return "state \(state)'s initial transition leaves it"
                }
            case .atomic, .final:
                guard end == state else { return "the atomic state \(state) has children" }
            case .shallowHistory, .deepHistory:
                guard end == state, historySlots[state] >= 0, Int(historySlots[state]) < historySlotCount else {
                    return "the history state \(state) has no slot"
                }
            case .parallel:
                break
            }
        }
        let perTransition = [sources.count, transitionFlags.count, guards.count, actions.count, staticDomains.count]
        guard perTransition.allSatisfy({ $0 == transitionCount }), targetOffsets.count == transitionCount + 1 else {
            return "a per-transition table has the wrong length"
        }
        for transition in 0..<transitionCount {
            let source = Int(sources[transition])
            guard source >= 0, source < stateCount else { return "transition \(transition) has no source" }
            for target in targetRange(of: transition) where targets[target] < 0 || Int(targets[target]) >= stateCount {
                return "transition \(transition) targets a state outside the chart"
            }
            let domain = staticDomains[transition]
            if domain >= 0 {
                guard kinds[Int(domain)].isCompoundOrRoot else {
                    return "transition \(transition)'s domain is not a compound state"
                }
            } else if domain != ChartLayout.noDomain && domain != ChartLayout.dynamicDomain {
                return "transition \(transition) has an unknown domain \(domain)"
            }
        }
        guard entryPlanOffsets.count == transitionCount + 1, hasEntryPlan.count == transitionCount else {
            return "the entry plans are incomplete"
        }
        for transition in 0..<transitionCount where hasEntryPlan[transition] {
            var previous = -1
            for position in Int(entryPlanOffsets[transition])..<Int(entryPlanOffsets[transition + 1]) {
                let state = Int(entryPlans[position] & ~ChartLayout.defaultEntryBit)
                guard state > previous, state < stateCount, !kinds[state].isHistory else {
                    return "transition \(transition)'s entry plan is not in document order"
                }
                previous = state
            }
        }
        return nil
    }
}
