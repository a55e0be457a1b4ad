/// What a parallel quick step selected so far (``StateMachine/takeParallelQuickStep(_:)``): how
/// many transitions, the subtrees of their domains (the states they exit when active) and where
/// two of them meet, the states they enter, and what else they need
/// (``ChartTables/parallelQuickFlags``). The masks of a transition that is not quick are 0, so
/// adding one takes no branch.
@usableFromInline
struct ParallelSelection {
    @usableFromInline var count = 0
    @usableFromInline var domains: UInt64 = 0
    @usableFromInline var overlaps: UInt64 = 0
    @usableFromInline var entering: UInt64 = 0
    @usableFromInline var flags: UInt8 = 0

    @inlinable
    init() {}

    /// Adds `transition` at the end of `buffer`, with the masks and flags of `tables`. Only the
    /// entry's transition is written: the general microstep's path computes every domain
    /// (``StateMachine/resolveDomains(_:count:)``, ``StateMachine/removeConflictingTransitions(_:count:)``)
    /// before it reads one, and the quick path reads none.
    @inlinable
    @inline(__always)
    mutating func add(
        _ transition: Int32, to buffer: UnsafeMutableBufferPointer<EnabledTransition>, tables: ChartTables
    ) {
        buffer[count].transition = transition
        count &+= 1
        let subtree = tables.exitMasks[Int(transition)]
        overlaps |= domains & subtree
        domains |= subtree
        entering |= tables.quickEntryMasks[Int(transition)]
        flags |= tables.parallelQuickFlags[Int(transition)]
    }
}

extension StateMachine {
    // MARK: - The quick step

    /// Selects and takes the transition of an external event in a chart whose configuration is
    /// one chain (``ChartTables/allowsQuickSteps``), for a machine with nothing queued and no
    /// observer: SCXML's `selectTransitions` and `microstep` for exactly that case, as table reads
    /// and mask operations, inlined where the event is sent.
    ///
    /// The atomic state is the configuration's highest member; its candidates, then its
    /// ancestors', come from the first-candidate table and, after a guard that fails, the dense
    /// dispatch table; the first whose guard holds is taken. The configuration changes by two
    /// masks; the timeouts of the states exited are cancelled and those of the states entered
    /// armed, in document order. A transition whose exit set or entry set has other work to do
    /// (exit or entry actions, state data, history, invocations, a final state) or whose domain
    /// depends on history is handed, once selected, to the general
    /// ``takeMicrostep(_:signal:observer:)`` out of line, so that no guard is evaluated twice.
    /// The caller finishes the step (eventless transitions, queued events) as
    /// ``send(_:observer:)`` does.
    ///
    /// - Returns: Whether a transition was taken.
    @inlinable
    @inline(__always)
    mutating func takeQuickStep(_ event: Event) -> Bool {
        let kind = kindIndex(of: event)
        guard kind >= 0 else { return reactWithoutObserver(to: .event(event, kind: kind)) }
        // One function body with one reference to the tables: split into functions, each would
        // load the tables again after every write to the configuration.
        unowned(unsafe) let tables = chart.tables
        var state = 63 &- active.first.leadingZeroBitCount
        while state >= 0 {
            var transition = tables.quickFirstCandidates[state &<< tables.quickKindShift | Int(kind)]
            // The candidates after the first come from the dispatch table, once a guard fails.
            var position = -1
            while transition >= 0 {
                let condition = Int(tables.guards[Int(transition)])
                if condition >= 0 && !evaluateQuickGuard(condition, of: transition, event: event, kind: kind) {
                    let slot = state &* tables.kindCount &+ Int(kind)
                    if position < 0 { position = Int(tables.dispatchOffsets[slot]) }
                    position &+= 1
                    transition = position < Int(tables.dispatchOffsets[slot &+ 1]) ? tables.dispatchList[position] : -1
                    continue
                }
                let action = Int(tables.actions[Int(transition)])
                let entering = tables.quickEntryMasks[Int(transition)]
                if entering != 0 {
                    let exiting = active.first & tables.exitMasks[Int(transition)]
                    if exiting & tables.quickExitWorkMask == 0 {
                        if entering & ChartTables.touchesTimeoutsBit != 0 {
                            takeQuickTransitionWithTimeouts(
                                transition, exiting: exiting, entering: entering & ~ChartTables.touchesTimeoutsBit,
                                action: action, event: event, kind: kind)
                            return true
                        }
                        active.first &= ~exiting
                        if action >= 0 { runQuickTransitionAction(action, of: transition, event: event, kind: kind) }
                        active.first |= entering
                        assert(invariantsHold())
                        return true
                    }
                }
                if tables.staticDomains[Int(transition)] == ChartLayout.noDomain {
                    if action >= 0 { runQuickTransitionAction(action, of: transition, event: event, kind: kind) }
                } else {
                    takeSelectedTransition(transition, domain: self.domain(of: transition), event: event, kind: kind)
                }
                return true
            }
            state = Int(tables.parents[state])
        }
        return false
    }

