import Statecharts

/// What the two live hosts of a document share (``IsolatedSCXMLSession``, ``SCXMLSessionActor``):
/// an ``SCXMLSession`` whose virtual time follows the clock of a `TimerWheel`.
///
/// The session itself stays the one way a document runs, with every session it invokes; this maps
/// its time onto a clock. Each call first brings the session to the clock's now (firing what fell
/// due since the last call), then does what it was asked, then keeps one entry in the wheel for
/// the session's next deadline: its own timers, its children's and its delayed events between
/// sessions alike. Held by its owner, which guarantees that one call at a time reaches it.
struct LiveSession {
    /// The session, at the time of its last step.
    var session: SCXMLSession
    /// The wheel whose clock the session's time follows.
    let wheel: TimerWheel
    /// The wheel's time when the session's time was zero.
    let origin: Duration
    /// The session's entry in the wheel, at the session time it is armed for: the same kind of
    /// entry a typed live machine keeps (its `WheelClock`).
    private var alarm = LiveTimer()
    /// Whether the owner's `start` has run: the session is connected to the clock.
    var hasStarted = false
    /// The task that takes what the event I/O processors bring, when the session has any.
    var listener: Task<Void, Never>?
    /// The readers of ``IsolatedSCXMLSession/snapshots(bufferingPolicy:isolation:)`` and of the
    /// actor's, by number.
    private var subscribers: [Int: AsyncStream<SCXMLSessionSnapshot>.Continuation] = [:]
    private var nextSubscriber = 0
    /// What is told of every step synchronously, with the session as the step left it: the
    /// inspector, which must describe a step before the next one runs. One that returns `false`
    /// is told no more.
    var stepObservers: [(SCXMLSessionSnapshot, SCXMLSession) -> Bool] = []

    /// A live session that continues `session` from its own time.
    init(session: SCXMLSession, wheel: TimerWheel) {
        self.session = session
        self.wheel = wheel
        origin = wheel.now - session.now
    }

    /// The session's time on the wheel's clock now; never before the session's own time.
    var clockTime: Duration { max(wheel.now - origin, session.now) }

