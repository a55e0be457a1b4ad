/// A transition selected for the current microstep, with its domain.
@usableFromInline
struct EnabledTransition {
    @usableFromInline var transition: Int32
    /// -1 for a targetless transition.
    @usableFromInline var domain: Int32

    @inlinable
    init(transition: Int32, domain: Int32) {
        self.transition = transition
        self.domain = domain
    }
}

extension StateMachine {
    // MARK: - Starting

    /// Enters the initial configuration and runs to completion: entry actions, eventless
    /// transitions and raised events.
    ///
    /// - Throws: ``MachineError/alreadyStarted`` when called twice;
    ///   ``MachineError/microstepLimitExceeded(limit:configuration:)`` when starting loops.
    @inlinable
    public mutating func start() throws(MachineError<State, Event>) {
        // A start that only enters the initial configuration is one store (see
        // ChartTables.quickStartConfiguration).
        let configuration = chart.tables.quickStartConfiguration
        if configuration != 0 && packed.statusCode == 0 {
            packed.status = .running
            active.first = configuration
            assert(invariantsHold())
            return
        }
        try startWithoutObserver()
    }

    /// The general start, out of line.
    @inlinable
    @inline(never)
    mutating func startWithoutObserver() throws(MachineError<State, Event>) {
        var observer = NoObserver<State, Event>()
        try start(observer: &observer)
    }

    /// Starts the machine, reporting every step to `observer`.
    @inlinable
    public mutating func start<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        guard status == .notStarted else { throw .alreadyStarted }
        packed.status = .running
        for action in chart.startActions {
            if let error = runStartAction(action) {
                enqueueInternal(.failure(ExecutionFailure.start(error), kind: chart.tables.errorExecutionKind))
            }
        }
        var initial = EnabledTransition(transition: chart.tables.initialTransitions[0], domain: 0)
        withUnsafeMutablePointer(to: &initial) { pointer in
            takeMicrostep(UnsafeMutableBufferPointer(start: pointer, count: 1), signal: nil, observer: &observer)
        }
        // As after an event's microstep: nothing can follow unless the chart has eventless
        // transitions, something was queued or armed, or the machine finished.
        if chart.tables.hasEventlessTransitions || extras != nil || !packed.isRunning {
            try runToCompletion(microsteps: 1, observer: &observer)
        }
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
    @inlinable
    public mutating func send(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        unowned(unsafe) let tables = chart.tables
        if tables.allowsQuickSteps && packed.isRunning && extras?.annex == nil {
            let handled = takeQuickStep(event)
            // Done unless the step left work behind: an event queued or something else in the
            // annex, a timer due, the machine finished, eventless transitions to search (after an
            // unhandled event too: a step stopped at the microstep limit left some), or an
            // unhandled event to reject.
            if Self.nothingPending(extras, at: time) && packed.isRunning
                && active.first & tables.eventlessAtomicMask == 0
                && (handled || unhandledEvents == .ignore)
            {
                return handled
            }
            return try finishSend(event, handled: handled)
        }
        if tables.allowsParallelQuickSteps && packed.isRunning && extras?.annex == nil {
            return try sendByParallelQuickStep(event)
        }
        return try sendWithoutObserver(event)
    }

    /// ``send(_:)`` by the parallel quick step, out of line: one function with the step inlined,
    /// whose registers and stack the chain's quick step, inlined in ``send(_:)``, does without.
    @inlinable @inline(never)
    mutating func sendByParallelQuickStep(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        let handled = takeParallelQuickStep(event)
        if Self.nothingPending(extras, at: time) && packed.isRunning
            && active.first & chart.tables.eventlessAtomicMask == 0
            && (handled || unhandledEvents == .ignore)
        {
            return handled
        }
        return try finishSend(event, handled: handled)
    }

    /// Whether nothing waits for the rest of a step: no annex (queued events, invocations,
    /// effects) and no timer due.
    ///
    /// Given the extras and the time rather than read from `self`: a getter on a machine whose
    /// context is large (an SCXML session's) copied the whole machine to read them.
    @inlinable
    @inline(__always)
    static func nothingPending(_ extras: MachineExtras<Event>?, at time: Int64) -> Bool {
        guard let extras else { return true }
        return extras.annex == nil && extras.timers.firstDeadline > time
    }