    // MARK: - The parallel quick step

    /// The quick step for a chart with parallel states (``ChartTables/allowsParallelQuickSteps``),
    /// whose configuration has several atomic states: SCXML's `selectTransitions`,
    /// `removeConflictingTransitions` and `microstep` for a machine with nothing queued and no
    /// observer, as table reads and mask operations.
    ///
    /// Each active atomic state, in document order, selects the first candidate of its own or of
    /// its nearest ancestor whose guard holds, as ``takeQuickStep(_:)`` does for the one atomic
    /// state of a chain; an ancestor's transition that an earlier atomic state selected is
    /// selected once, and its guard is not evaluated again. Two transitions conflict when the
    /// subtrees of their domains meet (one mask operation per transition), and only then are
    /// conflicts resolved by SCXML's rules. When no state exited or entered has work to do but to
    /// leave or join the configuration and cancel or arm its timeouts, the configuration changes
    /// by two masks: the timeouts of the states exited are cancelled, the transitions' actions
    /// run in selection order, and the timeouts of the states entered are armed in document
    /// order. Otherwise the selection goes, as it is, to the general
    /// ``takeMicrostep(_:signal:observer:)``, so that no guard is evaluated twice.
    ///
    /// Inlined into ``sendByParallelQuickStep(_:)``, with its room for the selection: one call
    /// from ``send(_:)`` instead of two.
    ///
    /// - Returns: Whether a transition was taken.
    @inlinable
    @inline(__always)
    mutating func takeParallelQuickStep(_ event: Event) -> Bool {
        let kind = kindIndex(of: event)
        guard kind >= 0 else { return reactWithoutObserver(to: .event(event, kind: kind)) }
        if chart.tables.maximumActiveAtomicStates <= 8 {
            // Room of a size known when compiled: space on the stack, without asking whether a
            // temporary allocation of the chart's size fits there, and without a stack protector:
            // only the selection loop writes there, at most `maximumActiveAtomicStates` entries.
            return _withUnprotectedUnsafeTemporaryAllocation(of: EnabledTransition.self, capacity: 8) {
                takeParallelQuickStep(event, kind: kind, selection: $0)
            }
        }
        return takeWideParallelQuickStep(event, kind: kind)
    }

    /// The parallel quick step of a chart with more than 8 active atomic states at once, out of
    /// line: its room, of the chart's size, is a temporary allocation that needs the stack
    /// protector, which the usual step then does without.
    @inlinable
    @inline(never)
    mutating func takeWideParallelQuickStep(_ event: Event, kind: Int32) -> Bool {
        withUnsafeTemporaryAllocation(of: EnabledTransition.self, capacity: chart.tables.maximumActiveAtomicStates) {
            takeParallelQuickStep(event, kind: kind, selection: $0)
        }
    }

