/// The pure parts of the W3C SCXML algorithm (Appendix D): transition domains, effective targets,
/// entry sets and completion, as functions of the layout, the configuration and the recorded
/// history. Nothing here runs user code.
///
/// Function names follow the specification's: `getTransitionDomain` is ``transitionDomain(of:history:)``,
/// `addDescendantStatesToEnter` is ``addDescendantStatesToEnter(_:history:into:)``, and so on.

/// The recorded history: for each history slot, the states to restore in document order; empty
/// while nothing has been recorded.
@usableFromInline
typealias HistoryValues = [[Int32]]

/// The result of `computeEntrySet`.
@usableFromInline
struct EntrySet {
    /// The states to enter.
    @usableFromInline var states: StateSet
    /// The compound states entered by default, whose initial transition's action runs.
    @usableFromInline var defaultEntry: StateSet
    /// For parents entered through a history default: the default transition, whose action runs.
    @usableFromInline var historyContent: [(parent: Int32, transition: Int32)] = []
    /// Whether the computation read a history state (so it cannot be precomputed).
    @usableFromInline var usedHistory = false

    @usableFromInline
    init(capacity: Int) {
        states = StateSet(capacity: capacity)
        defaultEntry = StateSet(capacity: capacity)
    }
}

extension ChartLayout {
    // MARK: - Targets and domains

    /// `getEffectiveTargetStates`: the targets, with each history state replaced by its recorded
    /// value or its default.
    @usableFromInline
    func effectiveTargets(of transition: Int, history: HistoryValues, into result: inout [Int]) {
        for index in targetRange(of: transition) {
            let target = Int(targets[index])
            if kinds[target].isHistory {
                let slot = Int(historySlots[target])
                if slot < history.count, !history[slot].isEmpty {
                    for state in history[slot] where !result.contains(Int(state)) { result.append(Int(state)) }
                } else {
                    effectiveTargets(of: Int(historyDefaults[target]), history: history, into: &result)
                }
            } else if !result.contains(target) {
                result.append(target)
            }
        }
    }

    /// `getTransitionDomain`: the state whose descendants a transition exits and enters, or
    /// ``ChartLayout/noDomain`` for a targetless transition.
    @usableFromInline
    func transitionDomain(of transition: Int, history: HistoryValues) -> Int {
        let known = staticDomains[transition]
        if known != Self.dynamicDomain { return Int(known) }
        var effective: [Int] = []
        effectiveTargets(of: transition, history: history, into: &effective)
        return domain(source: Int(sources[transition]), flags: transitionFlags[transition], effectiveTargets: effective)
    }

    /// The domain from a transition's source and effective targets.
    func domain(source: Int, flags: TransitionFlags, effectiveTargets effective: [Int]) -> Int {
        if effective.isEmpty { return Int(Self.noDomain) }
        if source == 0 { return 0 }
        if flags.contains(.internal), isCompound(source), effective.allSatisfy({ isDescendant($0, of: source) }) {
            return source
        }
        return leastCommonCompoundAncestor(of: source, and: effective)
    }

    /// `findLCCA`: the nearest proper ancestor of `head` that is compound (or the root) and has
    /// every state of `tail` as a descendant.
    func leastCommonCompoundAncestor(of head: Int, and tail: [Int]) -> Int {
        var ancestor = Int(parents[head])
        while ancestor > 0 {
            if kinds[ancestor].isCompoundOrRoot, tail.allSatisfy({ isDescendant($0, of: ancestor) }) {
                return ancestor
            }
            ancestor = Int(parents[ancestor])
        }
        return 0
    }

    // MARK: - Entry

    /// `computeEntrySet` for one transition whose domain is `domain`.
    @usableFromInline
    func addEntrySet(of transition: Int, domain: Int, history: HistoryValues, into set: inout EntrySet) {
        for index in targetRange(of: transition) {
            addDescendantStatesToEnter(Int(targets[index]), history: history, into: &set)
        }
        var effective: [Int] = []
        effectiveTargets(of: transition, history: history, into: &effective)
        for state in effective {
            addAncestorStatesToEnter(state, ancestor: domain, history: history, into: &set)
        }
    }

