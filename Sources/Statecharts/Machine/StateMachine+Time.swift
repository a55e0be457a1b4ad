extension StateMachine {
    // MARK: - Advancing time

    /// Moves the machine's time forward by `duration`, firing every timer that falls due, in
    /// deadline order.
    ///
    /// Each timer is processed at its own deadline, as an external event, and run to completion
    /// before the next: a timer that a transition arms and that falls due within `duration` fires
    /// too. Advancing by zero fires the timers due now.
    ///
    /// - Throws: ``MachineError/microstepLimitExceeded(limit:configuration:)`` when a step loops.
    @inlinable
    public mutating func advance(by duration: Duration) throws(MachineError<State, Event>) {
        var observer = NoObserver<State, Event>()
        try advance(to: .nanoseconds(time) + duration, observer: &observer)
    }

    /// Moves the machine's time forward by `duration`, reporting every step to `observer`.
    @inlinable
    public mutating func advance<Observer: MachineObserver>(
        by duration: Duration, observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        try advance(to: .nanoseconds(time) + duration, observer: &observer)
    }

    /// Moves the machine's time to `instant` (measured from the machine's creation), firing every
    /// timer that falls due on the way. Moving to the past does nothing.
    @inlinable
    public mutating func advance(to instant: Duration) throws(MachineError<State, Event>) {
        var observer = NoObserver<State, Event>()
        try advance(to: instant, observer: &observer)
    }

    /// Moves the machine's time to `instant`, reporting every step to `observer`.
    @inlinable
    public mutating func advance<Observer: MachineObserver>(
        to instant: Duration, observer: inout Observer
    ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
        let target = instant.clampedNanoseconds
        timeIsStale = false
        while status == .running, let deadline = extras?.timers.nextDeadline, deadline <= target {
            time = max(time, deadline)
            try runToCompletion(microsteps: 0, observer: &observer)
            // The runtime does the effects first; it calls again for the timers still due.
            if isPausedAtEffects { return }
        }
        time = max(time, target)
    }

    // MARK: - Delayed events

    /// Cancels the delayed events sent with identifier `id` that have not been delivered yet.
    ///
    /// - Returns: How many were cancelled.
    @discardableResult
    @inlinable
    public mutating func cancelDelayedEvents(id: String) -> Int {
        guard extras != nil else { return 0 }
        // The chart is asked for the identifier's number only when a send written as data is
        // pending: a machine that sends by closures compares strings, as before.
        let match = Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage in
            storage.timers.cancelMatch(ofString: id)
        }
        switch match {
        case .nothing: return 0
        // Shared extras are copied only when there is something to remove.
        case .sentWithString: return withUniqueExtras { storage in storage.timers.removeDelayedEvents(id: id) }
        case .sentAsData: return cancelDelayedEventsOfDeclaredChart(id: id)
        }
    }

    /// ``cancelDelayedEvents(id:)`` when a send written as data is pending, out of line: the
    /// identifier's number in the chart is looked up, so that its timers are found too.
    @inlinable
    @inline(never)
    mutating func cancelDelayedEventsOfDeclaredChart(id: String) -> Int {
        cancelDelayedEvents(id: id, owner: chart.lookUpDeclaredOwner(of: id))
    }

    /// Cancels the delayed events with identifier `id`, where `owner` is the owner of the timers
    /// of the chart's sends written as data with `id` (-1 when there are none): what a cancel
    /// written as data does.
    @discardableResult
    @inlinable
    mutating func cancelDelayedEvents(id: String, owner: Int32) -> Int {
        guard extras != nil else { return 0 }
        if owner == -1 { return cancelDelayedEventsSent(with: id) }
        // Shared extras are copied only when there is something to remove.
        let pending = Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage in
            storage.timers.hasDelayedEvents(id: id, owner: owner)
        }
        guard pending else { return 0 }
        return withUniqueExtras { storage in storage.timers.removeDelayedEvents(id: id, owner: owner) }
    }

    /// Cancels the delayed events sent with the string identifier `id`, when the chart has no
    /// send written as data with `id`; the machine has extras. Always inlined: a closure's cancel
    /// (``Scope/cancel(id:)``) costs a call more otherwise.
    @inlinable @inline(__always)
    mutating func cancelDelayedEventsSent(with id: String) -> Int {
        // Shared extras are copied only when there is something to remove.
        let pending = Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage in
            storage.timers.hasDelayedEvents(id: id)
        }
        guard pending else { return 0 }
        return withUniqueExtras { storage in storage.timers.removeDelayedEvents(id: id) }
    }

    /// Queues the user's `event` on the external queue now, or when `delay` nanoseconds have
    /// passed (see ``schedule(_:kind:after:id:)``), with its kind found here.
    @inlinable
    mutating func schedule(_ event: Event, after delay: Int64, id: String?) {
        schedule(event, kind: kindIndex(of: event), after: delay, id: id)
    }

    /// Queues the user's `event`, of kind `kind`, on the external queue now, or when `delay`
    /// nanoseconds have passed: what a scope's `send(_:after:id:)` does.
    @inlinable
    mutating func schedule(_ event: Event, kind: Int32, after delay: Int64, id: String?) {
        if delay <= 0 {
            mutableAnnex().externalQueue.append(.event(event, kind: kind))
            return
        }
        let deadline = currentTime().addingClamped(delay)
        withUniqueExtras { storage in
            storage.timers.insertDelayedEvent(
                deadline: deadline, serial: storage.nextSerial, kind: kind, event: event, id: id)
            storage.nextSerial &+= 1
        }
    }

    // MARK: - Delayed sends written as data

    /// Runs the entry actions of a state whose entry actions are all delayed sends written as data
    /// (``StateFlags/entrySendsOnly``): what their closures do, in order, without a scope.
    ///
    /// - Returns: `false`, having armed nothing, when the machine's runtime gave it its own events
    ///   and a limit on timers (``prepareDeclaredSends(timerLimit:rewrite:)``) and the state's
    ///   sends would go past that limit: the caller then runs the state's entry actions, whose
    ///   closures apply the runtime's own limit.
    @inlinable
    @inline(__always)
    mutating func sendDeclaredEvents(of state: Int) -> Bool {
        if extras != nil
            && Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef({ $0.declaredEvents != nil })
        {
            return sendOwnDeclaredEvents(of: state)
        }
        let (sends, position, end) = declaredSends(of: state)
        let now = currentTime()
        withUniqueExtras { timers in
            Self.insertDeclaredEvents(sends, from: position, to: end, at: now, into: timers)
        }
        return true
    }

    /// The chart's delayed sends written as data and where the sends of `state` are among them,
    /// `sends[position..<end]`, for a state whose flag says it has some
    /// (``StateFlags/entrySendsOnly``).
    @inlinable
    @inline(__always)
    func declaredSends(
        of state: Int
    ) -> (
        sends: UnsafeMutablePointer<DeclaredSend<Event>>, position: Int, end: Int
    ) {
        unowned(unsafe) let storage = chart
        // Not nil: the state's flag says that the chart has delayed sends written as data.
        let offsets = storage.declaredSendOffsets.unsafelyUnwrapped
        return (storage.declaredSends.unsafelyUnwrapped, Int(offsets[state]), Int(offsets[state &+ 1]))
    }

    /// Arms the delayed sends written as data `sends[position..<end]`, from `now`, in `timers`,
    /// each with its event: what `schedule(_:kind:after:id:)` does with a delay of more than zero,
    /// as every delay written as data is. The identifier travels as the owner the chart interned
    /// it as: no string is copied.
    @inlinable
    @inline(__always)
    static func insertDeclaredEvents(
        _ sends: UnsafeMutablePointer<DeclaredSend<Event>>, from position: Int, to end: Int, at now: Int64,
        into timers: MachineExtras<Event>
    ) {
        var position = position
        while position < end {
            timers.timers.insertDeclaredEvent(
                deadline: now.addingClamped(sends[position].delay), serial: timers.nextSerial,
                kind: sends[position].kind, event: sends[position].event, owner: sends[position].owner)
            timers.nextSerial &+= 1
            position &+= 1
        }
    }

    /// ``sendDeclaredEvents(of:)`` for a machine with its own events and a limit on timers
    /// (``prepareDeclaredSends(timerLimit:rewrite:)``), out of line: a typed chart's machine never
    /// comes here.
    @inlinable
    @inline(never)
    mutating func sendOwnDeclaredEvents(of state: Int) -> Bool {
        let (sends, position, end) = declaredSends(of: state)
        let now = currentTime()
        return withUniqueExtras { timers in
            // All of the state's sends must fit, or none is armed here: the caller then runs the
            // closures, which arm those that fit and fail at the first that does not.
            guard timers.timers.count + (end - position) <= timers.declaredSendTimerLimit else { return false }
            // Each timer says where its event is among the machine's own: none is copied.
            var position = position
            while position < end {
                timers.timers.insertOwnDeclaredEvent(
                    deadline: now.addingClamped(sends[position].delay), serial: timers.nextSerial,
                    kind: sends[position].kind, position: Int32(truncatingIfNeeded: position),
                    owner: sends[position].owner)
                timers.nextSerial &+= 1
                position &+= 1
            }
            return true
        }
    }

    /// The event `timer` delivers: its own, or, for a send written as data that a machine with its
    /// own events armed (``PendingTimer/declaredEvent``), the machine's event for that send. A
    /// position the machine has no event for (which the invariants' check reports) delivers the
    /// timer's kind alone.
    @inlinable
    func signal(of timer: PendingTimer<Event>) -> Signal<Event> {
        let position = Int(timer.declaredEvent)
        if position >= 0, let events = extras?.declaredEvents, position < events.count {
            return .event(events[position], kind: timer.kind)
        }
        return timer.signal
    }

    /// Gives this machine its own events for its chart's delayed sends written as data
    /// (``OnEntry/init(send:after:id:)``), each send's event rewritten by `rewrite`, and a limit
    /// on its timers: for a runtime whose events carry something of the machine that sent them,
    /// which a chart shared by many machines cannot hold (an SCXML session's own address, the
    /// `origin` of the events it sends itself), and whose closures apply a limit of their own.
    ///
    /// A state whose sends would leave more than `timerLimit` timers pending then runs its entry
    /// actions' closures instead of arming its sends as data, so that the closures' limit (an SCXML
    /// session's on pending timers, which raises `error.execution`) holds exactly. Does nothing
    /// for a chart without such sends.
    package mutating func prepareDeclaredSends(timerLimit: Int, rewrite: (Event) -> Event) {
        guard let sends = chart.declaredSends else { return }
        let events = ContiguousArray((0..<chart.declaredSendCount).map { rewrite(sends[$0].event) })
        let extras = mutableExtras()
        extras.declaredEvents = events
        extras.declaredSendTimerLimit = timerLimit
    }

    /// Runs the exit actions of a state whose exit actions are all cancels written as data
    /// (``StateFlags/exitCancelsOnly``): what their closures do, in order, without a scope.
    @inlinable
    mutating func cancelDeclaredSends(of state: Int) {
        unowned(unsafe) let storage = chart
        // Not nil: the state's flag says that the chart has cancels written as data.
        let offsets = storage.declaredCancelOffsets.unsafelyUnwrapped
        var position = Int(offsets[state])
        let end = Int(offsets[state &+ 1])
        let cancels = storage.declaredCancels.unsafelyUnwrapped
        while position < end {
            let owner = cancels[position].owner
            // The common case, the sole timer the state's own send armed, is found by an integer,
            // without reading the identifier string.
            if !cancelSoleDeclaredSend(owner: owner) {
                cancelDelayedEvents(id: cancels[position].id, owner: owner)
            }
            if extras?.annex?.hasSentDelayedEventsOut == true {
                mutableAnnex().effects.append(.cancelSend(cancels[position].id))
            }
            position &+= 1
        }
    }

    /// Cancels the sole pending timer when it is a send written as data with the owner `owner`
    /// (``DeclaredIdentifier/owner(ofNumber:)``; -1 finds nothing), and returns whether it did.
    @inlinable
    mutating func cancelSoleDeclaredSend(owner: Int32) -> Bool {
        guard owner != -1, extras != nil else { return false }
        let isSole = Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage in
            storage.timers.hasSole && storage.timers.sole.owner == owner
        }
        guard isSole else { return false }
        withUniqueExtras { storage in storage.timers.clearSoleDeclaredEvent() }
        return true
    }

    // MARK: - State timeouts

    /// Arms the timeouts of a state being entered.
    @inlinable
    mutating func armTimeouts(of state: Int) {
        let now = currentTime()
        unowned(unsafe) let tables = chart.tables
        withUniqueExtras { storage in
            for position in Int(tables.timeoutOffsets[state])..<Int(tables.timeoutOffsets[state + 1]) {
                let transition = Int(tables.timeouts[position])
                storage.timers.insertTimeout(
                    deadline: now.addingClamped(tables.timeoutDelays[transition]), serial: storage.nextSerial,
                    owner: Int32(truncatingIfNeeded: state), kind: tables.timeoutKinds[transition])
                storage.nextSerial &+= 1
            }
        }
    }

    /// Cancels the timeouts of a state being exited.
    @inlinable
    mutating func cancelTimeouts(of state: Int) {
        guard extras != nil else { return }
        let owner = Int32(truncatingIfNeeded: state)
        // Shared extras are copied only when there is something to remove.
        let owns = Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef { storage in
            storage.timers.hasTimeouts(of: owner)
        }
        guard owns else { return }
        withUniqueExtras { storage in storage.timers.removeTimeouts(of: owner) }
    }
}

extension Int64 {
    /// The sum, saturating instead of overflowing.
    @inlinable
    func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