    /// The parallel quick step of `event`, whose kind is `kind`, with room for the selection in
    /// `selection` (as many as the chart's active atomic states at most).
    @inlinable
    @inline(__always)
    mutating func takeParallelQuickStep(
        _ event: Event, kind: Int32, selection buffer: UnsafeMutableBufferPointer<EnabledTransition>
    ) -> Bool {
        unowned(unsafe) let tables = chart.tables
        let candidates = tables.quickNearestCandidates(of: kind)
        var selection = ParallelSelection()
        var atomics = active.first & tables.atomicMask[0]
        // The first atomic state whose first candidate on its chain is an ancestor's or has a
        // guard: -2 - the candidate, or -1 when there is none.
        var inheriting: Int32 = -1
        while atomics != 0 {
            // Most often each atomic state's own first candidate, without a guard, is taken: that
            // loop calls nothing, reads no guard, and keeps the selection in registers.
            let nearest = candidates[atomics.trailingZeroBitCount]
            if nearest >= 0 {
                selection.add(nearest, to: buffer, tables: tables)
            } else if nearest != -1 {
                // (-1: no candidate on the state's chain, nothing to select for it.)
                inheriting = nearest
                break
            }
            atomics &= atomics &- 1
        }
        if inheriting != -1 {
            atomics &= atomics &- 1
            // From that atomic state on, apart so that the loop above keeps its registers: an
            // ancestor's transition without a guard is selected when nothing is yet, and selected
            // once when it is the last one selected (the atomic states below the ancestor follow
            // one another in document order, so an earlier one that selected it selected it last
            // unless one of them selected a nearer transition).
            var nearest = inheriting
            while true {
                if nearest >= 0 {
                    selection.add(nearest, to: buffer, tables: tables)
                } else if nearest != -1 {
                    let inherited = -2 &- nearest
                    if tables.guards[Int(inherited)] >= 0
                        || (selection.count != 0 && buffer[selection.count &- 1].transition != inherited)
                    {
                        // A guard, or an ancestor's transition after another one: the selection
                        // starts again, in full, out of line (no guard was evaluated yet).
                        selection = selectParallelTransitions(event, kind: kind, into: buffer)
                        break
                    }
                    if selection.count == 0 { selection.add(inherited, to: buffer, tables: tables) }
                }
                if atomics == 0 { break }
                nearest = candidates[atomics.trailingZeroBitCount]
                atomics &= atomics &- 1
            }
        }
        let count = selection.count
        if count == 0 { return false }
        let exiting = active.first & selection.domains
        if selection.overlaps != 0 || selection.flags & ChartTables.parallelQuickGeneralFlag != 0
            || exiting & tables.quickExitWorkMask != 0
        {
            // Conflicts to resolve, work on exit or entry, or a history to record or restore: the
            // general microstep, with the selection as it is (which may yet take the history's
            // quick path).
            let selected =
                count > 1 ? removeConflictingTransitions(buffer, count: count) : resolveDomains(buffer, count: count)
            takeSelectedTransitions(
                UnsafeMutableBufferPointer(rebasing: buffer[0..<selected]), event: event, kind: kind)
            return true
        }
        let entering = selection.entering
        let touchesTimeouts = entering & ChartTables.touchesTimeoutsBit != 0
        let touchesDeclaredTimers = selection.flags & ChartTables.parallelQuickDeclaredTimersFlag != 0
        if touchesTimeouts {
            if touchesDeclaredTimers {
                cancelTimersStateByState(exiting & (tables.timeoutStateMask | tables.declaredTimerStateMask))
            } else {
                cancelTimeouts(ofStatesIn: exiting & tables.timeoutStateMask)
            }
        }
        active.first &= ~exiting
        if selection.flags & ChartTables.parallelQuickActionFlag != 0 {
            var index = 0
            while index < count {
                let transition = buffer[index].transition
                index &+= 1
                let action = Int(tables.actions[Int(transition)])
                if action >= 0 { runQuickTransitionAction(action, of: transition, event: event, kind: kind) }
            }
        }
        active.first |= entering & ~ChartTables.touchesTimeoutsBit
        if touchesTimeouts {
            if touchesDeclaredTimers {
                armTimersStateByState(entering & (tables.timeoutStateMask | tables.declaredTimerStateMask))
            } else {
                armTimeouts(ofStatesIn: entering & tables.timeoutStateMask)
            }
        }
        assert(invariantsHold())
        return true
    }

