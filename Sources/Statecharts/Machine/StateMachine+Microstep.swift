extension StateMachine {
    // MARK: - Microstep

    /// SCXML's `microstep`: exits the states the transitions leave (recording history first), runs
    /// the transitions' actions, and enters the states they go to.
    @usableFromInline
    mutating func takeMicrostep<Observer: MachineObserver>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, signal: UnsafePointer<Signal<Event>>?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let observing = !(Observer.self == NoObserver<State, Event>.self)
        var exited: [Int] = []
        var entered: [Int] = []

        withUnsafeTemporaryAllocation(of: Int32.self, capacity: enabled.count) { domains in
            var domainCount = 0
            for transition in enabled where transition.domain >= 0 {
                domains[domainCount] = transition.domain
                domainCount += 1
            }
            var sorted = UnsafeMutableBufferPointer(rebasing: domains[0..<domainCount])
            sorted.sort()

            if chart.layout.historySlotCount > 0 {
                for domain in sorted { recordHistory(below: Int(domain)) }
            }
            for domain in sorted.reversed() {
                exitStates(
                    below: Int(domain), signal: signal, observing: observing, exited: &exited, observer: &observer)
            }
            for transition in enabled {
                let action = Int(chart.layout.actions[Int(transition.transition)])
                if action >= 0, let error = runAction(action, signal: signal) {
                    let source = Int(chart.layout.sources[Int(transition.transition)])
                    actionFailed(error, role: .transition, state: source, observer: &observer)
                }
            }
            if domainCount > 0 {
                enterStates(
                    enabled, sortedDomains: sorted, signal: signal, observing: observing, entered: &entered,
                    observer: &observer)
            }
        }

        if observing {
            let transitions = enabled.map { enabled -> TakenTransition<State> in
                let transition = Int(enabled.transition)
                let source = Int(chart.layout.sources[transition])
                return TakenTransition(
                    source: chart.states[source],
                    targets: chart.layout.targetRange(of: transition).compactMap {
                        chart.states[Int(chart.layout.targets[$0])]
                    },
                    location: chart.transitionLocations[transition])
            }
            observer.machineDidTake(
                Microstep(
                    event: signal.map { name(of: $0.pointee) }, transitions: transitions, exited: values(exited),
                    entered: values(entered)))
        }
    }

    // MARK: - Exit

    /// Records the history of every active state below `domain` that has history children.
    mutating func recordHistory(below domain: Int) {
        let upper = Int(chart.layout.subtreeEnds[domain])
        var cursor = domain + 1
        while let state = active.firstMember(lower: cursor, upper: upper) {
            cursor = state + 1
            guard chart.layout.stateFlags[state].contains(.hasHistoryChildren) else { continue }
            let storage = mutableExtras()
            for position in chart.layout.childRange(of: state) {
                let child = Int(chart.layout.children[position])
                let slot = Int(chart.layout.historySlots[child])
                if slot >= 0 { chart.layout.recordHistory(child, configuration: active, into: &storage.history[slot]) }
            }
        }
    }

    /// Exits the active states below `domain`, children before parents.
    mutating func exitStates<Observer: MachineObserver>(
        below domain: Int, signal: UnsafePointer<Signal<Event>>?, observing: Bool, exited: inout [Int],
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        var cursor = Int(chart.layout.subtreeEnds[domain])
        while let state = active.lastMember(lower: domain + 1, upper: cursor) {
            cursor = state - 1
            let flags = chart.layout.stateFlags[state]
            if !flags.isDisjoint(with: .exitWork) {
                if flags.contains(.hasExitActions) {
                    for position in Int(chart.layout.exitOffsets[state])..<Int(chart.layout.exitOffsets[state + 1]) {
                        if let error = runAction(Int(chart.layout.exitActions[position]), signal: signal) {
                            actionFailed(error, role: .exit, state: state, observer: &observer)
                        }
                    }
                }
                if flags.contains(.hasTimeouts) { cancelTimeouts(of: state) }
                if flags.contains(.hasStateData) {
                    mutableExtras().stateData[Int(chart.layout.dataSlots[state])] = nil
                }
            }
            active.remove(state)
            if observing { exited.append(state) }
        }
    }

    // MARK: - Entry

    /// Enters the states the transitions go to, parents before children.
    mutating func enterStates<Observer: MachineObserver>(
        _ enabled: UnsafeMutableBufferPointer<EnabledTransition>, sortedDomains: UnsafeMutableBufferPointer<Int32>,
        signal: UnsafePointer<Signal<Event>>?, observing: Bool, entered: inout [Int], observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        var planned = true
        for transition in enabled where transition.domain >= 0 && !chart.layout.hasEntryPlan[Int(transition.transition)]
        {
            planned = false
        }
        if planned {
            for domain in sortedDomains {
                for transition in enabled where transition.domain == domain {
                    let plan = Int(transition.transition)
                    for position in Int(
                        chart.layout.entryPlanOffsets[plan])..<Int(chart.layout.entryPlanOffsets[plan + 1])
                    {
                        let entry = chart.layout.entryPlans[position]
                        enterState(
                            Int(entry & ~ChartLayout.defaultEntryBit),
                            byDefault: entry & ChartLayout.defaultEntryBit != 0,
                            historyDefault: -1, signal: signal, observer: &observer)
                        if observing { entered.append(Int(entry & ~ChartLayout.defaultEntryBit)) }
                    }
                }
            }
            return
        }
        var set = EntrySet(capacity: chart.layout.stateCount)
        let history = extras?.history ?? []
        for transition in enabled where transition.domain >= 0 {
            chart.layout.addEntrySet(
                of: Int(transition.transition), domain: Int(transition.domain), history: history, into: &set)
        }
        set.states.forEachAscending { state in
            var historyDefault: Int32 = -1
            for content in set.historyContent where Int(content.parent) == state { historyDefault = content.transition }
            enterState(
                state, byDefault: set.defaultEntry.contains(state), historyDefault: historyDefault, signal: signal,
                observer: &observer)
            if observing { entered.append(state) }
        }
    }

    /// Enters one state: joins the configuration, makes its data, runs its entry actions (and the
    /// initial or history-default action that led into it), arms its timeouts, and signals
    /// completion if it is final.
    @inline(__always)
    mutating func enterState<Observer: MachineObserver>(
        _ state: Int, byDefault: Bool, historyDefault: Int32, signal: UnsafePointer<Signal<Event>>?,
        observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        active.insert(state)
        let flags = chart.layout.stateFlags[state]
        if flags.isDisjoint(with: .entryWork) && !(byDefault && flags.contains(.hasInitialAction)) && historyDefault < 0
        {
            return
        }
        if flags.contains(.hasStateData) { makeStateData(of: state, signal: signal, observer: &observer) }
        if flags.contains(.hasEntryActions) {
            for position in Int(chart.layout.entryOffsets[state])..<Int(chart.layout.entryOffsets[state + 1]) {
                if let error = runAction(Int(chart.layout.entryActions[position]), signal: signal) {
                    actionFailed(error, role: .entry, state: state, observer: &observer)
                }
            }
        }
        if byDefault && flags.contains(.hasInitialAction) {
            let initial = Int(chart.layout.initialTransitions[state])
            if let error = runAction(Int(chart.layout.actions[initial]), signal: signal) {
                actionFailed(error, role: .transition, state: state, observer: &observer)
            }
        }
        if historyDefault >= 0 {
            let action = Int(chart.layout.actions[Int(historyDefault)])
            if action >= 0, let error = runAction(action, signal: signal) {
                actionFailed(error, role: .transition, state: state, observer: &observer)
            }
        }
        if flags.contains(.hasTimeouts) { armTimeouts(of: state) }
        if flags.contains(.isFinal) { completeParent(of: state, signal: signal, observer: &observer) }
    }

    /// Entering a final state: a top-level one finishes the machine; otherwise its parent
    /// completes (`done.state.PARENT`), and so does a parallel grandparent whose regions are all
    /// complete.
    mutating func completeParent<Observer: MachineObserver>(
        of final: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let data = makeDoneData(of: final, signal: signal, observer: &observer)
        let parent = Int(chart.layout.parents[final])
        if parent == 0 {
            status = .finished
            if data != nil { mutableExtras().result = data }
            return
        }
        enqueueInternal(Signal(kind: chart.layout.doneKinds[parent], payload: .done(data)))
        let grandparent = Int(chart.layout.parents[parent])
        if grandparent > 0, chart.layout.kinds[grandparent] == .parallel,
            chart.layout.isInFinalState(grandparent, configuration: active)
        {
            enqueueInternal(Signal(kind: chart.layout.doneKinds[grandparent], payload: .done(nil)))
        }
    }

    // MARK: - User code

    /// Runs one action; returns what it threw.
    @usableFromInline
    mutating func runAction(_ index: Int, signal: UnsafePointer<Signal<Event>>?) -> (any Error)? {
        let action = chart.actions[index]
        return withUnsafeMutablePointer(to: &self) { machine in
            var scope = Scope(machine: machine, signal: signal)
            do {
                try action(&scope)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Runs a start action; returns what it threw.
    mutating func runStartAction(_ action: StatechartAction<State, Event, Context>) -> (any Error)? {
        withUnsafeMutablePointer(to: &self) { machine in
            var scope = Scope(machine: machine, signal: nil)
            do {
                try action(&scope)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Evaluates a guard; one that throws is false and raises `error.execution`.
    @usableFromInline
    mutating func evaluateGuard(_ index: Int, transition: Int, signal: UnsafePointer<Signal<Event>>?) -> Bool {
        let condition = chart.guards[index]
        let outcome: Result<Bool, any Error> = withUnsafeMutablePointer(to: &self) { machine in
            let scope = Scope(machine: machine, signal: signal)
            do {
                return .success(try condition(scope))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let holds):
            return holds
        case .failure(let error):
            enqueueInternal(Signal(kind: chart.layout.errorExecutionKind, payload: .error(error)))
            return false
        }
    }

    /// Raises `error.execution` for an action that threw, and tells the observer.
    mutating func actionFailed<Observer: MachineObserver>(
        _ error: any Error, role: ActionFailure<State>.ActionRole, state: Int, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        enqueueInternal(Signal(kind: chart.layout.errorExecutionKind, payload: .error(error)))
        if !(Observer.self == NoObserver<State, Event>.self) {
            observer.machineActionDidFail(ActionFailure(action: role, state: chart.states[state], error: error))
        }
    }

    mutating func makeStateData<Observer: MachineObserver>(
        of state: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let slot = Int(chart.layout.dataSlots[state])
        let make = chart.stateData[slot].make
        let outcome: Result<any Sendable, any Error> = withUnsafeMutablePointer(to: &self) { machine in
            let scope = Scope(machine: machine, signal: signal)
            do { return .success(try make(scope)) } catch { return .failure(error) }
        }
        switch outcome {
        case .success(let value): mutableExtras().stateData[slot] = value
        case .failure(let error): actionFailed(error, role: .stateData, state: state, observer: &observer)
        }
    }

    mutating func makeDoneData<Observer: MachineObserver>(
        of final: Int, signal: UnsafePointer<Signal<Event>>?, observer: inout Observer
    ) -> (any Sendable)? where Observer.State == State, Observer.Event == Event {
        let index = Int(chart.layout.doneDataIndices[final])
        guard index >= 0 else { return nil }
        let make = chart.doneDataMakers[index]
        let outcome: Result<any Sendable, any Error> = withUnsafeMutablePointer(to: &self) { machine in
            let scope = Scope(machine: machine, signal: signal)
            do { return .success(try make(scope)) } catch { return .failure(error) }
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
