/// The compiled form of a chart: dense integer tables that the interpreter reads.
///
/// States are numbered in document order, with the chart's root (SCXML's `<scxml>`) as state 0,
/// so that the descendants of state `s` are exactly the states `s + 1 ... subtreeEnds[s]`. A
/// descendant test, a subtree, an exit set and the exit and entry orders are all index
/// arithmetic. Transitions are numbered state by state, in document order within each state.
///
/// Nothing here depends on the user's types: ``ChartStorage`` adds the user's values and closures.
/// The compiler fills the tables in phases; afterwards they never change.
@usableFromInline
struct ChartLayout: Sendable {
    // MARK: - States

    @usableFromInline var stateCount = 0
    /// The parent of each state; -1 for the root.
    @usableFromInline var parents: [Int32] = []
    @usableFromInline var kinds: [LayoutStateKind] = []
    /// The last descendant of each state (itself when it has none).
    @usableFromInline var subtreeEnds: [Int32] = []
    /// The children of state `s` are `children[childOffsets[s] ..< childOffsets[s + 1]]`.
    @usableFromInline var childOffsets: [Int32] = []
    @usableFromInline var children: [Int32] = []
    @usableFromInline var stateFlags: [StateFlags] = []
    /// Depth below the root (the root is 0).
    @usableFromInline var depths: [Int32] = []
    /// For compound states and the root: the initial transition; -1 otherwise.
    @usableFromInline var initialTransitions: [Int32] = []
    /// For history states: the default transition; -1 otherwise.
    @usableFromInline var historyDefaults: [Int32] = []
    /// For history states: where its recorded value is kept; -1 otherwise.
    @usableFromInline var historySlots: [Int32] = []
    @usableFromInline var historySlotCount = 0
    /// Entry actions of state `s`: `entryActions[entryOffsets[s] ..< entryOffsets[s + 1]]`,
    /// as indices into the chart's actions.
    @usableFromInline var entryOffsets: [Int32] = []
    @usableFromInline var entryActions: [Int32] = []
    @usableFromInline var exitOffsets: [Int32] = []
    @usableFromInline var exitActions: [Int32] = []
    /// For states with state data: the slot that holds it; -1 otherwise.
    @usableFromInline var dataSlots: [Int32] = []
    @usableFromInline var dataSlotCount = 0
    /// For final states with done data: index of the closure; -1 otherwise.
    @usableFromInline var doneDataIndices: [Int32] = []
    /// For compound and parallel states: the event kind of `done.state.ID`; -1 otherwise.
    @usableFromInline var doneKinds: [Int32] = []
    /// Timeout transitions of state `s`: `timeouts[timeoutOffsets[s] ..< timeoutOffsets[s + 1]]`.
    @usableFromInline var timeoutOffsets: [Int32] = []
    @usableFromInline var timeouts: [Int32] = []

    // MARK: - Transitions

    @usableFromInline var transitionCount = 0
    @usableFromInline var sources: [Int32] = []
    /// Targets of transition `t`: `targets[targetOffsets[t] ..< targetOffsets[t + 1]]`.
    @usableFromInline var targetOffsets: [Int32] = []
    @usableFromInline var targets: [Int32] = []
    @usableFromInline var transitionFlags: [TransitionFlags] = []
    /// Index of the guard closure; -1 for none.
    @usableFromInline var guards: [Int32] = []
    /// Index of the action closure; -1 for none.
    @usableFromInline var actions: [Int32] = []
    /// The transition domain when it does not depend on history: ``noDomain`` for a targetless
    /// transition, ``dynamicDomain`` when it must be computed at run time.
    @usableFromInline var staticDomains: [Int32] = []
    /// For timeout transitions: the delay in nanoseconds; 0 otherwise.
    @usableFromInline var timeoutDelays: [Int64] = []
    /// For timeout transitions: their private event kind; -1 otherwise.
    @usableFromInline var timeoutKinds: [Int32] = []
    /// Event patterns of each transition by name, to match event names that were unknown when
    /// the chart was compiled.
    @usableFromInline var nameDescriptors: [[EventDescriptor]] = []
    /// Precomputed entry sets: transition `t` enters `entryPlans[entryPlanOffsets[t] ..<
    /// entryPlanOffsets[t + 1]]`, ascending, each with ``defaultEntryBit`` set when the state is
    /// entered by default. Valid only when `hasEntryPlan[t]`: its entry set does not depend on history.
    @usableFromInline var entryPlanOffsets: [Int32] = []
    @usableFromInline var entryPlans: [Int32] = []
    @usableFromInline var hasEntryPlan: [Bool] = []

    // MARK: - Selection

    /// Selectable event transitions of state `s`, in document order.
    @usableFromInline var stateTransitionOffsets: [Int32] = []
    @usableFromInline var stateTransitions: [Int32] = []
    /// Eventless transitions of state `s`, in document order.
    @usableFromInline var eventlessOffsets: [Int32] = []
    @usableFromInline var eventless: [Int32] = []
    /// The transitions of each state for each event kind.
    @usableFromInline var dispatch = TransitionDispatch()

    // MARK: - Event kinds

    @usableFromInline var kindCount = 0
    @usableFromInline var kindNames: [String] = []
    @usableFromInline var errorExecutionKind: Int32 = -1
    @usableFromInline var errorCommunicationKind: Int32 = -1

    // MARK: - Summaries