    /// Takes a parallel quick step's selection that records a history on exit or restores one
    /// (``ChartTables/parallelQuickHistoryFlag``), conflicts resolved, whose states exited and entered have no other
    /// work to do but their timers: finds the states each transition to a history enters from its
    /// record (``restoredEntryMask(of:domain:)``), records the histories of the states in
    /// `exiting` from the configuration before any of them exits, and changes the configuration
    /// by masks as the parallel quick step does, the timers state by state. A history with no
    /// record, a record the masks cannot restore, or a history whose parent the step exits (and
    /// records) hands the selection, before anything changes, to the general microstep.
    @inlinable
    @inline(never)
    mutating func takeParallelQuickStepWithHistory(
        _ selected: UnsafeMutableBufferPointer<EnabledTransition>, exiting: UInt64, entering: UInt64, flags: UInt8,
        event: Event, kind: Int32
    ) {
        unowned(unsafe) let tables = chart.tables
        var entering = entering & ~ChartTables.touchesTimeoutsBit
        for index in 0..<selected.count {
            let transition = Int(selected[index].transition)
            guard tables.historyTargetSlots[transition] >= 0 else { continue }
            // Read before anything changes: no record (the history's default transition is
            // taken), the record of a compound state (entered by default), or a history that this
            // step records as it exits its parent take the general microstep instead.
            let parent = Int(tables.historyTargetParents[transition])
            let restored =
                exiting & (1 &<< UInt64(parent)) != 0
                ? 0 : restoredEntryMask(of: transition, domain: Int(tables.historyDomains[transition]))
            if restored == 0 { return takeGeneralMicrostep(selected, event: event, kind: kind) }
            entering |= restored
        }
        // From the configuration before any state exits, as the general microstep records them.
        if exiting & tables.historyParentMask != 0 { recordHistory(exiting: exiting) }
        let timerStates = tables.timeoutStateMask | tables.declaredTimerStateMask
        cancelTimersStateByState(exiting & timerStates)
        active.first &= ~exiting
        if flags & ChartTables.parallelQuickActionFlag != 0 {
            for index in 0..<selected.count {
                let transition = selected[index].transition
                let action = Int(tables.actions[Int(transition)])
                if action >= 0 { runQuickTransitionAction(action, of: transition, event: event, kind: kind) }
            }
        }
        active.first |= entering
        armTimersStateByState(entering & timerStates)
        assert(invariantsHold())
    }

    /// Cancels the timeouts of the states in `states`, out of line: the parallel quick step's
    /// selection loop keeps more in registers without the timer queue's code beside it.
    @inlinable
    @inline(never)
    mutating func cancelTimeouts(ofStatesIn states: UInt64) {
        var cancelling = states
        while cancelling != 0 {
            cancelTimeouts(of: cancelling.trailingZeroBitCount)
            cancelling &= cancelling &- 1
        }
    }

    /// Arms the timeouts of the states in `states`, in document order, out of line.
    @inlinable
    @inline(never)
    mutating func armTimeouts(ofStatesIn states: UInt64) {
        var arming = states
        while arming != 0 {
            armTimeouts(of: arming.trailingZeroBitCount)
            arming &= arming &- 1
        }
    }

    /// Cancels the timers of `states`, some of which have delayed sends written as data to
    /// cancel: state by state, children before parents, as exiting them one by one does, so that
    /// the cancels reach the runtime in the same order.
    @inlinable
    @inline(never)
    mutating func cancelTimersStateByState(_ states: UInt64) {
        var cancelling = states
        while cancelling != 0 {
            let state = 63 &- cancelling.leadingZeroBitCount
            cancelling &= ~(1 &<< UInt64(state))
            cancelTimers(of: state)
        }
    }