    /// `addDescendantStatesToEnter`.
    @usableFromInline
    func addDescendantStatesToEnter(_ state: Int, history: HistoryValues, into set: inout EntrySet) {
        if kinds[state].isHistory {
            set.usedHistory = true
            let parent = Int(parents[state])
            let slot = Int(historySlots[state])
            if slot < history.count, !history[slot].isEmpty {
                for restored in history[slot] {
                    addDescendantStatesToEnter(Int(restored), history: history, into: &set)
                }
                for restored in history[slot] {
                    addAncestorStatesToEnter(Int(restored), ancestor: parent, history: history, into: &set)
                }
            } else {
                let fallback = Int(historyDefaults[state])
                set.historyContent.append((Int32(parent), Int32(fallback)))
                for index in targetRange(of: fallback) {
                    addDescendantStatesToEnter(Int(targets[index]), history: history, into: &set)
                }
                for index in targetRange(of: fallback) {
                    addAncestorStatesToEnter(Int(targets[index]), ancestor: parent, history: history, into: &set)
                }
            }
            return
        }
        set.states.insert(state)
        switch kinds[state] {
        case .compound:
            set.defaultEntry.insert(state)
            let initial = Int(initialTransitions[state])
            for index in targetRange(of: initial) {
                addDescendantStatesToEnter(Int(targets[index]), history: history, into: &set)
            }
            for index in targetRange(of: initial) {
                addAncestorStatesToEnter(Int(targets[index]), ancestor: state, history: history, into: &set)
            }
        case .parallel:
            enterRegions(of: state, history: history, into: &set)
        default:
            break
        }
    }

    /// `addAncestorStatesToEnter`: the proper ancestors of `state` below `ancestor`, and the
    /// regions of any parallel state among them.
    @usableFromInline
    func addAncestorStatesToEnter(_ state: Int, ancestor: Int, history: HistoryValues, into set: inout EntrySet) {
        var current = Int(parents[state])
        while current > 0, current != ancestor {
            set.states.insert(current)
            if kinds[current] == .parallel {
                enterRegions(of: current, history: history, into: &set)
            }
            current = Int(parents[current])
        }
    }

    /// Adds the default entry of every region of `parallel` that nothing entered yet.
    func enterRegions(of parallel: Int, history: HistoryValues, into set: inout EntrySet) {
        for index in childRange(of: parallel) {
            let child = Int(children[index])
            if kinds[child].isHistory { continue }
            if !set.states.intersects(lower: child + 1, upper: Int(subtreeEnds[child])) {
                addDescendantStatesToEnter(child, history: history, into: &set)
            }
        }
    }

    // MARK: - Completion

    /// `isInFinalState`: a compound state whose active child is final, or a parallel state all
    /// of whose regions are in a final state.
    @usableFromInline
    func isInFinalState(_ state: Int, configuration: StateSet) -> Bool {
        switch kinds[state] {
        case .compound:
            for index in childRange(of: state) {
                let child = Int(children[index])
                if kinds[child] == .final, configuration.contains(child) { return true }
            }
            return false
        case .parallel:
            for index in childRange(of: state) {
                let child = Int(children[index])
                if kinds[child].isHistory { continue }
                if !isInFinalState(child, configuration: configuration) { return false }
            }
            return true
        default:
            return false
        }
    }

    // MARK: - History

    /// The value a history state records when its parent is exited.
    @usableFromInline
    func recordHistory(_ historyState: Int, configuration: StateSet, into value: inout [Int32]) {
        value.removeAll(keepingCapacity: true)
        let parent = Int(parents[historyState])
        let deep = kinds[historyState] == .deepHistory
        let upper = Int(subtreeEnds[parent])
        var state = parent + 1
        while state <= upper {
            if configuration.contains(state) {
                if deep {
                    if kinds[state].isAtomic { value.append(Int32(state)) }
                } else if Int(parents[state]) == parent {
                    value.append(Int32(state))
                    state = Int(subtreeEnds[state]) + 1
                    continue
                }
            } else {
                state = Int(subtreeEnds[state]) + 1
                continue
            }
            state += 1
        }
    }
}
