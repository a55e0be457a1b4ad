/// The tables the interpreter reads on every event, as raw pointers: reading them costs a load,
/// with no reference counting and no copy of the layout.
///
/// Built once from a finished ``ChartLayout`` and never changed, then freed with the chart. Every
/// index the interpreter uses was validated when the chart was compiled.
@usableFromInline
final class ChartTables: @unchecked Sendable {
    // MARK: States

    @usableFromInline let stateCount: Int
    /// Words in a configuration bitset.
    @usableFromInline let wordCount: Int
    @usableFromInline let parents: UnsafeMutablePointer<Int32>
    @usableFromInline let subtreeEnds: UnsafeMutablePointer<Int32>
    @usableFromInline let kinds: UnsafeMutablePointer<LayoutStateKind>
    @usableFromInline let stateFlags: UnsafeMutablePointer<StateFlags>
    @usableFromInline let initialTransitions: UnsafeMutablePointer<Int32>
    @usableFromInline let entryOffsets: UnsafeMutablePointer<Int32>
    @usableFromInline let entryActions: UnsafeMutablePointer<Int32>
    @usableFromInline let exitOffsets: UnsafeMutablePointer<Int32>
    @usableFromInline let exitActions: UnsafeMutablePointer<Int32>
    @usableFromInline let dataSlots: UnsafeMutablePointer<Int32>
    @usableFromInline let doneDataIndices: UnsafeMutablePointer<Int32>
    @usableFromInline let doneKinds: UnsafeMutablePointer<Int32>
    @usableFromInline let timeoutOffsets: UnsafeMutablePointer<Int32>
    @usableFromInline let timeouts: UnsafeMutablePointer<Int32>
    /// The atomic states, as bitset words.
    @usableFromInline let atomicMask: UnsafeMutablePointer<UInt64>
    /// States with eventless transitions of their own or of an ancestor, as bitset words.
    @usableFromInline let eventlessChainMask: UnsafeMutablePointer<UInt64>

    // MARK: Transitions

    @usableFromInline let sources: UnsafeMutablePointer<Int32>
    @usableFromInline let transitionFlags: UnsafeMutablePointer<TransitionFlags>
    @usableFromInline let guards: UnsafeMutablePointer<Int32>
    @usableFromInline let actions: UnsafeMutablePointer<Int32>
    @usableFromInline let staticDomains: UnsafeMutablePointer<Int32>
    @usableFromInline let timeoutDelays: UnsafeMutablePointer<Int64>
    @usableFromInline let timeoutKinds: UnsafeMutablePointer<Int32>
    /// Entry plans: transition `t` enters `entryPlans[entryPlanOffsets[t] ..< entryPlanOffsets[t + 1]]`
    /// when `hasEntryPlan[t]`.
    @usableFromInline let hasEntryPlan: UnsafeMutablePointer<Bool>
    @usableFromInline let entryPlanOffsets: UnsafeMutablePointer<Int32>
    @usableFromInline let entryPlans: UnsafeMutablePointer<Int32>
    @usableFromInline let eventlessOffsets: UnsafeMutablePointer<Int32>
    @usableFromInline let eventless: UnsafeMutablePointer<Int32>

    // MARK: Dispatch

    @usableFromInline let kindCount: Int
    /// For a dense table: the candidates of `(state, kind)` are
    /// `dispatchList[dispatchOffsets[state * kindCount + kind] ..< dispatchOffsets[... + 1]]`.
    @usableFromInline let isDense: Bool
    @usableFromInline let dispatchOffsets: UnsafeMutablePointer<Int32>
    @usableFromInline let dispatchList: UnsafeMutablePointer<Int32>

    // MARK: Masks, for charts of up to 64 states