    /// Arms the timers of `states`, some of which have delayed sends written as data: state by
    /// state in document order, each state's sends before its timeouts, as entering them one by
    /// one does, so that the timers are numbered in the same order.
    @inlinable
    @inline(never)
    mutating func armTimersStateByState(_ states: UInt64) {
        var arming = states
        while arming != 0 {
            armTimers(of: arming.trailingZeroBitCount)
            arming &= arming &- 1
        }
    }

    /// What the quick step does on entering a state with timers (timeouts, or delayed sends
    /// written as data): sends its delayed events written as data, in order (its entry actions),
    /// then arms its timeouts, as ``enterState(_:byDefault:historyDefault:signal:observer:)`` does.
    @inlinable
    mutating func armTimers(of state: Int) {
        let flags = chart.tables.stateFlags[state]
        if flags.contains(.entrySendsOnly) && !sendDeclaredEvents(of: state) { runEntryActions(of: state) }
        if flags.contains(.hasTimeouts) { armTimeouts(of: state) }
    }

    /// Runs the entry actions' closures of a state whose delayed sends written as data would go
    /// past the machine's limit on timers (``prepareDeclaredSends(timerLimit:rewrite:)``), in
    /// order, as entering it in the general microstep does: an action that throws raises
    /// `error.execution`, and the next one runs. Their closures send what the data says and read
    /// no event, so they get none.
    @inlinable
    @inline(never)
    mutating func runEntryActions(of state: Int) {
        var observer = NoObserver<State, Event>()
        runEntryActions(of: state, signal: nil, observer: &observer)
    }

    /// What the quick step does on exiting a state with timers: cancels the delayed sends its exit
    /// actions written as data name, in order, then its timeouts, as
    /// ``exitState(_:signal:record:observer:)`` does.
    @inlinable
    mutating func cancelTimers(of state: Int) {
        let flags = chart.tables.stateFlags[state]
        if flags.contains(.exitCancelsOnly) { cancelDeclaredSends(of: state) }
        if flags.contains(.hasTimeouts) { cancelTimeouts(of: state) }
    }

    /// The parallel quick step's selection in full, out of line: for each active atomic state in
    /// document order, the nearest candidate on its chain (``ChartTables/quickNearestCandidates``)
    /// when it has no guard, and otherwise ``selectParallelCandidate(of:event:kind:selected:)``.
    @inlinable
    @inline(never)
    mutating func selectParallelTransitions(
        _ event: Event, kind: Int32, into buffer: UnsafeMutableBufferPointer<EnabledTransition>
    ) -> ParallelSelection {
        unowned(unsafe) let tables = chart.tables
        let nearestCandidates = tables.quickNearestCandidates(of: kind)
        var selection = ParallelSelection()
        var atomics = active.first & tables.atomicMask[0]
        while atomics != 0 {
            let atomic = atomics.trailingZeroBitCount
            atomics &= atomics &- 1
            // The nearest candidate on the atomic state's chain, from the table; the search in
            // full only when it has a guard.
            let nearest = nearestCandidates[atomic]
            if nearest == -1 { continue }
            let candidate = nearest >= 0 ? nearest : -2 - nearest
            let transition: Int32
            if tables.guards[Int(candidate)] >= 0 {
                transition = selectParallelCandidate(
                    of: atomic, event: event, kind: kind,
                    selected: UnsafeMutableBufferPointer(rebasing: buffer[0..<selection.count]))
            } else if nearest < 0 && buffer[0..<selection.count].contains(where: { $0.transition == candidate }) {
                // An ancestor's transition an earlier atomic state selected: selected once.
                continue
            } else {
                transition = candidate
            }
            if transition >= 0 { selection.add(transition, to: buffer, tables: tables) }
        }
        return selection
    }