    /// ``send(_:observer:)`` without an observer, kept out of line so that the quick step inlined
    /// where events are sent stays small.
    @inlinable @inline(never)
    mutating func sendWithoutObserver(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        var observer = NoObserver<State, Event>()
        return try send(event, observer: &observer)
    }

    /// Completes a quick step that left work behind.
    @inlinable @inline(never)
    mutating func finishSend(_ event: Event, handled: Bool) throws(MachineError<State, Event>) -> Bool {
        var observer = NoObserver<State, Event>()
        try finishSend(event, handled: handled, observer: &observer)
        return handled
    }

    /// Processes `event` to completion, reporting every step to `observer`.
    @discardableResult
    @inlinable
    public mutating func send<Observer: MachineObserver>(
        _ event: Event, observer: inout Observer
    ) throws(MachineError<State, Event>) -> Bool where Observer.State == State, Observer.Event == Event {
        switch status {
        case .running: break
        case .notStarted: throw .notStarted
        case .finished: throw .finished(configuration: activeStates)
        }
        let signal = Signal.event(event, kind: kindIndex(of: event))
        announce(signal, origin: .external, observer: &observer)
        if extras?.annex?.liveInvocations.isEmpty == false { runExternalEventHooks(for: signal) }
        let handled = reactOrReport(to: signal, origin: .external, observer: &observer)
        try finishSend(event, handled: handled, observer: &observer)
        return handled
    }

    /// What follows the microstep of an external event: the rejection of an unhandled one, then
    /// the rest of the step (eventless transitions, queued events, due timers).
    @inlinable
    mutating func finishSend<Observer: MachineObserver>(
        _ event: Event, handled: Bool, observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        if !handled && unhandledEvents == .reject {
            if extras?.hasInternalEvents == true { try runToCompletion(microsteps: 0, observer: &observer) }
            throw .unhandledEvent(event, configuration: activeStates)
        }
        // Nothing can follow a microstep in a chart without eventless transitions unless an event
        // or timer was queued (which allocates the extras) or the machine finished.
        if chart.tables.hasEventlessTransitions || extras != nil || !packed.isRunning {
            try runToCompletion(microsteps: handled ? 1 : 0, observer: &observer)
        }
    }

    /// Sends `event` and returns the microsteps it caused.
    ///
    /// The same as ``send(_:)``, with a record of the transitions taken and the states exited and
    /// entered, for tests and tools.
    @discardableResult
    @inlinable
    public mutating func step(_ event: Event) throws(MachineError<State, Event>) -> [Microstep<State>] {
        var recorder = MachineRecorder<State, Event>()
        try send(event, observer: &recorder)
        return recorder.microsteps
    }

    // MARK: - The event loop

    /// SCXML's `mainEventLoop`, from after one microstep until the machine is stable: eventless
    /// transitions and internal events first, then the external queue and due timers.
    @inlinable
    mutating func runToCompletion<Observer: MachineObserver>(
        microsteps taken: Int, observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        var microsteps = taken
        while status == .running {
            while status == .running {
                if chart.tables.hasEventlessTransitions {
                    if microsteps >= Int(packed.limit) && eventlessTransitionIsEnabled() { throw abandonStep() }
                    if takeEventlessTransitions(observer: &observer) {
                        microsteps += 1
                        continue
                    }
                }
                guard extras?.hasInternalEvents == true, let signal = mutableExtras().dequeueInternal() else { break }
                announce(signal, origin: .internal, observer: &observer)
                if microsteps >= Int(packed.limit) { throw abandonStep() }
                // Counted even when no transition takes it: an eventless transition whose guard
                // fails raises error.execution each time it is tried, for ever.
                _ = reactOrReport(to: signal, origin: .internal, observer: &observer)
                microsteps += 1
            }
            if status == .running, extras?.annex?.statesToInvoke.isEmpty == false {
                startInvocations()
                // An invocation that could not start raised error.execution: process it first.
                if extras?.hasInternalEvents == true { continue }
            }
            if isPausedAtEffects { break }
            guard status == .running, let (signal, origin) = nextExternalSignal() else { break }
            announce(signal, origin: origin, observer: &observer)
            if microsteps >= Int(packed.limit) { throw abandonStep() }
            if extras?.annex?.liveInvocations.isEmpty == false { runExternalEventHooks(for: signal) }
            if reactOrReport(to: signal, origin: origin, observer: &observer) { microsteps += 1 }
        }
        if status == .finished { finish() }
        // The step is over: every pending timer, not only the first few as after each microstep.
        assert(invariantsHold(timers: .max))
    }

