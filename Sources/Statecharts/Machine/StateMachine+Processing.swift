/// A transition selected for the current microstep, with its domain.
@usableFromInline
struct EnabledTransition {
    @usableFromInline var transition: Int32
    /// -1 for a targetless transition.
    @usableFromInline var domain: Int32
}

extension StateMachine {
    // MARK: - Starting

    /// Enters the initial configuration and runs to completion: entry actions, eventless
    /// transitions and raised events.
    ///
    /// - Throws: ``MachineError/alreadyStarted`` when called twice;
    ///   ``MachineError/microstepLimitExceeded(limit:configuration:)`` when starting loops.
    public mutating func start() throws(MachineError<State, Event>) {
        var observer = NoObserver<State, Event>()
        try start(observer: &observer)
    }

    /// Starts the machine, reporting every step to `observer`.
    public mutating func start<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        guard status == .notStarted else { throw .alreadyStarted }
        status = .running
        for action in chart.startActions {
            if let error = runStartAction(action) {
                enqueueInternal(Signal(kind: chart.layout.errorExecutionKind, payload: .error(error)))
            }
        }
        var initial = EnabledTransition(transition: chart.layout.initialTransitions[0], domain: 0)
        withUnsafeMutablePointer(to: &initial) { pointer in
            takeMicrostep(UnsafeMutableBufferPointer(start: pointer, count: 1), signal: nil, observer: &observer)
        }
        try runToCompletion(microsteps: 1, observer: &observer)
    }

    // MARK: - Sending

    /// Processes `event` to completion: selects and takes its transitions, then eventless
    /// transitions, raised events, events sent by actions and timers that fell due.
    ///
    /// - Returns: Whether a transition handled the event.
    /// - Throws: ``MachineError/unhandledEvent(_:configuration:)`` when no transition handles it
    ///   and ``unhandledEvents`` is ``UnhandledEventPolicy/reject``;
    ///   ``MachineError/notStarted`` or ``MachineError/finished(configuration:)`` when the machine
    ///   is not running; ``MachineError/microstepLimitExceeded(limit:configuration:)`` when the
    ///   step loops.
    /// - Complexity: For a chart of up to 64 states whose transitions need no history, selecting
    ///   and taking a transition allocates nothing and hashes nothing.
    @discardableResult
    public mutating func send(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        var observer = NoObserver<State, Event>()
        return try send(event, observer: &observer)
    }

    /// Processes `event` to completion, reporting every step to `observer`.
    @discardableResult
    public mutating func send<Observer: MachineObserver>(
        _ event: Event, observer: inout Observer
    ) throws(MachineError<State, Event>) -> Bool where Observer.State == State, Observer.Event == Event {
        switch status {
        case .running: break
        case .notStarted: throw .notStarted
        case .finished: throw .finished(configuration: activeStates)
        }
        let signal = Signal(kind: kindIndex(of: event), payload: .event(event))
        announce(signal, origin: .external, observer: &observer)
        let handled = react(to: signal, observer: &observer)
        if !handled && unhandledEvents == .reject {
            if extras?.hasInternalEvents == true { try runToCompletion(microsteps: 0, observer: &observer) }
            throw .unhandledEvent(event, configuration: activeStates)
        }
        try runToCompletion(microsteps: handled ? 1 : 0, observer: &observer)
        return handled
    }

    /// Sends `event` and returns the microsteps it caused.
    ///
    /// The same as ``send(_:)``, with a record of the transitions taken and the states exited and
    /// entered, for tests and tools.
    @discardableResult
    public mutating func step(_ event: Event) throws(MachineError<State, Event>) -> [Microstep<State>] {
        var recorder = MachineRecorder<State, Event>()
        try send(event, observer: &recorder)
        return recorder.microsteps
    }

    // MARK: - The event loop

    /// SCXML's `mainEventLoop`, from after one microstep until the machine is stable: eventless
    /// transitions and internal events first, then the external queue and due timers.
    @usableFromInline
    mutating func runToCompletion<Observer: MachineObserver>(
        microsteps taken: Int, observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        var microsteps = taken
        while status == .running {
            while status == .running {
                if chart.layout.hasEventlessTransitions {
                    if microsteps >= Int(limit) && eventlessTransitionIsEnabled() { throw abandonStep() }
                    if takeEventlessTransitions(observer: &observer) {
                        microsteps += 1
                        continue
                    }
                }
                guard extras?.hasInternalEvents == true, let signal = mutableExtras().dequeueInternal() else { break }
                announce(signal, origin: .internal, observer: &observer)
                if microsteps >= Int(limit) { throw abandonStep() }
                if react(to: signal, observer: &observer) { microsteps += 1 }
            }
            guard status == .running, let (signal, origin) = nextExternalSignal() else { break }
            announce(signal, origin: origin, observer: &observer)
            if microsteps >= Int(limit) { throw abandonStep() }
            if react(to: signal, observer: &observer) { microsteps += 1 }
        }
        if status == .finished { finish() }
    }

    /// Tells the data model (if the context is one) and the observer that `signal` is next.
    @inline(__always)
    mutating func announce<Observer: MachineObserver>(
        _ signal: Signal<Event>, origin: ProcessedEvent<Event>.Origin, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let observing = !(Observer.self == NoObserver<State, Event>.self)
        guard observing || chart.binder != nil else { return }
        let event = processedEvent(signal, origin: origin)
        if let binder = chart.binder { binder(&context, event) }
        if observing { observer.machineWillProcess(event) }
    }

    func processedEvent(_ signal: Signal<Event>, origin: ProcessedEvent<Event>.Origin) -> ProcessedEvent<Event> {
        switch signal.payload {
        case .event(let event): return ProcessedEvent(name: name(of: signal), event: event, origin: origin)
        case .done(let data): return ProcessedEvent(name: name(of: signal), event: nil, origin: origin, doneData: data)
        case .error(let error): return ProcessedEvent(name: name(of: signal), event: nil, origin: origin, error: error)
        case .timeout: return ProcessedEvent(name: name(of: signal), event: nil, origin: origin)
        }
    }

    /// The next event of the external queue, or else the next timer whose deadline has come.
    mutating func nextExternalSignal() -> (Signal<Event>, ProcessedEvent<Event>.Origin)? {
        guard let extras else { return nil }
        if extras.hasExternalEvents, let signal = mutableExtras().dequeueExternal() { return (signal, .external) }
        if let first = extras.timers.first, first.deadline <= time {
            return (mutableExtras().timers.removeFirst().signal, .timer)
        }
        return nil
    }

    /// Stops a runaway step: drops the queued events and reports the limit.
    mutating func abandonStep() -> MachineError<State, Event> {
        if extras != nil {
            let storage = mutableExtras()
            storage.internalQueue.removeAll()
            storage.internalHead = 0
            storage.externalQueue.removeAll()
            storage.externalHead = 0
        }
        return .microstepLimitExceeded(limit: Int(limit), configuration: activeStates)
    }

    /// SCXML's `exitInterpreter`, for a machine that reached a top-level final state: runs the
    /// exit actions of the active states, cancels every timer and drops the queues. The machine
    /// keeps its last configuration, so that you can see where it finished.
    mutating func finish() {
        let finalConfiguration = active
        finalConfiguration.forEachDescending { state in
            let flags = chart.layout.stateFlags[state]
            if flags.contains(.hasExitActions) {
                for position in Int(chart.layout.exitOffsets[state])..<Int(chart.layout.exitOffsets[state + 1]) {
                    _ = runAction(Int(chart.layout.exitActions[position]), signal: nil)
                }
            }
        }
        if extras != nil {
            let storage = mutableExtras()
            storage.timers.removeAll()
            storage.internalQueue.removeAll()
            storage.internalHead = 0
            storage.externalQueue.removeAll()
            storage.externalHead = 0
            for slot in storage.stateData.indices { storage.stateData[slot] = nil }
        }
        active = finalConfiguration
    }

    // MARK: - Selection

    /// Selects the transitions `signal` enables and takes them as one microstep.
    ///
    /// - Returns: Whether any transition was taken.
    @usableFromInline
    mutating func react<Observer: MachineObserver>(
        to signal: Signal<Event>, observer: inout Observer
    ) -> Bool where Observer.State == State, Observer.Event == Event {
        let capacity = chart.layout.maximumActiveAtomicStates
        return withUnsafeTemporaryAllocation(of: EnabledTransition.self, capacity: capacity) { buffer in
            withUnsafePointer(to: signal) { signalPointer in
                let count = selectTransitions(for: signalPointer, into: buffer)
                guard count > 0 else { return false }
                takeMicrostep(
                    UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), signal: signalPointer, observer: &observer)
                return true
            }
        }
    }

    /// Takes the eventless transitions enabled now, if any, as one microstep.
    mutating func takeEventlessTransitions<Observer: MachineObserver>(
        observer: inout Observer
    ) -> Bool where Observer.State == State, Observer.Event == Event {
        let capacity = chart.layout.maximumActiveAtomicStates
        return withUnsafeTemporaryAllocation(of: EnabledTransition.self, capacity: capacity) { buffer in
            let count = selectEventlessTransitions(into: buffer)
            guard count > 0 else { return false }
            takeMicrostep(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), signal: nil, observer: &observer)
            return true
        }
    }

    /// Whether an eventless transition is enabled (guards are evaluated).
    mutating func eventlessTransitionIsEnabled() -> Bool {
        withUnsafeTemporaryAllocation(of: EnabledTransition.self, capacity: chart.layout.maximumActiveAtomicStates) {
            selectEventlessTransitions(into: $0) > 0
        }
    }

    /// SCXML's `selectTransitions`: for each active atomic state in document order, the first
    /// transition of it or of its nearest ancestor that `signal` fires and whose guard holds;
    /// then conflicts resolved.
    ///
    /// - Returns: How many transitions were put at the front of `buffer`.
    mutating func selectTransitions(
        for signal: UnsafePointer<Signal<Event>>, into buffer: UnsafeMutableBufferPointer<EnabledTransition>
    ) -> Int {
        let kind = Int(signal.pointee.kind)
        let configuration = active
        var count = 0
        for word in 0..<configuration.wordCount {
            var bits = configuration.word(word) & chart.layout.atomicMask.word(word)
            while bits != 0 {
                let atomic = (word << 6) + bits.trailingZeroBitCount
                bits &= bits &- 1
                var state = atomic
                search: while state >= 0 {
                    if kind >= 0 {
                        let candidates = chart.layout.dispatch.candidates(state: state, kind: kind)
                        for position in candidates {
                            let transition = chart.layout.dispatch.list[position]
                            if select(transition, signal: signal, buffer: buffer, count: &count) { break search }
                        }
                    } else if let event = signal.pointee.event {
                        let name = Event.name(of: event.kind)
                        for position in Int(
                            chart.layout.stateTransitionOffsets[state])..<Int(
                                chart.layout.stateTransitionOffsets[state + 1])
                        {
                            let transition = chart.layout.stateTransitions[position]
                            guard chart.layout.nameDescriptors[Int(transition)].contains(where: { $0.matches(name) })
                            else { continue }
                            if select(transition, signal: signal, buffer: buffer, count: &count) { break search }
                        }
                    }
                    state = Int(chart.layout.parents[state])
                }
            }
        }
        return count > 1 ? removeConflictingTransitions(buffer, count: count) : resolveDomains(buffer, count: count)
    }

    /// SCXML's `selectEventlessTransitions`.
    mutating func selectEventlessTransitions(into buffer: UnsafeMutableBufferPointer<EnabledTransition>) -> Int {
        let configuration = active
        var count = 0
        for word in 0..<configuration.wordCount {
            var bits =
                configuration.word(word) & chart.layout.atomicMask.word(word)
                & chart.layout.eventlessChainMask.word(word)
            while bits != 0 {
                let atomic = (word << 6) + bits.trailingZeroBitCount
                bits &= bits &- 1
                var state = atomic
                search: while state >= 0 {
                    for position in Int(
                        chart.layout.eventlessOffsets[state])..<Int(chart.layout.eventlessOffsets[state + 1])
                    {
                        if select(chart.layout.eventless[position], signal: nil, buffer: buffer, count: &count) {
                            break search
                        }
                    }
                    state = Int(chart.layout.parents[state])
                }
            }
        }
        return count > 1 ? removeConflictingTransitions(buffer, count: count) : resolveDomains(buffer, count: count)
    }

    /// Adds `transition` to the selection if its guard holds.
    ///
    /// - Returns: Whether the transition is enabled (so the search for this atomic state stops).
    @inline(__always)
    mutating func select(
        _ transition: Int32, signal: UnsafePointer<Signal<Event>>?,
        buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: inout Int
    ) -> Bool {
        for index in 0..<count where buffer[index].transition == transition { return true }
        let condition = Int(chart.layout.guards[Int(transition)])
        if condition >= 0, !evaluateGuard(condition, transition: Int(transition), signal: signal) { return false }
        buffer[count] = EnabledTransition(transition: transition, domain: -1)
        count += 1
        return true
    }

    /// Fills in the domains of a selection of one transition.
    @inline(__always)
    func resolveDomains(_ buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: Int) -> Int {
        if count == 1 {
            buffer[0].domain = Int32(
                chart.layout.transitionDomain(of: Int(buffer[0].transition), history: extras?.history ?? []))
        }
        return count
    }

    /// SCXML's `removeConflictingTransitions`: of two transitions whose exit sets intersect, the
    /// one whose source is a descendant of the other's wins; otherwise the earlier one in
    /// selection order. Two exit sets intersect exactly when the transitions' domains are the same
    /// or one contains the other, so the test is index arithmetic.
    mutating func removeConflictingTransitions(
        _ buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: Int
    ) -> Int {
        let history = extras?.history ?? []
        for index in 0..<count {
            buffer[index].domain = Int32(
                chart.layout.transitionDomain(of: Int(buffer[index].transition), history: history))
        }
        func conflict(_ first: Int32, _ second: Int32) -> Bool {
            if first < 0 || second < 0 { return false }
            return first == second || chart.layout.isDescendant(Int(first), of: Int(second))
                || chart.layout.isDescendant(Int(second), of: Int(first))
        }
        var filtered = 0
        for index in 0..<count {
            let candidate = buffer[index]
            let source = Int(chart.layout.sources[Int(candidate.transition)])
            var preempted = false
            for kept in 0..<filtered where conflict(candidate.domain, buffer[kept].domain) {
                if !chart.layout.isDescendant(source, of: Int(chart.layout.sources[Int(buffer[kept].transition)])) {
                    preempted = true
                    break
                }
            }
            if preempted { continue }
            var write = 0
            for kept in 0..<filtered where !conflict(candidate.domain, buffer[kept].domain) {
                buffer[write] = buffer[kept]
                write += 1
            }
            buffer[write] = candidate
            filtered = write + 1
        }
        return filtered
    }
}