    /// The parallel quick step's search for the atomic state `atomic`: of its
    /// candidates, then its ancestors', the first whose guard holds; -1 when there is none, or
    /// when it is an ancestor's transition that an earlier atomic state selected (it is in
    /// `selected`), which is selected once, and whose guard is not evaluated again.
    @inlinable
    @inline(never)
    mutating func selectParallelCandidate(
        of atomic: Int, event: Event, kind: Int32, selected: UnsafeMutableBufferPointer<EnabledTransition>
    ) -> Int32 {
        unowned(unsafe) let tables = chart.tables
        var state = atomic
        while state >= 0 {
            var transition = tables.quickFirstCandidates[state &<< tables.quickKindShift | Int(kind)]
            var position = -1
            while transition >= 0 {
                if state != atomic && selected.contains(where: { $0.transition == transition }) { return -1 }
                let condition = Int(tables.guards[Int(transition)])
                if condition >= 0 && !evaluateQuickGuard(condition, of: transition, event: event, kind: kind) {
                    let slot = state &* tables.kindCount &+ Int(kind)
                    if position < 0 { position = Int(tables.dispatchOffsets[slot]) }
                    position &+= 1
                    transition = position < Int(tables.dispatchOffsets[slot &+ 1]) ? tables.dispatchList[position] : -1
                    continue
                }
                return transition
            }
            state = Int(tables.parents[state])
        }
        return -1
    }

    /// The microstep for the transitions a parallel quick step selected (conflicts resolved,
    /// domains known), out of line: when the only work beyond timers is a history to record or to
    /// restore (``ChartTables/parallelQuickHistoryFlag``),
    /// ``takeParallelQuickStepWithHistory(_:exiting:entering:flags:event:kind:)``; otherwise the
    /// general microstep.
    @inlinable
    @inline(never)
    mutating func takeSelectedTransitions(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, event: Event, kind: Int32
    ) {
        unowned(unsafe) let tables = chart.tables
        var entering: UInt64 = 0
        var domains: UInt64 = 0
        var flags: UInt8 = 0
        for index in 0..<enabled.count {
            let transition = Int(enabled[index].transition)
            let transitionFlags = tables.parallelQuickFlags[transition]
            if transitionFlags & (ChartTables.parallelQuickGeneralFlag | ChartTables.parallelQuickHistoryFlag)
                == ChartTables.parallelQuickGeneralFlag
            {
                return takeGeneralMicrostep(enabled, event: event, kind: kind)
            }
            entering |= tables.quickEntryMasks[transition]
            domains |= tables.exitMasks[transition]
            flags |= transitionFlags
        }
        let exiting = active.first & domains
        if flags & ChartTables.parallelQuickHistoryFlag != 0 && exiting & tables.historyQuickExitWorkMask == 0 {
            return takeParallelQuickStepWithHistory(
                enabled, exiting: exiting, entering: entering, flags: flags, event: event, kind: kind)
        }
        takeGeneralMicrostep(enabled, event: event, kind: kind)
    }

    /// The general microstep for the transitions a parallel quick step selected (conflicts
    /// resolved, domains known), out of line.
    @inlinable
    @inline(never)
    mutating func takeGeneralMicrostep(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, event: Event, kind: Int32
    ) {
        var observer = NoObserver<State, Event>()
        withUnsafePointer(to: Signal.event(event, kind: kind)) { signal in
            takeMicrostep(enabled, signal: signal, observer: &observer)
        }
    }

    /// Evaluates the guard of a candidate of a quick step. Out of line, as the action is: inlined,
    /// the user's closures and their errors make the step's frame large for every event.
    @inlinable
    @inline(never)
    mutating func evaluateQuickGuard(_ condition: Int, of transition: Int32, event: Event, kind: Int32) -> Bool {
        // The signal's address is only read by the user's closures, never written through: it
        // needs no stack protector.
        _withUnprotectedUnsafePointer(to: Signal.event(event, kind: kind)) { signal in
            evaluateGuard(condition, transition: Int(transition), signal: signal)
        }
    }

