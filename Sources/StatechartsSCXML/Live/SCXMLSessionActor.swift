import Statecharts

/// An SCXML document running live as its own actor: send it events from any task.
///
/// It is what ``SCXMLSession`` is (the document with every session it invokes, its data model,
/// its delayed events and its event I/O processors), on a real clock: its timers and delayed
/// `<send>`s fire by themselves when their time comes, on the clock of a `TimerWheel`
/// (`TimerWheel.continuous` by default; a wheel on a test clock in tests). Events are processed
/// one at a time, in the order they reach the actor, each to completion. Releasing the actor
/// stops its timers and closes its sessions at their event I/O processors.
///
/// ```swift
/// let lamp = SCXMLSessionActor(chart)
/// try await lamp.start()
/// try await lamp.send("toggle")
/// for await snapshot in await lamp.snapshots() {
///     print(snapshot.activeStates)
/// }
/// ```
///
/// On the main actor, ``IsolatedSCXMLSession`` does the same synchronously, and is `Observable`.
public actor SCXMLSessionActor: TimerWheelTarget {
    // Only touched on the actor, one call at a time, and by `deinit` when nothing else can.
    nonisolated(unsafe) var live: LiveSession

    /// A live session of `chart`, not started yet.
    ///
    /// - Parameters:
    ///   - chart: The document's chart.
    ///   - options: How the session runs: its limits, data models, event I/O processors and log.
    ///   - timers: The wheel whose clock the session runs on: `TimerWheel.continuous` by default.
    public init(
        _ chart: SCXMLChart, options: SCXMLSession.Options = SCXMLSession.Options(), timers: TimerWheel = .continuous
    ) {
        live = LiveSession(session: SCXMLSession(chart: chart, options: options), wheel: timers)
    }

    /// A live session that continues `session`: one restored from an ``SCXMLSessionArchive``, or
    /// one made and perhaps run by hand. Its time goes on from ``SCXMLSession/now``; call
    /// ``start()`` to connect it to the clock.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - timers: The wheel whose clock the session runs on: `TimerWheel.continuous` by default.
    public init(session: SCXMLSession, timers: TimerWheel = .continuous) {
        live = LiveSession(session: session, wheel: timers)
    }

    deinit {
        live.stop()
    }

    /// Starts the top session and the sessions it invokes; for a session given already running,
    /// connects it to the clock instead: what fell due while it was stored fires now, and its
    /// timers are armed.
    ///
    /// - Throws: `MachineError.alreadyStarted` the second time; what the session's start throws.
    @discardableResult
    public func start() throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        let given = live.session.status != .notStarted
        if given && live.hasStarted { throw .alreadyStarted }
        live.hasStarted = true
        let step = try live.perform(.start, owner: self) { session throws(MachineError<String, SCXMLEvent>) in
            given ? SCXMLStep() : try session.start()
        }
        if live.hasEventProcessors && live.listener == nil {
            live.listener = listenToEventProcessors(
                live.session.options.eventProcessors, inbox: live.session.host.router.inbox
            ) { [weak self] limit in
                guard let self else { return false }
                await self.receive(givingUpAfter: limit)
                return true
            }
        }
        return step
    }

    /// Sends an external event to the top session and processes everything it causes in every
    /// session, at the clock's now (what fell due before it is processed first).
    ///
    /// - Returns: The step; its ``SCXMLStep/handled`` tells whether a transition handled the event.
    /// - Throws: What ``SCXMLSession/send(_:)`` throws.
    @discardableResult
    public func send(_ event: SCXMLEvent) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        try live.perform(.event(event.name), owner: self) { session throws(MachineError<String, SCXMLEvent>) in
            try session.send(event)
        }
    }

    /// Every active state of the top session, parents before children.
    public var configuration: [String] { live.session.configuration }

    /// The top session's active atomic states.
    public var activeStates: [String] { live.session.activeStates }

    /// Whether the top session is running or has finished.
    public var status: MachineStatus { live.session.status }

    /// Whether the state with identifier `state` is active in the top session.
    public func isActive(_ state: String) -> Bool { live.session.configuration.contains(state) }

    /// The value at `location` in the top session's data model; `nil` when it names no value (see
    /// ``IsolatedSCXMLSession/value(of:isolation:)``).
    public func value(of location: String) -> SCXMLValue? { live.value(of: location) }

    /// The session as it is now, with a step that did nothing.
    public var snapshot: SCXMLSessionSnapshot { live.snapshot(cause: .now) }

    /// The session itself as of its last step: a copy, to inspect or to archive.
    public var session: SCXMLSession { live.session }

    /// The session's whole state now, its invoked sessions with it (see
    /// ``IsolatedSCXMLSession/archive(isolation:)``).
    ///
    /// - Throws: What ``SCXMLSession/archive()`` throws.
    public func archive() throws(SCXMLArchiveError) -> SCXMLSessionArchive {
        if live.session.status == .running && live.hasStarted { catchUp() }
        return try live.session.archive()
    }

    /// The current snapshot, then one after every step that changed the session or did something,
    /// until the actor is released.
    ///
    /// - Parameter bufferingPolicy: What to keep while the reader is behind: every snapshot (the
    ///   default), or only the newest ones.
    public func snapshots(
        bufferingPolicy: AsyncStream<SCXMLSessionSnapshot>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<SCXMLSessionSnapshot> {
        live.snapshots(bufferingPolicy: bufferingPolicy)
    }

    /// The wheel says the session's next deadline has come.
    @usableFromInline
    package func timerFired() async {
        live.alarmFired()
        catchUp()
    }

    private func catchUp() {
        _ = try? live.perform(.timers, owner: self) { _ throws(MachineError<String, SCXMLEvent>) in SCXMLStep() }
    }

    private func receive(givingUpAfter limit: Duration?) {
        _ = try? live.receive(owner: self, givingUpAfter: limit)
    }
}