    /// Runs a call at the clock's now: first what fell due since the last call, then `body`; then
    /// arms the wheel for the next deadline and tells the snapshots' readers. A call that throws
    /// is told to them too, with its error.
    ///
    /// - Parameters:
    ///   - label: What the snapshot says caused the step.
    ///   - owner: What the wheel calls back when the next deadline comes.
    mutating func perform(
        _ label: SCXMLSessionSnapshot.Cause, owner: any TimerWheelTarget,
        _ body: (inout SCXMLSession) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep
    ) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        // Compared only for readers: a step that nobody reads copies no configuration.
        let listened = !subscribers.isEmpty || !stepObservers.isEmpty
        let before = listened ? (session.configuration, session.status, session.endedBy == nil) : nil
        var result = SCXMLStep()
        var failure: MachineError<String, SCXMLEvent>?
        do throws(MachineError<String, SCXMLEvent>) {
            if session.status == .running && session.endedBy == nil {
                result = try session.advance(to: clockTime)
            }
            let own = try body(&session)
            result.merge(own)
            result.handled = own.handled
        } catch {
            failure = error
        }
        rearm(owner: owner)
        if let before {
            let changed =
                before.0 != session.configuration || before.1 != session.status
                || before.2 != (session.endedBy == nil)
            let eventful =
                label != .timers || !result.microsteps.isEmpty || !result.logs.isEmpty || !result.errors.isEmpty
            if changed || eventful || failure != nil {
                let current = snapshot(cause: label, step: result, failure: failure)
                publish(current)
                let session = session
                stepObservers.removeAll { !$0(current, session) }
            }
        }
        if let failure { throw failure }
        return result
    }

    /// Keeps the session's one entry in the wheel at its next deadline.
    mutating func rearm(owner: any TimerWheelTarget) {
        let deadline = session.nextDeadline?.clampedNanoseconds ?? .max
        guard deadline != alarm.deadline else { return }
        alarm.rearm(at: deadline, origin: origin.clampedNanoseconds, in: wheel, for: owner)
    }

    /// The wheel called back: its entry is gone.
    mutating func alarmFired() { alarm.fired() }

    /// The session as it is now, after a step of this cause.
    func snapshot(
        cause: SCXMLSessionSnapshot.Cause, step: SCXMLStep = SCXMLStep(),
        failure: MachineError<String, SCXMLEvent>? = nil
    ) -> SCXMLSessionSnapshot {
        var invoked: [String: [String]] = [:]
        for id in session.childSessionIDs { invoked[id] = session.activeStates(ofSession: id) ?? [] }
        return SCXMLSessionSnapshot(
            cause: cause, configuration: session.configuration, activeStates: session.activeStates,
            invoked: invoked, status: session.status, now: session.now, step: step,
            failure: failure.map { "\($0)" }, endedBy: session.endedBy.map { "\($0)" })
    }

    // MARK: - Values

    /// The value at `location` in the top session's data model now (a variable's name, or an
    /// expression that names a location in the document's data model); `nil` when it names none.
    ///
    /// Evaluated under the session's script-time limit, as a step's scripts are: a document's
    /// getter cannot hang the reader.
    func value(of location: String) -> SCXMLValue? {
        var model = session.machine.context.model
        let position = session.chart.document.location
        let cascade = SCXMLCascade(limits: session.options.limits)
        defer { cascade.end() }
        return SCXMLCascade.withCurrent(cascade) {
            try? model.load(location, at: position)
        }
    }

    // MARK: - Readers

    /// A stream that starts with the session as it is now, then has a snapshot after every step
    /// that changed the session or did something (an event, a log, an error), until `stop()`.
    mutating func snapshots(
        bufferingPolicy: AsyncStream<SCXMLSessionSnapshot>.Continuation.BufferingPolicy
    ) -> AsyncStream<SCXMLSessionSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SCXMLSessionSnapshot.self, bufferingPolicy: bufferingPolicy)
        continuation.yield(snapshot(cause: .now))
        let number = nextSubscriber
        nextSubscriber += 1
        subscribers[number] = continuation
        return stream
    }

    /// Gives `snapshot` to every reader; forgets those that stopped reading.
    mutating func publish(_ snapshot: SCXMLSessionSnapshot) {
        for (number, continuation) in subscribers {
            if case .terminated = continuation.yield(snapshot) { subscribers[number] = nil }
        }
    }

    // MARK: - Event I/O processors

    /// Whether the session has event I/O processors or Swift invokers to listen to.
    var hasEventProcessors: Bool { !session.options.eventProcessors.isEmpty || !session.options.invokers.isEmpty }

    /// Takes what the event I/O processors brought. An event sent to a session of this process that
    /// has not arrived within `limit` of its send is given up, as ``SCXMLSession/settle(upTo:)``
    /// gives it up, so that the events after it are delivered.
    mutating func receive(
        owner: any TimerWheelTarget, givingUpAfter limit: Duration?
    ) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        try perform(.arrivals, owner: owner) { session throws(MachineError<String, SCXMLEvent>) in
            var step = try session.receiveEvents()
            if let limit, session.hasAwaitedPlaces {
                step.merge(
                    try session.runCascade { session throws(MachineError<String, SCXMLEvent>) in
                        session.host.router.giveUpAwaitedPlaces(after: limit)
                        try session.pump()
                    })
            }
            return step
        }
    }

    /// Stops everything: the wheel's entry, the listener, the readers, and the sessions at the
    /// event I/O processors.
    mutating func stop() {
        alarm.cancel(in: wheel)
        listener?.cancel()
        listener = nil
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
        stepObservers.removeAll()
        session.close()
    }
}

/// Waits for what the event I/O processors and the Swift invocations of a live session bring, and
/// hands it to the session where it lives, until cancelled.
///
/// The invocations' inbox wakes the listener when something arrives. The processors' protocol has
/// no way to push an arrival, so while none is busy the listener looks every `idleInterval`; while
/// one is, it waits for its arrivals.
func listenToEventProcessors(
    _ processors: [any SCXMLEventProcessor], inbox: InvokerInbox, idleInterval: Duration = .milliseconds(10),
    waitLimit: Duration = .seconds(5), receive: @escaping @Sendable (_ givingUpAfter: Duration?) async -> Bool
) -> Task<Void, Never> {
    Task {
        var busySince: ContinuousClock.Instant?
        while !Task.isCancelled {
            if inbox.hasArrivals {
                guard await receive(nil) else { return }
                continue
            }
            guard processors.contains(where: \.isBusy) else {
                busySince = nil
                // The inbox wakes its waiter; the processors are looked at every idle interval.
                await inbox.waitForArrivals(upTo: processors.isEmpty ? .seconds(60) : idleInterval)
                continue
            }
            let since = busySince ?? .now
            busySince = since
            for processor in processors where processor.isBusy {
                await processor.waitForArrivals(upTo: .milliseconds(50))
            }
            let overdue = ContinuousClock.now - since > waitLimit
            guard await receive(overdue ? waitLimit : nil) else { return }
            if overdue { busySince = nil }
        }
    }
}