    /// Whether the chart has at most 64 states, so that a configuration is one word and the masks
    /// below are valid.
    @usableFromInline let isSmall: Bool
    /// For each state, its descendants as a mask.
    @usableFromInline let subtreeMasks: UnsafeMutablePointer<UInt64>
    /// States whose exit does more than leave the configuration: exit actions, timeouts, state
    /// data, or history children to record.
    @usableFromInline let exitWorkMask: UInt64
    /// For each transition with an entry plan whose states need nothing on entry but to join the
    /// configuration: the plan as a mask; otherwise 0, and the plan is walked.
    @usableFromInline let entryMasks: UnsafeMutablePointer<UInt64>
    /// For the quick step, each transition with an entry plan whose states need nothing on entry
    /// but to join the configuration and arm their timers (timeouts, and delayed sends written as
    /// data): the plan as a mask, with ``touchesTimeoutsBit`` set when a state it may exit or
    /// enters has timers; otherwise 0.
    @usableFromInline let quickEntryMasks: UnsafeMutablePointer<UInt64>
    /// The bit of a quick entry mask that says that the transition cancels or arms timeouts: no
    /// state's bit, as the quick step takes charts of at most 63 states.
    @inlinable static var touchesTimeoutsBit: UInt64 { 1 << 63 }
    /// The bit of an exit mask that says, in a chart of one chain, that the transition sends or
    /// cancels delayed events written as data (``declaredTimerStateMask``): no state's bit.
    @inlinable static var touchesDeclaredTimersBit: UInt64 { 1 << 63 }
    /// For each transition with an entry plan that enters no state by default whose initial
    /// transition has an action: the plan as a mask, which the microstep walks in document order,
    /// entering each state with its work; otherwise 0, and the plan itself is walked.
    @usableFromInline let walkEntryMasks: UnsafeMutablePointer<UInt64>
    /// The states with history children, as a mask.
    @usableFromInline let historyParentMask: UInt64
    /// How many history states the chart has, for a chart of up to 64 states; otherwise 0.
    @usableFromInline let historyStateCount: Int
    /// For each history state, in document order: its parent.
    @usableFromInline let historyParents: UnsafeMutablePointer<Int32>
    /// For each history state, in document order: its slot in the machine's history values.
    @usableFromInline let historyStateSlots: UnsafeMutablePointer<Int32>
    /// For each history state, in document order: whether it is deep.
    @usableFromInline let historyIsDeep: UnsafeMutablePointer<Bool>
    /// For each state, the state and its ancestors as a mask.
    @usableFromInline let ancestorMasks: UnsafeMutablePointer<UInt64>
    /// For each transition whose one target is a history state that the microstep may restore by
    /// masks: the history's slot; otherwise -1. Such a history's parent has no parallel state at
    /// or below it, none lies between it and the transition's domain, and the transition's source
    /// lies outside the parent, so that the domain is ``historyDomains``'s whenever the history
    /// holds a record.
    @usableFromInline let historyTargetSlots: UnsafeMutablePointer<Int32>
    /// For each transition with a history target slot: the history's parent.
    @usableFromInline let historyTargetParents: UnsafeMutablePointer<Int32>
    /// For each transition with a history target slot: its domain while the history holds a
    /// record.
    @usableFromInline let historyDomains: UnsafeMutablePointer<Int32>
    /// For each transition whose quick entry mask is not 0: the subtree of its domain as a mask,
    /// the states it exits when they are active, with ``touchesDeclaredTimersBit`` in a chart of
    /// one chain; for a transition the parallel quick step may take by restoring a history
    /// (``parallelQuickHistoryFlag``), the subtree of its domain while the history holds a record;
    /// otherwise 0.
    @usableFromInline let exitMasks: UnsafeMutablePointer<UInt64>
    /// The states with timeouts (`After`), as a mask.
    @usableFromInline let timeoutStateMask: UInt64
    /// The states whose entry actions are all delayed sends, or whose exit actions are all
    /// cancels, written as data (``StateFlags/entrySendsOnly``, ``StateFlags/exitCancelsOnly``),
    /// as a mask: the quick step sends and cancels them as it arms and cancels timeouts.
    @usableFromInline let declaredTimerStateMask: UInt64
    /// States whose exit does more than leave the configuration and cancel their timers.
    @usableFromInline let quickExitWorkMask: UInt64
    /// In a chart that takes the parallel quick step, ``quickExitWorkMask`` but for the states
    /// whose only other work on exit is to record their history, which
    /// ``StateMachine/takeParallelQuickStepWithHistory(_:exiting:entering:flags:event:kind:)``
    /// does (the transitions that may exit them have ``parallelQuickHistoryFlag``).
    @usableFromInline let historyQuickExitWorkMask: UInt64
    /// States whose entry does more than join the configuration (``StateFlags/entryWork``), in a
    /// chart of up to 64 states: the only ones a walk of an entry mask visits one by one.
    @usableFromInline let entryWorkMask: UInt64
    /// Whether ``StateMachine/send(_:)`` may take the quick step in every configuration of the
    /// chart: at most 63 states, a dense dispatch table, no parallel state (so that the
    /// configuration is one chain whose atomic state is its highest member), and no data model to
    /// tell of each event.
    @usableFromInline let allowsQuickSteps: Bool
    /// Whether ``StateMachine/send(_:)`` may take the parallel quick step: as for
    /// ``allowsQuickSteps``, but for a chart with parallel states, whose configuration has several
    /// atomic states (see ``StateMachine/takeParallelQuickStep(_:)``).
    @usableFromInline let allowsParallelQuickSteps: Bool
    /// For the quick step, the first candidate of each state and event kind, at
    /// `state << quickKindShift | kind`, or -1 when there is none; the others follow it in
    /// ``dispatchList``. On the path from one configuration to the next, it is one load where the
    /// dispatch table needs two (the offset, then the list), and a shift where it multiplies. Empty
    /// unless ``allowsQuickSteps`` or ``allowsParallelQuickSteps``.
    @usableFromInline let quickFirstCandidates: UnsafeMutablePointer<Int32>
    /// For the parallel quick step, at `kind * stateCount + state` (kind by kind, so that a step
    /// finds its event's row once, ``quickNearestCandidates(of:)``): the state's first candidate
    /// when it has one without a guard; `-2 - t` when the first candidate `t` on the state's chain
    /// (its own or its nearest ancestor's that has one) is an ancestor's or has a guard; -1 when
    /// no state on the chain has one. So a step's loop tells by the sign alone the common case, a
    /// candidate of the state's own to take. Empty unless ``allowsParallelQuickSteps``.
    @usableFromInline let quickNearestCandidates: UnsafeMutablePointer<Int32>

