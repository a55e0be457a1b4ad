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