    /// Tells the data model (if the context is one) and the observer that `signal` is next.
    @inline(__always)
    @inlinable
    mutating func announce<Observer: MachineObserver>(
        _ signal: Signal<Event>, origin: ProcessedEvent<Event>.Origin, observer: inout Observer
    ) where Observer.State == State, Observer.Event == Event {
        let observing = !(Observer.self == NoObserver<State, Event>.self)
        guard observing || chart.binder != nil else { return }
        let event = processedEvent(signal, origin: origin)
        if let binder = chart.binder { binder(&storedContext, event) }
        if observing { observer.machineWillProcess(event) }
    }

    @inlinable
    func processedEvent(_ signal: Signal<Event>, origin: ProcessedEvent<Event>.Origin) -> ProcessedEvent<Event> {
        ProcessedEvent(
            name: name(of: signal), event: signal.event, origin: origin, doneData: signal.doneData, error: signal.error,
            failure: signal.failure)
    }

    /// The next event of the external queue, or else the next timer whose deadline has come.
    ///
    /// No reference to the extras is held across `mutableExtras()`, which would make it copy them.
    @inlinable
    mutating func nextExternalSignal() -> (Signal<Event>, ProcessedEvent<Event>.Origin)? {
        if extras?.hasExternalEvents == true, let signal = mutableExtras().dequeueExternal() {
            return (signal, .external)
        }
        if let deadline = extras?.timers.nextDeadline, deadline <= time {
            let timer = mutableExtras().timers.removeFirst()
            return (signal(of: timer), .timer)
        }
        return nil
    }

    /// Stops a runaway step: drops the queued events and reports the limit.
    @inlinable
    mutating func abandonStep() -> MachineError<State, Event> {
        if extras != nil {
            let storage = mutableExtras()
            storage.dropQueuedEvents()
        }
        return .microstepLimitExceeded(limit: Int(packed.limit), configuration: activeStates)
    }

    /// SCXML's `exitInterpreter`, for a machine that reached a top-level final state: runs the
    /// exit actions of the active states, cancels every timer and drops the queues. The machine
    /// keeps its last configuration, so that you can see where it finished.
    @usableFromInline
    mutating func finish() {
        unowned(unsafe) let tables = chart.tables
        let finalConfiguration = active
        finalConfiguration.forEachDescending { state in
            if tables.stateFlags[state].contains(.hasExitActions) {
                for position in Int(tables.exitOffsets[state])..<Int(tables.exitOffsets[state + 1]) {
                    _ = runAction(Int(tables.exitActions[position]), signal: nil)
                }
            }
        }
        if extras != nil {
            let storage = mutableExtras()
            storage.timers.removeAll()
            storage.dropQueuedEvents()
            if let records = storage.annex {
                for slot in records.stateData.indices { records.stateData[slot] = nil }
                records.statesToInvoke.removeAll()
                for invocation in records.liveInvocations { records.effects.append(.cancel(invocation.id)) }
                records.liveInvocations.removeAll()
            }
        }
        active = finalConfiguration
        assert(invariantsHold())
    }

    /// ``react(to:observer:)``, telling an observer when no transition was enabled.
    @inlinable
    @inline(__always)
    mutating func reactOrReport<Observer: MachineObserver>(
        to signal: Signal<Event>, origin: ProcessedEvent<Event>.Origin, observer: inout Observer
    ) -> Bool where Observer.State == State, Observer.Event == Event {
        let handled = react(to: signal, observer: &observer)
        if !handled && !(Observer.self == NoObserver<State, Event>.self) {
            observer.machineDidNotHandle(processedEvent(signal, origin: origin))
        }
        return handled
    }