    /// The row of ``quickNearestCandidates`` for the event kind `kind`, indexed by state.
    @inlinable
    @inline(__always)
    func quickNearestCandidates(of kind: Int32) -> UnsafeMutablePointer<Int32> {
        quickNearestCandidates + Int(kind) &* stateCount
    }

    /// The shift that makes room for every event kind in ``quickFirstCandidates``: the kind count
    /// rounded up to a power of two, as an exponent.
    @usableFromInline let quickKindShift: Int
    /// For the parallel quick step, what each transition needs besides its masks:
    /// ``parallelQuickActionFlag`` when it has an action, ``parallelQuickGeneralFlag`` when it
    /// has targets but no quick entry mask (its exit or entry has work to do, or its domain
    /// depends on history), so that the step takes the general microstep,
    /// ``parallelQuickDeclaredTimersFlag`` when it sends or cancels delayed events written as
    /// data, and ``parallelQuickHistoryFlag`` when it records or restores a history. Empty unless
    /// ``allowsParallelQuickSteps``.
    @usableFromInline let parallelQuickFlags: UnsafeMutablePointer<UInt8>
    /// The flag of ``parallelQuickFlags`` for a transition with an action.
    @inlinable static var parallelQuickActionFlag: UInt8 { 1 }
    /// The flag of ``parallelQuickFlags`` for a transition the general microstep takes.
    @inlinable static var parallelQuickGeneralFlag: UInt8 { 2 }
    /// The flag of ``parallelQuickFlags`` for a transition that exits or enters a state with
    /// delayed sends written as data (``declaredTimerStateMask``).
    @inlinable static var parallelQuickDeclaredTimersFlag: UInt8 { 4 }
    /// The flag of ``parallelQuickFlags`` for a transition that may exit a state with history
    /// children, whose history the step records, or whose target is a history state the step may
    /// restore by masks (``historyTargetSlots``, every state it may enter needing nothing on entry
    /// but to arm its timers). Such a transition goes the general microstep's way (with
    /// ``parallelQuickGeneralFlag`` when it restores a history), and
    /// ``StateMachine/takeSelectedTransitions(_:event:kind:)`` hands a selection of them to
    /// ``StateMachine/takeParallelQuickStepWithHistory(_:exiting:entering:flags:event:kind:)``
    /// when that is all it has to do but timers.
    @inlinable static var parallelQuickHistoryFlag: UInt8 { 8 }
    /// For a chart whose start does nothing but enter its initial configuration (at most 64 states,
    /// no start actions, no data model to tell, no action on the initial transition, no state
    /// entered with work to do on entry or timeouts, and no eventless transition to search in the
    /// configuration entered): that configuration as a mask, which ``StateMachine/start()`` sets in
    /// one store; otherwise 0.
    @usableFromInline let quickStartConfiguration: UInt64
    /// The atomic states whose chain of ancestors has eventless transitions, as a mask: after a
    /// microstep, eventless transitions need a search only when the new atomic state is one.
    @usableFromInline let eventlessAtomicMask: UInt64