    /// The atomic states (no child states; finals included).
    @usableFromInline var atomicMask = StateSet(capacity: 0)
    /// States that have, or have an ancestor with, eventless transitions.
    @usableFromInline var eventlessChainMask = StateSet(capacity: 0)
    @usableFromInline var hasEventlessTransitions = false
    /// The most atomic states that can be active at once.
    @usableFromInline var maximumActiveAtomicStates = 1

    @inlinable static var noDomain: Int32 { -1 }
    @inlinable static var dynamicDomain: Int32 { -2 }
    @inlinable static var defaultEntryBit: Int32 { 1 << 30 }
}

// MARK: - Small queries

extension ChartLayout {
    @inlinable
    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        state > ancestor && state <= Int(subtreeEnds[ancestor])
    }

    @inlinable
    func childRange(of state: Int) -> Range<Int> {
        Int(childOffsets[state])..<Int(childOffsets[state + 1])
    }

    @inlinable
    func targetRange(of transition: Int) -> Range<Int> {
        Int(targetOffsets[transition])..<Int(targetOffsets[transition + 1])
    }

    @inlinable
    func isCompound(_ state: Int) -> Bool { kinds[state] == .compound }

    /// Computes the summaries once the structural tables are complete.
    mutating func computeSummaries() {
        var atomic = StateSet(capacity: stateCount)
        for state in 0..<stateCount where kinds[state].isAtomic { atomic.insert(state) }
        atomicMask = atomic

        var chain = StateSet(capacity: stateCount)
        var anyEventless = false
        for state in 0..<stateCount {
            let own = eventlessOffsets[state + 1] > eventlessOffsets[state]
            anyEventless = anyEventless || own
            let parent = Int(parents[state])
            if own || (parent >= 0 && chain.contains(parent)) { chain.insert(state) }
        }
        eventlessChainMask = chain
        hasEventlessTransitions = anyEventless

        var maximum = [Int](repeating: 1, count: stateCount)
        for state in stride(from: stateCount - 1, through: 0, by: -1) {
            var total = 0
            var largest = 0
            var any = false
            for index in childRange(of: state) {
                let child = Int(children[index])
                if kinds[child].isHistory { continue }
                any = true
                total += maximum[child]
                largest = Swift.max(largest, maximum[child])
            }
            if any { maximum[state] = kinds[state] == .parallel ? total : largest }
        }
        maximumActiveAtomicStates = Swift.max(maximum.first ?? 1, 1)
    }
}

/// The kinds of state after compilation.
@usableFromInline
enum LayoutStateKind: UInt8, Sendable {
    case root, atomic, compound, parallel, final, shallowHistory, deepHistory

    @inlinable var isAtomic: Bool { self == .atomic || self == .final }
    @inlinable var isHistory: Bool { self == .shallowHistory || self == .deepHistory }
    /// Compound or the root: the states a transition domain can be.
    @inlinable var isCompoundOrRoot: Bool { self == .compound || self == .root }
}

/// Facts about a state that let the interpreter skip work.
@usableFromInline
struct StateFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt16
    @inlinable init(rawValue: UInt16) { self.rawValue = rawValue }

    @inlinable static var hasEntryActions: StateFlags { StateFlags(rawValue: 1 << 0) }
    @inlinable static var hasExitActions: StateFlags { StateFlags(rawValue: 1 << 1) }
    @inlinable static var hasHistoryChildren: StateFlags { StateFlags(rawValue: 1 << 2) }
    @inlinable static var hasTimeouts: StateFlags { StateFlags(rawValue: 1 << 3) }
    @inlinable static var hasStateData: StateFlags { StateFlags(rawValue: 1 << 4) }
    @inlinable static var hasInitialAction: StateFlags { StateFlags(rawValue: 1 << 5) }
    @inlinable static var isFinal: StateFlags { StateFlags(rawValue: 1 << 6) }
    @inlinable static var hasInvocations: StateFlags { StateFlags(rawValue: 1 << 7) }
    /// Written as a parallel state; without child states it is atomic in ``ChartLayout/kinds``.
    @inlinable static var declaredParallel: StateFlags { StateFlags(rawValue: 1 << 8) }
    /// Every entry action is a delayed send written as data (``DeclaredTimerAction``), which the
    /// quick step arms as it arms timeouts.
    @inlinable static var entrySendsOnly: StateFlags { StateFlags(rawValue: 1 << 9) }
    /// Every exit action is a cancel written as data, which the quick step does itself.
    @inlinable static var exitCancelsOnly: StateFlags { StateFlags(rawValue: 1 << 10) }

    /// Anything to do on entry besides joining the configuration.
    @inlinable static var entryWork: StateFlags {
        [.hasEntryActions, .hasTimeouts, .hasStateData, .isFinal, .hasInvocations]
    }
    /// Anything to do on exit besides leaving the configuration.
    @inlinable static var exitWork: StateFlags { [.hasExitActions, .hasTimeouts, .hasStateData, .hasInvocations] }
}

/// Facts about a transition.
@usableFromInline
struct TransitionFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable static var `internal`: TransitionFlags { TransitionFlags(rawValue: 1 << 0) }
    @inlinable static var eventless: TransitionFlags { TransitionFlags(rawValue: 1 << 1) }
    /// A target is a history state, so the domain and entry set depend on recorded history.
    @inlinable static var targetsHistory: TransitionFlags { TransitionFlags(rawValue: 1 << 2) }
    /// An initial transition or a history default: never selected by events.
    @inlinable static var structural: TransitionFlags { TransitionFlags(rawValue: 1 << 3) }
    @inlinable static var timeout: TransitionFlags { TransitionFlags(rawValue: 1 << 4) }
}