    /// Runs the action of a transition taken by a quick step.
    @inlinable
    @inline(never)
    mutating func runQuickTransitionAction(_ action: Int, of transition: Int32, event: Event, kind: Int32) {
        let error = _withUnprotectedUnsafePointer(to: Signal.event(event, kind: kind)) { signal in
            runAction(action, signal: signal)
        }
        if let error {
            var observer = NoObserver<State, Event>()
            actionFailed(
                error, role: .transition, state: Int(chart.tables.sources[Int(transition)]),
                transition: Int(transition), observer: &observer)
        }
    }

    /// Takes a quick step's transition whose exit set or entry set has timeouts: cancels those of
    /// the states exited, changes the configuration, runs the action, and arms the timeouts of
    /// the states entered in document order, as entering them one by one does.
    @inlinable
    @inline(never)
    mutating func takeQuickTransitionWithTimeouts(
        _ transition: Int32, exiting: UInt64, entering: UInt64, action: Int, event: Event, kind: Int32
    ) {
        unowned(unsafe) let tables = chart.tables
        // The exit mask's top bit: delayed sends written as data to send or cancel too.
        if tables.exitMasks[Int(transition)] & ChartTables.touchesDeclaredTimersBit != 0 {
            return takeQuickTransitionWithDeclaredTimers(
                transition, exiting: exiting, entering: entering, action: action, event: event, kind: kind)
        }
        var cancelling = exiting & tables.timeoutStateMask
        while cancelling != 0 {
            cancelTimeouts(of: cancelling.trailingZeroBitCount)
            cancelling &= cancelling &- 1
        }
        active.first &= ~exiting
        if action >= 0 { runQuickTransitionAction(action, of: transition, event: event, kind: kind) }
        active.first |= entering
        var arming = entering & tables.timeoutStateMask
        while arming != 0 {
            armTimeouts(of: arming.trailingZeroBitCount)
            arming &= arming &- 1
        }
        assert(invariantsHold())
    }

    /// Takes a quick step's transition whose exit set or entry set has delayed sends written as
    /// data to cancel or send (and perhaps timeouts): as ``takeQuickTransitionWithTimeouts(_:exiting:entering:action:event:kind:)``
    /// does, state by state, as exiting and entering them one by one does.
    @inlinable
    @inline(never)
    mutating func takeQuickTransitionWithDeclaredTimers(
        _ transition: Int32, exiting: UInt64, entering: UInt64, action: Int, event: Event, kind: Int32
    ) {
        unowned(unsafe) let tables = chart.tables
        let timerStates = tables.timeoutStateMask | tables.declaredTimerStateMask
        cancelTimersStateByState(exiting & timerStates)
        active.first &= ~exiting
        if action >= 0 { runQuickTransitionAction(action, of: transition, event: event, kind: kind) }
        active.first |= entering
        armTimersStateByState(entering & timerStates)
        assert(invariantsHold())
    }

    /// The general microstep for one selected transition, out of line.
    @inlinable
    @inline(never)
    mutating func takeSelectedTransition(_ transition: Int32, domain: Int32, event: Event, kind: Int32) {
        var observer = NoObserver<State, Event>()
        var enabled = EnabledTransition(transition: transition, domain: domain)
        withUnsafePointer(to: Signal.event(event, kind: kind)) { signal in
            withUnsafeMutablePointer(to: &enabled) { pointer in
                takeMicrostep(UnsafeMutableBufferPointer(start: pointer, count: 1), signal: signal, observer: &observer)
            }
        }
    }

    /// The general selection and microstep, out of line: for events whose kind the chart did not
    /// know when it was compiled, which are matched by name.
    @inlinable
    @inline(never)
    mutating func reactWithoutObserver(to signal: Signal<Event>) -> Bool {
        var observer = NoObserver<State, Event>()
        return react(to: signal, observer: &observer)
    }
}
