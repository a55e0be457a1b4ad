/// What an observed microstep exited and entered, as state indices.
@usableFromInline
struct MicrostepRecord {
    @usableFromInline var exited: [Int] = []
    @usableFromInline var entered: [Int] = []

    @inlinable init() {}
}

extension StateMachine {
    // MARK: - Microstep

    /// SCXML's `microstep`: exits the states the transitions leave (recording history first), runs
    /// the transitions' actions, and enters the states they go to.
    @inlinable
    @inline(__always)
    mutating func takeMicrostep<Observer: MachineObserver>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, signal: UnsafePointer<Signal<Event>>?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        unowned(unsafe) let tables = chart.tables
        if tables.isSmall && Observer.self == NoObserver<State, Event>.self {
            // A configuration of one word: the exit set and the entry set are masks. When no
            // state exits or enters with work to do, the configuration changes by them; otherwise
            // the masks are walked, in document order, each state with its work.
            var exitMask: UInt64 = 0
            var entryMask: UInt64 = 0
            var walkMask: UInt64 = 0
            var simpleEntry = true
            var walkableEntry = true
            var restores = false
            for transition in enabled where transition.domain >= 0 {
                exitMask |= tables.subtreeMasks[Int(transition.domain)]
                let mask = tables.entryMasks[Int(transition.transition)]
                if mask == 0 { simpleEntry = false }
                entryMask |= mask
                let walk = tables.walkEntryMasks[Int(transition.transition)]
                if walk == 0 {
                    // A history to restore is read after the exit, which may record it.
                    if tables.historyTargetSlots[Int(transition.transition)] >= 0 {
                        restores = true
                    } else {
                        walkableEntry = false
                    }
                }
                walkMask |= walk
            }
            let exiting = active.first & exitMask
            if exiting & tables.exitWorkMask == 0 {
                active.first &= ~exiting
            } else {
                if exiting & tables.historyParentMask != 0 { recordHistory(exiting: exiting) }
                exitStates(walking: exiting, signal: signal, observer: &observer)
            }
            runTransitionActions(enabled, signal: signal, observer: &observer)
            if restores && walkableEntry {
                for transition in enabled
                where transition.domain >= 0 && tables.walkEntryMasks[Int(transition.transition)] == 0 {
                    let restored = restoredEntryMask(of: Int(transition.transition), domain: Int(transition.domain))
                    if restored == 0 { walkableEntry = false }
                    walkMask |= restored
                }
            }
            if simpleEntry {
                active.first |= entryMask
            } else if walkableEntry {
                enterStates(walking: walkMask, signal: signal, observer: &observer)
            } else {
                var record: MicrostepRecord?
                enterStates(enabled, signal: signal, record: &record, observer: &observer)
            }
            assert(invariantsHold())
            return
        }
        var record: MicrostepRecord? = Observer.self == NoObserver<State, Event>.self ? nil : MicrostepRecord()
        exitStates(enabled, signal: signal, record: &record, observer: &observer)
        runTransitionActions(enabled, signal: signal, observer: &observer)
        enterStates(enabled, signal: signal, record: &record, observer: &observer)
        if let record {
            observer.machineDidTake(
                chart.microstep(enabled, event: signal.map { name(of: $0.pointee) }, record: record, active: active))
        }
        // Debug builds only: checks the configuration, the queues and the timers (see
        // StateMachine+Invariants.swift).
        assert(invariantsHold())
    }

    /// For a transition to a history state that the microstep may restore by masks (see
    /// ``ChartTables/historyTargetSlots``), in a chart of up to 64 states: the states it enters,
    /// from below `domain` down to the recorded ones; 0 when the history holds no record, or one
    /// of a compound state, which is entered by default, so that the entry set is computed in
    /// full.
    @inlinable
    func restoredEntryMask(of transition: Int, domain: Int) -> UInt64 {
        unowned(unsafe) let tables = chart.tables
        let slot = Int(tables.historyTargetSlots[transition])
        guard slot >= 0, extras != nil else { return 0 }
        let parent = Int(tables.historyTargetParents[transition])
        let allowed = tables.atomicMask[0] & tables.subtreeMasks[parent]
        // Read in place, without retaining the extras or the record.
        let mask = Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage -> UInt64 in
            guard slot < storage.history.count else { return 0 }
            return storage.history[slot].withUnsafeBufferPointer { record in
                var mask: UInt64 = 0
                for state in record {
                    guard (1 &<< UInt64(state)) & allowed != 0 else { return 0 }
                    mask |= tables.ancestorMasks[Int(state)]
                }
                return mask
            }
        }
        return mask & tables.subtreeMasks[domain]
    }

    /// Calls `body` with the domains of the transitions with targets, ascending: disjoint
    /// subtrees, in document order.
    @inlinable
    @inline(__always)
    static func withSortedDomains<Result>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, _ body: (UnsafeBufferPointer<Int32>) -> Result
    ) -> Result {
        if enabled.count == 1 {
            let domain = enabled[0].domain
            let count = domain >= 0 ? 1 : 0
            return withUnsafePointer(to: domain) { body(UnsafeBufferPointer(start: $0, count: count)) }
        }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: enabled.count) { domains in
            var count = 0
            for transition in enabled where transition.domain >= 0 {
                domains[count] = transition.domain
                count &+= 1
            }
            var sorted = UnsafeMutableBufferPointer(rebasing: domains[0..<count])
            sorted.sort()
            return body(UnsafeBufferPointer(sorted))
        }
    }

    /// Exits the states the transitions leave, children before parents, after recording history.
    @inlinable
    mutating func exitStates<Observer: MachineObserver>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, signal: UnsafePointer<Signal<Event>>?,
        record: inout MicrostepRecord?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        Self.withSortedDomains(enabled) { domains in
            if chart.tables.historySlotCount > 0 {
                for domain in domains { recordHistory(below: Int(domain)) }
            }
            for domain in domains.reversed() {
                exitStates(below: Int(domain), signal: signal, record: &record, observer: &observer)
            }
        }
    }

    @inlinable
    @inline(__always)
    mutating func runTransitionActions<Observer: MachineObserver>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, signal: UnsafePointer<Signal<Event>>?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        for transition in enabled {
            let action = Int(chart.tables.actions[Int(transition.transition)])
            if action >= 0, let error = runAction(action, signal: signal) {
                actionFailed(
                    error, role: .transition, state: Int(chart.tables.sources[Int(transition.transition)]),
                    transition: Int(transition.transition), observer: &observer)
            }
        }
    }

    // MARK: - Exit

    /// Records the history of every active state below `domain` that has history children.
    @inlinable
    mutating func recordHistory(below domain: Int) {
        let configuration = active
        chart.recordHistory(below: domain, configuration: configuration, into: &mutableHistory().history)
    }

    /// Records, in a chart of up to 64 states, the history of every state in `exiting` that has
    /// history children, from the configuration before any of them exits.
    @inlinable
    mutating func recordHistory(exiting: UInt64) {
        unowned(unsafe) let tables = chart.tables
        let configuration = active.first
        var storage: MachineExtras<Event>?
        for index in 0..<tables.historyStateCount {
            let parent = Int(tables.historyParents[index])
            guard exiting & (1 &<< UInt64(parent)) != 0 else { continue }
            var members = configuration & tables.subtreeMasks[parent]
            var recorded: UInt64
            if tables.historyIsDeep[index] {
                recorded = members & tables.atomicMask[0]
            } else {
                recorded = 0
                while members != 0 {
                    let state = members.trailingZeroBitCount
                    members &= members &- 1
                    if Int(tables.parents[state]) == parent { recorded |= 1 &<< UInt64(state) }
                }
            }
            let slot = Int(tables.historyStateSlots[index])
            // A record the same as the last one (a state left as it was left before) is not
            // written: no uniqueness check, and no copy of shared extras.
            if storage == nil && historyRecord(slot, holds: recorded) { continue }
            if storage == nil { storage = mutableHistory() }
            // Set just above.
            let storage = storage.unsafelyUnwrapped
            // A record of as many states as the last one (the usual case) is written over it in
            // place; otherwise it is emptied and filled again.
            let rewritten = storage.history[slot].withUnsafeMutableBufferPointer { record in
                guard record.count == recorded.nonzeroBitCount else { return false }
                var remaining = recorded
                var position = 0
                while remaining != 0 {
                    record[position] = Int32(truncatingIfNeeded: remaining.trailingZeroBitCount)
                    remaining &= remaining &- 1
                    position &+= 1
                }
                return true
            }
            if rewritten { continue }
            storage.history[slot].removeAll(keepingCapacity: true)
            while recorded != 0 {
                storage.history[slot].append(Int32(truncatingIfNeeded: recorded.trailingZeroBitCount))
                recorded &= recorded &- 1
            }
        }
    }

    /// Whether the history in `slot` holds exactly the states of `recorded`, in document order;
    /// read in place, without retaining the extras or the record.
    @inlinable
    func historyRecord(_ slot: Int, holds recorded: UInt64) -> Bool {
        guard extras != nil else { return false }
        return Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage in
            guard slot < storage.history.count else { return false }
            return storage.history[slot].withUnsafeBufferPointer { record in
                // State by state, without counting `recorded`'s bits first (without the POPCNT
                // instruction, which the default target lacks, a count takes some twenty): once
                // `remaining` is empty its trailing zero count is 64, which no state index is.
                var remaining = recorded
                for state in record {
                    guard Int(state) == remaining.trailingZeroBitCount else { return false }
                    remaining &= remaining &- 1
                }
                return remaining == 0
            }
        }
    }

    /// Exits, in a chart of up to 64 states, the states of `exiting`, children before parents (in
    /// reverse document order), each with its work. Only the states with work are visited: before
    /// each one's work, the states after it leave the configuration at once, so that its work sees
    /// the configuration it would see if every state were exited one by one.
    @inlinable
    mutating func exitStates<Observer: MachineObserver>(
        walking exiting: UInt64, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        var record: MicrostepRecord?
        var remaining = exiting & chart.tables.exitWorkMask
        while remaining != 0 {
            let state = 63 &- remaining.leadingZeroBitCount
            let bit: UInt64 = 1 &<< UInt64(state)
            remaining &= ~bit
            active.first &= ~(exiting & ~(bit | (bit &- 1)))
            exitState(state, signal: signal, record: &record, observer: &observer)
        }
        active.first &= ~exiting
    }

    /// Exits the active states below `domain`, children before parents.
    @inlinable
    mutating func exitStates<Observer: MachineObserver>(
        below domain: Int, signal: UnsafePointer<Signal<Event>>?, record: inout MicrostepRecord?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        var cursor = Int(chart.tables.subtreeEnds[domain])
        while let state = active.lastMember(lower: domain &+ 1, upper: cursor) {
            cursor = state &- 1
            exitState(state, signal: signal, record: &record, observer: &observer)
        }
    }

    /// Exits one active state: runs its exit actions, cancels its timeouts and invocations, drops
    /// its data, and leaves the configuration.
    @inlinable
    @inline(__always)
    mutating func exitState<Observer: MachineObserver>(
        _ state: Int, signal: UnsafePointer<Signal<Event>>?, record: inout MicrostepRecord?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        unowned(unsafe) let tables = chart.tables
        let flags = tables.stateFlags[state]
        if !flags.isDisjoint(with: .exitWork) {
            if flags.contains(.exitCancelsOnly) {
                // Cancels written as data: what their closures would do, without a scope.
                cancelDeclaredSends(of: state)
            } else if flags.contains(.hasExitActions) {
                for position in Int(tables.exitOffsets[state])..<Int(tables.exitOffsets[state &+ 1]) {
                    if let error = runAction(Int(tables.exitActions[position]), signal: signal) {
                        actionFailed(error, role: .exit, state: state, observer: &observer)
                    }
                }
            }
            if flags.contains(.hasTimeouts) { cancelTimeouts(of: state) }
            if flags.contains(.hasStateData) { mutableAnnex().stateData[Int(tables.dataSlots[state])] = nil }
            if flags.contains(.hasInvocations) { cancelInvocations(of: state) }
        }
        active.remove(state)
        record?.exited.append(state)
    }

    // MARK: - Entry

    /// Enters the states the transitions go to, parents before children.
    @inlinable
    mutating func enterStates<Observer: MachineObserver>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, signal: UnsafePointer<Signal<Event>>?,
        record: inout MicrostepRecord?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        unowned(unsafe) let tables = chart.tables
        var planned = true
        var any = false
        for transition in enabled where transition.domain >= 0 {
            any = true
            if !tables.hasEntryPlan[Int(transition.transition)] { planned = false }
        }
        guard any else { return }
        if planned {
            // The domains are disjoint subtrees, so entering them in ascending order, each by its
            // plan, enters every state in document order.
            Self.withSortedDomains(enabled) { domains in
                for domain in domains {
                    for transition in enabled where transition.domain == domain {
                        enterPlan(of: transition.transition, signal: signal, record: &record, observer: &observer)
                    }
                }
            }
            return
        }
        let set = chart.entrySet(of: UnsafeBufferPointer(enabled), history: extras?.history ?? [])
        set.states.forEachAscending { state in
            var historyDefault: Int32 = -1
            for content in set.historyContent where Int(content.parent) == state { historyDefault = content.transition }
            enterState(
                state, byDefault: set.defaultEntry.contains(state), historyDefault: historyDefault, signal: signal,
                observer: &observer)
            record?.entered.append(state)
        }
    }

    /// Enters, in a chart of up to 64 states, the states of `entering` (the entry plans of the
    /// transitions, none of which enters a state by default whose initial transition has an
    /// action), parents before children (in document order), each with its work. Only the states
    /// with work are visited (``ChartTables/entryWorkMask``): before each one's work, the states
    /// before it join the configuration at once, so that its work sees the configuration it would
    /// see if every state were entered one by one.
    @inlinable
    mutating func enterStates<Observer: MachineObserver>(
        walking entering: UInt64, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        var remaining = entering & chart.tables.entryWorkMask
        while remaining != 0 {
            let state = remaining.trailingZeroBitCount
            let bit: UInt64 = 1 &<< UInt64(state)
            remaining &= remaining &- 1
            active.first |= entering & (bit &- 1)
            enterState(state, byDefault: false, historyDefault: -1, signal: signal, observer: &observer)
        }
        active.first |= entering
    }

    /// Enters the states of a transition's precomputed entry plan, in order.
    @inlinable
    @inline(__always)
    mutating func enterPlan<Observer: MachineObserver>(
        of transition: Int32, signal: UnsafePointer<Signal<Event>>?, record: inout MicrostepRecord?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        unowned(unsafe) let tables = chart.tables
        var position = Int(tables.entryPlanOffsets[Int(transition)])
        let end = Int(tables.entryPlanOffsets[Int(transition) &+ 1])
        while position < end {
            let entry = tables.entryPlans[position]
            let state = Int(entry & ~ChartLayout.defaultEntryBit)
            enterState(
                state, byDefault: entry & ChartLayout.defaultEntryBit != 0, historyDefault: -1, signal: signal,
                observer: &observer)
            record?.entered.append(state)
            position &+= 1
        }
    }

    /// Enters one state: joins the configuration, makes its data, runs its entry actions (and the
    /// initial or history-default action that led into it), arms its timeouts, and signals
    /// completion if it is final.
    @inlinable
    @inline(__always)
    mutating func enterState<Observer: MachineObserver>(
        _ state: Int, byDefault: Bool, historyDefault: Int32, signal: UnsafePointer<Signal<Event>>?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        active.insert(state)
        unowned(unsafe) let tables = chart.tables
        let flags = tables.stateFlags[state]
        if flags.isDisjoint(with: .entryWork) && !(byDefault && flags.contains(.hasInitialAction)) && historyDefault < 0
        {
            return
        }
        if flags.contains(.hasStateData) { makeStateData(of: state, signal: signal, observer: &observer) }
        // Delayed sends written as data: what their closures would do, without a scope; the
        // closures when the sends would go past the machine's limit on timers.
        let sentAsData = flags.contains(.entrySendsOnly) && sendDeclaredEvents(of: state)
        if !sentAsData && flags.contains(.hasEntryActions) {
            runEntryActions(of: state, signal: signal, observer: &observer)
        }
        if byDefault && flags.contains(.hasInitialAction) {
            let initial = Int(tables.initialTransitions[state])
            if let error = runAction(Int(tables.actions[initial]), signal: signal) {
                actionFailed(error, role: .transition, state: state, transition: initial, observer: &observer)
            }
        }
        if historyDefault >= 0 {
            let action = Int(tables.actions[Int(historyDefault)])
            if action >= 0, let error = runAction(action, signal: signal) {
                actionFailed(
                    error, role: .transition, state: state, transition: Int(historyDefault), observer: &observer)
            }
        }
        if flags.contains(.hasTimeouts) { armTimeouts(of: state) }
        if flags.contains(.hasInvocations) { mutableAnnex().statesToInvoke.append(Int32(state)) }
        if flags.contains(.isFinal) { completeParent(of: state, signal: signal, observer: &observer) }
    }

    /// Entering a final state: a top-level one finishes the machine; otherwise its parent
    /// completes (`done.state.PARENT`), and so does a parallel grandparent whose regions are all
    /// complete.
    @inlinable
    mutating func completeParent<Observer: MachineObserver>(
        of final: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let data = makeDoneData(of: final, signal: signal, observer: &observer)
        unowned(unsafe) let tables = chart.tables
        let parent = Int(tables.parents[final])
        if parent == 0 {
            packed.status = .finished
            if data != nil { mutableAnnex().result = data }
            return
        }
        enqueueInternal(.done(kind: tables.doneKinds[parent], data: data))
        let grandparent = Int(tables.parents[parent])
        if grandparent > 0, tables.kinds[grandparent] == .parallel,
            chart.isInFinalState(grandparent, configuration: active)
        {
            enqueueInternal(.done(kind: tables.doneKinds[grandparent], data: nil))
        }
    }

    // MARK: - User code

    /// Calls `body` with a scope of this machine for the user's code: pointers to the machine and
    /// its context, and the chart's ``ScopeOperations``.
    @inlinable @inline(__always)
    mutating func withScope<Result>(
        signal: UnsafePointer<Signal<Event>>?, _ body: (inout Scope<State, Event, Context>) -> Result
    ) -> Result {
        unowned(unsafe) let operations = chart.scopeOperations
        // The pointers go to the user's closures through the scope, which reads and writes the
        // machine and its context through them, never past them: a stack protector would only add
        // a check to every event.
        return _withUnprotectedUnsafeMutablePointer(to: &self) { machine in
            _withUnprotectedUnsafeMutablePointer(to: &machine.pointee.storedContext) { context in
                var scope = Scope(
                    context: context, signal: signal, machine: UnsafeMutableRawPointer(machine), operations: operations)
                return _withUnprotectedUnsafeMutablePointer(to: &scope) { body(&$0.pointee) }
            }
        }
    }

    /// Runs the entry actions of `state`, in order: an action that throws raises
    /// `error.execution`, and the next one runs.
    @inlinable
    @inline(__always)
    mutating func runEntryActions<Observer: MachineObserver>(
        of state: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        unowned(unsafe) let tables = chart.tables
        for position in Int(tables.entryOffsets[state])..<Int(tables.entryOffsets[state &+ 1]) {
            if let error = runAction(Int(tables.entryActions[position]), signal: signal) {
                actionFailed(error, role: .entry, state: state, observer: &observer)
            }
        }
    }

    /// Runs one action; returns what it threw.
    @inlinable
    mutating func runAction(_ index: Int, signal: UnsafePointer<Signal<Event>>?) -> (any Error)? {
        unowned(unsafe) let storage = chart
        return withScope(signal: signal) { scope in
            do {
                try storage.actionTable[index].run(&scope)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Runs a start action; returns what it threw.
    @usableFromInline
    mutating func runStartAction(_ action: StoredAction<State, Event, Context>) -> (any Error)? {
        withScope(signal: nil) { scope in
            do {
                try action.run(&scope)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Evaluates a guard; one that throws is false and raises `error.execution`.
    @inlinable
    mutating func evaluateGuard(_ index: Int, transition: Int, signal: UnsafePointer<Signal<Event>>?) -> Bool {
        unowned(unsafe) let storage = chart
        let outcome: Result<Bool, any Error> = withScope(signal: signal) { scope in
            do {
                return .success(try storage.guardTable[index].holds(in: scope))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let holds):
            return holds
        case .failure(let error):
            guardFailed(error, transition: transition)
            return false
        }
    }

    /// Raises `error.execution` for a guard that threw. Kept out of line: a failure is rare, and
    /// inlined it makes the microstep too large to inline where events are sent.
    @inlinable @inline(never)
    mutating func guardFailed(_ error: any Error, transition: Int) {
        enqueueInternal(
            .failure(
                executionFailure(
                    error, element: .guardCondition, state: Int(chart.tables.sources[transition]),
                    transition: transition),
                kind: chart.tables.errorExecutionKind))
    }

    /// Raises `error.execution` for an action that threw, and tells the observer. Kept out of line,
    /// as ``guardFailed(_:transition:)`` is.
    @inlinable @inline(never)
    mutating func actionFailed<Observer: MachineObserver>(
        _ error: any Error, role: ActionFailure<State>.ActionRole, state: Int, transition: Int = -1,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        enqueueInternal(
            .failure(
                executionFailure(error, element: role.failingElement, state: state, transition: transition),
                kind: chart.tables.errorExecutionKind))
        if !(Observer.self == NoObserver<State, Event>.self) {
            observer.machineActionDidFail(ActionFailure(action: role, state: chart.states[state], error: error))
        }
    }

    /// The facts of a failure: the element, its state and where it is written. An SCXML data
    /// model's error names its own element and position (``ExecutionFailure``'s ones are kept).
    @usableFromInline
    func executionFailure(
        _ error: any Error, element: ExecutionFailure.Element, state: Int, transition: Int = -1
    ) -> ExecutionFailure {
        if let failure = error as? ExecutionFailure { return failure }
        let location =
            transition >= 0 && transition < chart.transitionLocations.count
            ? chart.transitionLocations[transition] : chart.stateLocations[state]
        return ExecutionFailure(
            element, state: chart.stateNames[state], location: location, reason: ExecutionFailure.reason(for: error),
            error: error)
    }

    @inlinable
    mutating func makeStateData<Observer: MachineObserver>(
        of state: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let slot = Int(chart.tables.dataSlots[state])
        let make = chart.stateData[slot].make
        let outcome: Result<any Sendable, any Error> = withScope(signal: signal) { scope in
            do { return .success(try make(scope)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let value): mutableAnnex().stateData[slot] = value
        case .failure(let error): actionFailed(error, role: .stateData, state: state, observer: &observer)
        }
    }

    @inlinable
    mutating func makeDoneData<Observer: MachineObserver>(
        of final: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) -> (any Sendable)? where Observer.State == State, Observer.Event == Event {
        let index = Int(chart.tables.doneDataIndices[final])
        guard index >= 0 else { return nil }
        let maker = chart.doneDataMakers[index]
        let outcome: Result<any Sendable, any Error> = withScope(signal: signal) { scope in
            do { return .success(try maker.make(scope)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let value):
            return value
        case .failure(let error):
            actionFailed(error, role: .doneData, state: final, observer: &observer)
            return nil
        }
    }
}