    // MARK: - Selection

    /// Selects the transitions `signal` enables and takes them as one microstep.
    ///
    /// - Returns: Whether any transition was taken.
    @inlinable
    @inline(__always)
    mutating func react<Observer: MachineObserver>(
        to signal: Signal<Event>, observer: inout Observer
    ) -> Bool where Observer.State == State, Observer.Event == Event {
        withUnsafePointer(to: signal) { signalPointer in
            Self.withSelectionBuffer(capacity: chart.tables.maximumActiveAtomicStates) { buffer in
                let count = selectTransitions(for: signalPointer, into: buffer)
                guard count > 0 else { return false }
                takeMicrostep(
                    UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), signal: signalPointer, observer: &observer)
                return true
            }
        }
    }

    /// Calls `body` with room for the transitions one microstep can select: a local for charts
    /// without parallel states, which select at most one; a temporary buffer otherwise.
    @inlinable
    @inline(__always)
    static func withSelectionBuffer(
        capacity: Int, _ body: (UnsafeMutableBufferPointer<EnabledTransition>) -> Bool
    ) -> Bool {
        if capacity == 1 {
            var single = EnabledTransition(transition: -1, domain: -1)
            return withUnsafeMutablePointer(to: &single) { body(UnsafeMutableBufferPointer(start: $0, count: 1)) }
        }
        return withUnsafeTemporaryAllocation(of: EnabledTransition.self, capacity: capacity, body)
    }

    /// Takes the eventless transitions enabled now, if any, as one microstep.
    @inlinable
    mutating func takeEventlessTransitions<Observer: MachineObserver>(
        observer: inout Observer
    ) -> Bool where Observer.State == State, Observer.Event == Event {
        Self.withSelectionBuffer(capacity: chart.tables.maximumActiveAtomicStates) { buffer in
            let count = selectEventlessTransitions(into: buffer)
            guard count > 0 else { return false }
            takeMicrostep(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]), signal: nil, observer: &observer)
            return true
        }
    }

    /// Whether an eventless transition is enabled (guards are evaluated).
    @inlinable
    mutating func eventlessTransitionIsEnabled() -> Bool {
        Self.withSelectionBuffer(capacity: chart.tables.maximumActiveAtomicStates) {
            selectEventlessTransitions(into: $0) > 0
        }
    }

    /// SCXML's `selectTransitions`: for each active atomic state in document order, the first
    /// transition of it or of its nearest ancestor that `signal` fires and whose guard holds;
    /// then conflicts resolved.
    ///
    /// - Returns: How many transitions were put at the front of `buffer`.
    @inlinable
    @inline(__always)
    mutating func selectTransitions(
        for signal: UnsafePointer<Signal<Event>>, into buffer: UnsafeMutableBufferPointer<EnabledTransition>
    ) -> Int {
        unowned(unsafe) let tables = chart.tables
        let kind = Int(signal.pointee.kind)
        var count = 0
        if tables.maximumActiveAtomicStates == 1, kind >= 0, tables.isDense {
            // Without parallel states the configuration is one chain, whose atomic state is its
            // last state in document order.
            guard var state = active.last else { return 0 }
            search: while state >= 0 {
                let slot = state &* tables.kindCount &+ kind
                var position = Int(tables.dispatchOffsets[slot])
                let end = Int(tables.dispatchOffsets[slot &+ 1])
                while position < end {
                    if select(tables.dispatchList[position], signal: signal, buffer: buffer, count: &count) {
                        break search
                    }
                    position &+= 1
                }
                state = Int(tables.parents[state])
            }
            return resolveDomains(buffer, count: count)
        }
        for word in 0..<tables.wordCount {
            var bits = active.word(word) & tables.atomicMask[word]
            while bits != 0 {
                let atomic = (word &<< 6) &+ bits.trailingZeroBitCount
                var state = atomic
                bits &= bits &- 1
                search: while state >= 0 {
                    if kind >= 0, tables.isDense {
                        let slot = state &* tables.kindCount &+ kind
                        var position = Int(tables.dispatchOffsets[slot])
                        let end = Int(tables.dispatchOffsets[slot &+ 1])
                        while position < end {
                            if select(
                                tables.dispatchList[position], signal: signal, buffer: buffer, count: &count,
                                mayRepeat: state != atomic)
                            {
                                break search
                            }
                            position &+= 1
                        }
                    } else if selectOutOfLine(of: state, kind: kind, for: signal, buffer: buffer, count: &count) {
                        break search
                    }
                    state = Int(tables.parents[state])
                }
            }
        }
        return count > 1 ? removeConflictingTransitions(buffer, count: count) : resolveDomains(buffer, count: count)
    }

    /// Selection for the rare cases kept off the per-event path: charts so large that their
    /// dispatch table is sparse, and events whose name the chart did not know when compiled, which
    /// are matched against the descriptors by name.
    ///
    /// - Returns: Whether a transition of `state` was selected.
    @usableFromInline
    mutating func selectOutOfLine(
        of state: Int, kind: Int, for signal: UnsafePointer<Signal<Event>>,
        buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: inout Int
    ) -> Bool {
        let layout = chart.layout
        if kind >= 0 {
            for position in layout.dispatch.candidates(state: state, kind: kind) {
                if select(layout.dispatch.list[position], signal: signal, buffer: buffer, count: &count) { return true }
            }
            return false
        }
        guard let event = signal.pointee.event else { return false }
        let name = Event.name(of: event.kind)
        for position in Int(layout.stateTransitionOffsets[state])..<Int(layout.stateTransitionOffsets[state + 1]) {
            let transition = layout.stateTransitions[position]
            guard layout.nameDescriptors[Int(transition)].contains(where: { $0.matches(name) }) else { continue }
            if select(transition, signal: signal, buffer: buffer, count: &count) { return true }
        }
        return false
    }

    /// SCXML's `selectEventlessTransitions`.
    @inlinable
    mutating func selectEventlessTransitions(into buffer: UnsafeMutableBufferPointer<EnabledTransition>) -> Int {
        unowned(unsafe) let tables = chart.tables
        var count = 0
        for word in 0..<tables.wordCount {
            var bits = active.word(word) & tables.atomicMask[word] & tables.eventlessChainMask[word]
            while bits != 0 {
                let atomic = (word &<< 6) &+ bits.trailingZeroBitCount
                var state = atomic
                bits &= bits &- 1
                search: while state >= 0 {
                    var position = Int(tables.eventlessOffsets[state])
                    let end = Int(tables.eventlessOffsets[state &+ 1])
                    while position < end {
                        if select(
                            tables.eventless[position], signal: nil, buffer: buffer, count: &count,
                            mayRepeat: state != atomic)
                        {
                            break search
                        }
                        position &+= 1
                    }
                    state = Int(tables.parents[state])
                }
            }
        }
        return count > 1 ? removeConflictingTransitions(buffer, count: count) : resolveDomains(buffer, count: count)
    }

    /// Adds `transition` to the selection if its guard holds.
    ///
    /// `mayRepeat` when the transition belongs to an ancestor of the atomic state, which another
    /// atomic state of a parallel state may have selected already: it is then selected once.
    ///
    /// - Returns: Whether the transition is enabled (so the search for this atomic state stops).
    @inlinable
    @inline(__always)
    mutating func select(
        _ transition: Int32, signal: UnsafePointer<Signal<Event>>?,
        buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: inout Int, mayRepeat: Bool = true
    ) -> Bool {
        if mayRepeat {
            var index = 0
            while index < count {
                if buffer[index].transition == transition { return true }
                index &+= 1
            }
        }
        let condition = Int(chart.tables.guards[Int(transition)])
        if condition >= 0, !evaluateGuard(condition, transition: Int(transition), signal: signal) { return false }
        buffer[count] = EnabledTransition(transition: transition, domain: -1)
        count &+= 1
        return true
    }

    /// The domain of `transition`: precomputed unless it targets a history state.
    @inlinable
    @inline(__always)
    func domain(of transition: Int32) -> Int32 {
        let known = chart.tables.staticDomains[Int(transition)]
        if known != ChartLayout.dynamicDomain { return known }
        return Self.historyDependentDomain(of: transition, chart: chart, extras: extras)
    }

    /// The domain of a transition whose domain depends on history, out of line (given the
    /// chart and the extras, so that the machine is not copied for the call): known from the
    /// tables when its target is a history state that holds a record (see
    /// ``ChartTables/historyTargetSlots``), otherwise computed from the recorded history.
    @inlinable
    @inline(never)
    static func historyDependentDomain(
        of transition: Int32, chart: ChartStorage<State, Event, Context>, extras: MachineExtras<Event>?
    ) -> Int32 {
        unowned(unsafe) let tables = chart.tables
        let slot = Int(tables.historyTargetSlots[Int(transition)])
        if slot >= 0, let extras, slot < extras.history.count, !extras.history[slot].isEmpty {
            return tables.historyDomains[Int(transition)]
        }
        return Int32(chart.transitionDomain(of: Int(transition), history: extras?.history ?? []))
    }

    /// Fills in the domains of a selection of one transition.
    @inlinable
    @inline(__always)
    func resolveDomains(_ buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: Int) -> Int {
        if count == 1 { buffer[0].domain = domain(of: buffer[0].transition) }
        return count
    }

    /// SCXML's `removeConflictingTransitions`: of two transitions whose exit sets intersect, the
    /// one whose source is a descendant of the other's wins; otherwise the earlier one in
    /// selection order. Two exit sets intersect exactly when the transitions' domains are the same
    /// or one contains the other, so the test is index arithmetic.
    @inlinable
    func removeConflictingTransitions(
        _ buffer: UnsafeMutableBufferPointer<EnabledTransition>, count: Int
    ) -> Int {
        unowned(unsafe) let tables = chart.tables
        let sources = tables.sources
        let subtreeEnds = tables.subtreeEnds
        let staticDomains = tables.staticDomains
        for index in 0..<count {
            // The static domain read in place: calling `domain(of:)` for each transition copied
            // the whole machine for each call.
            let transition = buffer[index].transition
            let known = staticDomains[Int(transition)]
            buffer[index].domain = known != ChartLayout.dynamicDomain ? known : domain(of: transition)
        }
        var filtered = 0
        for index in 0..<count {
            let candidate = buffer[index]
            let domain = Int(candidate.domain)
            let source = Int(sources[Int(candidate.transition)])
            var preempted = false
            var conflicts = false
            var kept = 0
            while kept < filtered {
                if Self.exitSetsIntersect(domain, Int(buffer[kept].domain), subtreeEnds: subtreeEnds) {
                    conflicts = true
                    let keptSource = Int(sources[Int(buffer[kept].transition)])
                    if !(source > keptSource && source <= Int(subtreeEnds[keptSource])) {
                        preempted = true
                        break
                    }
                }
                kept &+= 1
            }
            if preempted { continue }
            if !conflicts {
                buffer[filtered] = candidate
                filtered &+= 1
                continue
            }
            var write = 0
            for kept in 0..<filtered
            where !Self.exitSetsIntersect(domain, Int(buffer[kept].domain), subtreeEnds: subtreeEnds) {
                buffer[write] = buffer[kept]
                write &+= 1
            }
            buffer[write] = candidate
            filtered = write &+ 1
        }
        return filtered
    }

    /// Whether two transitions with these domains (-1 for a targetless one) have intersecting
    /// exit sets: the domains are equal or one contains the other.
    @inlinable
    @inline(__always)
    static func exitSetsIntersect(_ first: Int, _ second: Int, subtreeEnds: UnsafeMutablePointer<Int32>) -> Bool {
        if first < 0 || second < 0 { return false }
        if first == second { return true }
        return first < second ? second <= Int(subtreeEnds[first]) : first <= Int(subtreeEnds[second])
    }
}