    // MARK: Summaries

    @usableFromInline let hasEventlessTransitions: Bool
    @usableFromInline let maximumActiveAtomicStates: Int
    @usableFromInline let historySlotCount: Int
    @usableFromInline let dataSlotCount: Int
    @usableFromInline let errorExecutionKind: Int32
    @usableFromInline let errorCommunicationKind: Int32

    private var allocations: [UnsafeMutableRawPointer] = []

    /// Builds the tables of `layout`; `announcesEvents` when a data model is told of each event,
    /// which the quick step does not do, and `hasStartActions` when the chart runs actions as the
    /// machine starts.
    init(_ layout: ChartLayout, announcesEvents: Bool, hasStartActions: Bool) {
        var owned: [UnsafeMutableRawPointer] = []
        func copy<Element>(_ array: [Element]) -> UnsafeMutablePointer<Element> {
            let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(array.count, 1))
            array.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { pointer.initialize(from: base, count: buffer.count) }
            }
            owned.append(UnsafeMutableRawPointer(pointer))
            return pointer
        }
        func words(_ set: StateSet) -> UnsafeMutablePointer<UInt64> {
            copy((0..<set.wordCount).map { set.word($0) })
        }
        stateCount = layout.stateCount
        wordCount = StateSet(capacity: layout.stateCount).wordCount
        parents = copy(layout.parents)
        subtreeEnds = copy(layout.subtreeEnds)
        kinds = copy(layout.kinds)
        stateFlags = copy(layout.stateFlags)
        initialTransitions = copy(layout.initialTransitions)
        entryOffsets = copy(layout.entryOffsets)
        entryActions = copy(layout.entryActions)
        exitOffsets = copy(layout.exitOffsets)
        exitActions = copy(layout.exitActions)
        dataSlots = copy(layout.dataSlots)
        doneDataIndices = copy(layout.doneDataIndices)
        doneKinds = copy(layout.doneKinds)
        timeoutOffsets = copy(layout.timeoutOffsets)
        timeouts = copy(layout.timeouts)
        atomicMask = words(layout.atomicMask)
        eventlessChainMask = words(layout.eventlessChainMask)
        sources = copy(layout.sources)
        transitionFlags = copy(layout.transitionFlags)
        guards = copy(layout.guards)
        actions = copy(layout.actions)
        staticDomains = copy(layout.staticDomains)
        timeoutDelays = copy(layout.timeoutDelays)
        timeoutKinds = copy(layout.timeoutKinds)
        hasEntryPlan = copy(layout.hasEntryPlan)
        entryPlanOffsets = copy(layout.entryPlanOffsets)
        entryPlans = copy(layout.entryPlans)
        eventlessOffsets = copy(layout.eventlessOffsets)
        eventless = copy(layout.eventless)
        kindCount = layout.kindCount
        isDense = layout.dispatch.isDense
        dispatchOffsets = copy(layout.dispatch.offsets)
        dispatchList = copy(layout.dispatch.list)
        isSmall = layout.stateCount <= 64
        var subtree = [UInt64](repeating: 0, count: layout.stateCount)
        var quickExitWork: UInt64 = 0
        var entryWork: UInt64 = 0
        var timeoutStates: UInt64 = 0
        var declaredTimerStates: UInt64 = 0
        var entry = [UInt64](repeating: 0, count: layout.transitionCount)
        var quickEntry = [UInt64](repeating: 0, count: layout.transitionCount)
        var touchesDeclaredTimers = [Bool](repeating: false, count: layout.transitionCount)
        var exits = [UInt64](repeating: 0, count: layout.transitionCount)
        var walk = [UInt64](repeating: 0, count: layout.transitionCount)
        var historyParentStates: UInt64 = 0
        var historyParentList: [Int32] = []
        var historySlotList: [Int32] = []
        var historyDeepList: [Bool] = []
        var ancestors = [UInt64](repeating: 0, count: layout.stateCount)
        var historyTargets = [Int32](repeating: -1, count: layout.transitionCount)
        var historyTargetParentList = [Int32](repeating: -1, count: layout.transitionCount)
        var historyDomainList = [Int32](repeating: -1, count: layout.transitionCount)
        if layout.stateCount <= 64 {
            for state in 0..<layout.stateCount {
                let end = Int(layout.subtreeEnds[state])
                subtree[state] = StateSet.lowMask(through: end) & ~StateSet.lowMask(through: state)
                let flags = layout.stateFlags[state]
                // Exit actions that are all cancels written as data are the quick step's to do.
                let exitActions: StateFlags = flags.contains(.exitCancelsOnly) ? [] : .hasExitActions
                if !flags.isDisjoint(with: [exitActions, .hasStateData, .hasHistoryChildren, .hasInvocations]) {
                    quickExitWork |= 1 << UInt64(state)
                }
                if !flags.isDisjoint(with: .entryWork) { entryWork |= 1 << UInt64(state) }
                if flags.contains(.hasTimeouts) { timeoutStates |= 1 << UInt64(state) }
                if !flags.isDisjoint(with: [.entrySendsOnly, .exitCancelsOnly]) {
                    declaredTimerStates |= 1 << UInt64(state)
                }
                if flags.contains(.hasHistoryChildren) { historyParentStates |= 1 << UInt64(state) }
                if layout.kinds[state].isHistory, layout.historySlots[state] >= 0 {
                    historyParentList.append(layout.parents[state])
                    historySlotList.append(layout.historySlots[state])
                    historyDeepList.append(layout.kinds[state] == .deepHistory)
                }
            }
            for state in 0..<layout.stateCount {
                let parent = Int(layout.parents[state])
                ancestors[state] = 1 << UInt64(state) | (parent >= 0 && parent < state ? ancestors[parent] : 0)
            }
            let parallelStates = (0..<layout.stateCount).reduce(UInt64(0)) { mask, state in
                layout.kinds[state] == .parallel ? mask | 1 << UInt64(state) : mask
            }
            for transition in 0..<layout.transitionCount
            where layout.staticDomains[transition] == ChartLayout.dynamicDomain {
                let targets = layout.targetRange(of: transition)
                guard targets.count == 1 else { continue }
                let history = Int(layout.targets[targets.lowerBound])
                let slot = layout.historySlots[history]
                guard layout.kinds[history].isHistory, slot >= 0 else { continue }
                let parent = Int(layout.parents[history])
                let source = Int(layout.sources[transition])
                let outside = source != parent && !(source > parent && source <= Int(layout.subtreeEnds[parent]))
                guard outside else { continue }
                let domain =
                    source == 0
                    ? 0
                    : layout.domain(
                        source: source, flags: layout.transitionFlags[transition], effectiveTargets: [parent])
                guard domain >= 0 else { continue }
                // The states entered: the path from below the domain down to the parent, then
                // the recorded ones below it; no parallel state among them to enter regions of.
                let between = ancestors[parent] & subtree[domain]
                guard (between | subtree[parent]) & parallelStates == 0 else { continue }
                historyTargets[transition] = slot
                historyTargetParentList[transition] = Int32(parent)
                historyDomainList[transition] = Int32(domain)
            }
            for transition in 0..<layout.transitionCount where layout.hasEntryPlan[transition] {
                var mask: UInt64 = 0
                var quick = true
                var walkable = true
                for position in Int(layout.entryPlanOffsets[transition])..<Int(layout.entryPlanOffsets[transition + 1])
                {
                    let entry = layout.entryPlans[position]
                    let state = Int(entry & ~ChartLayout.defaultEntryBit)
                    let flags = layout.stateFlags[state]
                    let defaultAction = entry & ChartLayout.defaultEntryBit != 0 && flags.contains(.hasInitialAction)
                    // Timeouts, and entry actions that are all delayed sends written as data, are
                    // the quick step's to arm.
                    let quickWork: StateFlags =
                        flags.contains(.entrySendsOnly) ? [.hasTimeouts, .hasEntryActions] : .hasTimeouts
                    if !flags.subtracting(quickWork).isDisjoint(with: .entryWork) || defaultAction { quick = false }
                    if defaultAction { walkable = false }
                    mask |= 1 << UInt64(state)
                }
                if walkable { walk[transition] = mask }
                guard quick else { continue }
                // Without timers among them, the states need nothing at all on entry.
                let timerStates = timeoutStates | declaredTimerStates
                if mask & timerStates == 0 { entry[transition] = mask }
                let exit = subtree[Int(layout.staticDomains[transition])]
                // In a chart of one chain, the top bit (no state's) says that the transition
                // touches delayed sends written as data; in a chart with parallel states,
                // ``parallelQuickFlags`` says it, as the exit masks of a selection are combined.
                let declared = (mask | exit) & declaredTimerStates != 0
                touchesDeclaredTimers[transition] = declared
                let chain = layout.maximumActiveAtomicStates == 1 && layout.stateCount < 64
                exits[transition] = exit | (declared && chain ? Self.touchesDeclaredTimersBit : 0)
                quickEntry[transition] = mask | ((mask | exit) & timerStates != 0 ? Self.touchesTimeoutsBit : 0)
            }
        }
        subtreeMasks = copy(subtree)
        exitWorkMask = quickExitWork | timeoutStates | declaredTimerStates
        entryMasks = copy(entry)
        quickEntryMasks = copy(quickEntry)
        walkEntryMasks = copy(walk)
        ancestorMasks = copy(ancestors)
        historyTargetSlots = copy(historyTargets)
        historyTargetParents = copy(historyTargetParentList)
        historyDomains = copy(historyDomainList)
        historyParentMask = historyParentStates
        historyStateCount = historyParentList.count
        historyParents = copy(historyParentList)
        historyStateSlots = copy(historySlotList)
        historyIsDeep = copy(historyDeepList)
        timeoutStateMask = timeoutStates
        declaredTimerStateMask = declaredTimerStates
        entryWorkMask = entryWork
        let quickSteps = layout.stateCount < 64 && isDense && !announcesEvents
        allowsQuickSteps = quickSteps && layout.maximumActiveAtomicStates == 1
        allowsParallelQuickSteps = quickSteps && layout.maximumActiveAtomicStates > 1
        let kindShift = layout.kindCount <= 1 ? 0 : Int.bitWidth - (layout.kindCount - 1).leadingZeroBitCount
        var firstCandidates: [Int32] = []
        if quickSteps {
            firstCandidates = [Int32](repeating: -1, count: layout.stateCount << kindShift)
            for state in 0..<layout.stateCount {
                for kind in 0..<layout.kindCount {
                    let slot = state * layout.kindCount + kind
                    let start = Int(layout.dispatch.offsets[slot])
                    if start < Int(layout.dispatch.offsets[slot + 1]) {
                        firstCandidates[state << kindShift | kind] = layout.dispatch.list[start]
                    }
                }
            }
        }
        quickFirstCandidates = copy(firstCandidates)
        var nearestCandidates: [Int32] = []
        if quickSteps && layout.maximumActiveAtomicStates > 1 {
            let stateCount = layout.stateCount
            nearestCandidates = [Int32](repeating: -1, count: layout.kindCount * stateCount)
            // Parents come before their children, so a parent's entry is final when a child reads it.
            for state in 0..<stateCount {
                let parent = Int(layout.parents[state])
                for kind in 0..<layout.kindCount {
                    let own = firstCandidates[state << kindShift | kind]
                    let nearest: Int32
                    if own >= 0 {
                        nearest = layout.guards[Int(own)] < 0 ? own : -2 - own
                    } else if parent >= 0 {
                        let inherited = nearestCandidates[kind * stateCount + parent]
                        nearest = inherited >= 0 ? -2 - inherited : inherited
                    } else {
                        nearest = -1
                    }
                    nearestCandidates[kind * stateCount + state] = nearest
                }
            }
        }
        quickNearestCandidates = copy(nearestCandidates)
        quickKindShift = kindShift
        var parallelFlags: [UInt8] = []
        var parallelExitWork = quickExitWork
        if allowsParallelQuickSteps {
            // A state whose only work on exit, besides its timers, is to record its history is the
            // parallel quick step's to exit: the transitions that may exit it are flagged.
            for state in 0..<layout.stateCount {
                let flags = layout.stateFlags[state]
                let exitActions: StateFlags = flags.contains(.exitCancelsOnly) ? [] : .hasExitActions
                if flags.contains(.hasHistoryChildren)
                    && flags.isDisjoint(with: [exitActions, .hasStateData, .hasInvocations])
                {
                    parallelExitWork &= ~(1 << UInt64(state))
                }
            }
            // States a quick step may enter by restoring a history: none with work on entry but
            // to arm its timers.
            let quickEntryWork = (0..<layout.stateCount).reduce(UInt64(0)) { mask, state in
                let flags = layout.stateFlags[state]
                let quickWork: StateFlags =
                    flags.contains(.entrySendsOnly) ? [.hasTimeouts, .hasEntryActions] : .hasTimeouts
                return flags.subtracting(quickWork).isDisjoint(with: .entryWork) ? mask : mask | 1 << UInt64(state)
            }
            parallelFlags = (0..<layout.transitionCount).map { transition in
                var restores = false
                if quickEntry[transition] == 0, historyTargets[transition] >= 0 {
                    let parent = Int(historyTargetParentList[transition])
                    let domain = Int(historyDomainList[transition])
                    let entered = (ancestors[parent] & subtree[domain]) | subtree[parent]
                    if entered & quickEntryWork == 0 {
                        restores = true
                        exits[transition] = subtree[domain]
                        touchesDeclaredTimers[transition] = (entered | subtree[domain]) & declaredTimerStates != 0
                    }
                }
                let exit = quickEntry[transition] != 0 || restores ? exits[transition] : 0
                return (layout.actions[transition] >= 0 ? Self.parallelQuickActionFlag : 0)
                    | (quickEntry[transition] == 0 && layout.staticDomains[transition] != ChartLayout.noDomain
                        ? Self.parallelQuickGeneralFlag : 0)
                    | (touchesDeclaredTimers[transition] ? Self.parallelQuickDeclaredTimersFlag : 0)
                    | (restores || exit & historyParentStates != 0 ? Self.parallelQuickHistoryFlag : 0)
            }
        }
        parallelQuickFlags = copy(parallelFlags)
        exitMasks = copy(exits)
        quickExitWorkMask = quickExitWork
        historyQuickExitWorkMask = parallelExitWork
        eventlessAtomicMask = isSmall ? layout.atomicMask.word(0) & layout.eventlessChainMask.word(0) : ~0
        var quickStart: UInt64 = 0
        if isSmall && !announcesEvents && !hasStartActions, let initial = layout.initialTransitions.first,
            initial >= 0, layout.actions[Int(initial)] < 0
        {
            // Not 0 only when every state entered needs nothing on entry, timeouts included.
            let configuration = entry[Int(initial)]
            if configuration & eventlessAtomicMask == 0 { quickStart = configuration }
        }
        quickStartConfiguration = quickStart
        hasEventlessTransitions = layout.hasEventlessTransitions
        maximumActiveAtomicStates = layout.maximumActiveAtomicStates
        historySlotCount = layout.historySlotCount
        dataSlotCount = layout.dataSlotCount
        errorExecutionKind = layout.errorExecutionKind
        errorCommunicationKind = layout.errorCommunicationKind
        allocations = owned
    }

    deinit {
        // Every table holds plain values (integers, flags), so freeing needs no deinitialization.
        for pointer in allocations { pointer.deallocate() }
    }

    @inlinable
    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        state > ancestor && state <= Int(subtreeEnds[ancestor])
    }
}
