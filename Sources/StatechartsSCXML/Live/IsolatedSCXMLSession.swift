import Observation
import Statecharts

/// An SCXML document running live on the actor that made it: the main actor in an app.
///
/// It is what ``SCXMLSession`` is (the document with every session it invokes, its data model,
/// its delayed events and its event I/O processors), on a real clock instead of a virtual one: its
/// timers and delayed `<send>`s fire by themselves when their time comes, on the clock of a
/// `TimerWheel` (`TimerWheel.continuous` by default; a wheel on a test clock in tests). Like
/// `IsolatedStatechart`, it is called synchronously on its actor, each call processed to
/// completion, and what fires on the clock comes back to that actor.
///
/// ```swift
/// @MainActor @Observable
/// final class LampModel {
///     let lamp: IsolatedSCXMLSession
///
///     init(chart: SCXMLChart) {
///         lamp = IsolatedSCXMLSession(chart)
///         try? lamp.start()
///     }
///
///     var isOn: Bool { lamp.isActive("on") }
///     func toggle() { try? lamp.send("toggle") }
/// }
/// ```
///
/// It is `Observable`: a SwiftUI view (or `withObservationTracking`) that reads ``configuration``,
/// ``activeStates``, ``status``, ``isActive(_:isolation:)`` or ``value(of:isolation:)`` is told
/// once after each step that changes what it read, and not for a step that changes nothing it
/// read.
///
/// Every method takes the caller's isolation (`#isolation`), and the properties check it; calling
/// from another actor stops the program, as Swift's own isolation checks do. Releasing it stops its
/// timers and closes its sessions at their event I/O processors.
public final class IsolatedSCXMLSession: TimerWheelTarget, Observable, @unchecked Sendable {
    /// The actor the session belongs to.
    public let isolation: any Actor
    // Only touched on `isolation`, which every entry point checks.
    var live: LiveSession
    var observed = ObservedSessionParts()
    let registrar = ObservationRegistrar()

    /// A live session of `chart` on the caller's actor, not started yet.
    ///
    /// - Parameters:
    ///   - chart: The document's chart.
    ///   - options: How the session runs: its limits, data models, event I/O processors and log.
    ///   - timers: The wheel whose clock the session runs on: `TimerWheel.continuous` by default.
    ///   - isolation: The actor the session belongs to: the caller's, which must be an actor.
    public convenience init(
        _ chart: SCXMLChart, options: SCXMLSession.Options = SCXMLSession.Options(),
        timers: TimerWheel = .continuous, isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(session: SCXMLSession(chart: chart, options: options), timers: timers, isolation: isolation)
    }

    /// A live session on the caller's actor that continues `session`: one restored from an
    /// ``SCXMLSessionArchive`` (``SCXMLSession/init(chart:restoring:options:)``), or one made and
    /// perhaps run by hand. Its time goes on from ``SCXMLSession/now``; call ``start(isolation:)``
    /// to connect it to the clock.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - timers: The wheel whose clock the session runs on: `TimerWheel.continuous` by default.
    ///   - isolation: The actor the session belongs to: the caller's, which must be an actor.
    public init(session: SCXMLSession, timers: TimerWheel = .continuous, isolation: isolated (any Actor)? = #isolation)
    {
        guard let isolation else {
            preconditionFailure("an IsolatedSCXMLSession must be made on an actor, such as the main actor")
        }
        self.isolation = isolation
        live = LiveSession(session: session, wheel: timers)
    }

    deinit {
        live.stop()
    }

    // MARK: - Driving

    /// Starts the top session and the sessions it invokes; for a session given already running
    /// (``init(session:timers:isolation:)``), connects it to the clock instead: what fell due
    /// while it was stored fires now, and its timers are armed.
    ///
    /// - Throws: `MachineError.alreadyStarted` the second time; what the session's start throws.
    @discardableResult
    public func start(
        isolation caller: isolated (any Actor)? = #isolation
    ) throws(MachineError<String, SCXMLEvent>)
        -> SCXMLStep
    {
        check(caller)
        return try observing { () throws(MachineError<String, SCXMLEvent>) in
            let given = live.session.status != .notStarted
            if given && live.hasStarted { throw .alreadyStarted }
            live.hasStarted = true
            let step = try live.perform(.start, owner: self) { session throws(MachineError<String, SCXMLEvent>) in
                given ? SCXMLStep() : try session.start()
            }
            listen()
            return step
        }
    }

    /// Sends an external event to the top session and processes everything it causes in every
    /// session, at the clock's now (what fell due before it is processed first).
    ///
    /// - Returns: The step; its ``SCXMLStep/handled`` tells whether a transition handled the event.
    /// - Throws: What ``SCXMLSession/send(_:)`` throws.
    @discardableResult
    public func send(
        _ event: SCXMLEvent, isolation caller: isolated (any Actor)? = #isolation
    ) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        check(caller)
        return try observing { () throws(MachineError<String, SCXMLEvent>) in
            try live.perform(.event(event.name), owner: self) { session throws(MachineError<String, SCXMLEvent>) in
                try session.send(event)
            }
        }
    }

    // MARK: - Reading

    /// Every active state of the top session, parents before children. Observable.
    public var configuration: [String] {
        checkIsolation()
        registrar.access(self, keyPath: \.configuration)
        observed.configuration = true
        return live.session.configuration
    }

    /// The top session's active atomic states. Observable.
    public var activeStates: [String] {
        checkIsolation()
        registrar.access(self, keyPath: \.configuration)
        observed.configuration = true
        return live.session.activeStates
    }

    /// Whether the top session is running or has finished. Observable.
    public var status: MachineStatus {
        checkIsolation()
        registrar.access(self, keyPath: \.status)
        observed.status = true
        return live.session.status
    }

    /// Whether the state with identifier `state` is active in the top session. Observable: a reader
    /// is told only when this state's activity changes.
    public func isActive(_ state: String, isolation caller: isolated (any Actor)? = #isolation) -> Bool {
        check(caller)
        registrar.access(self, keyPath: \.[activityOf: state])
        observed.states.insert(state)
        return self[activityOf: state]
    }

    /// The value at `location` in the top session's data model: a variable's name, or any
    /// location expression of the document's data model (`player.volume` in ECMAScript); `nil`
    /// when it names no value. Observable: a reader is told when a step changes this value.
    ///
    /// It is evaluated under the session's script-time limit, as the document's own scripts are.
    public func value(of location: String, isolation caller: isolated (any Actor)? = #isolation) -> SCXMLValue? {
        check(caller)
        registrar.access(self, keyPath: \.[valueOf: location])
        let value = live.value(of: location)
        observed.values[location] = value
        return value
    }

    /// The activity of the state `state`: the key path observers of ``isActive(_:isolation:)`` are
    /// registered under.
    subscript(activityOf state: String) -> Bool { live.session.configuration.contains(state) }

    /// The value at `location`: the key path observers of ``value(of:isolation:)`` are registered
    /// under.
    subscript(valueOf location: String) -> SCXMLValue? { live.value(of: location) }

    /// The error that ended the session: a limit it went past; `nil` while it may go on.
    public var endedBy: MachineError<String, SCXMLEvent>? {
        checkIsolation()
        return live.session.endedBy
    }

    /// What went wrong outside the top session (see ``SCXMLSession/problems``).
    public var problems: [SCXMLDiagnostic] {
        checkIsolation()
        return live.session.problems
    }

    /// The session as it is now, with a step that did nothing.
    public func snapshot(isolation caller: isolated (any Actor)? = #isolation) -> SCXMLSessionSnapshot {
        check(caller)
        return live.snapshot(cause: .now)
    }

    /// The session itself as of its last step: a copy, to inspect or to archive.
    public func session(isolation caller: isolated (any Actor)? = #isolation) -> SCXMLSession {
        check(caller)
        return live.session
    }

    /// The session's whole state now, its invoked sessions with it, to restore later with
    /// ``SCXMLSession/init(chart:restoring:options:)`` and ``init(session:timers:isolation:)``.
    ///
    /// The session is first brought to the clock's now, firing what fell due by then (an error that
    /// does is told to the snapshots' readers, as when the clock fires it by itself).
    ///
    /// - Throws: What ``SCXMLSession/archive()`` throws: ``SCXMLArchiveError/eventsInFlight`` while
    ///   events are on their way through an event I/O processor.
    public func archive(
        isolation caller: isolated (any Actor)? = #isolation
    ) throws(SCXMLArchiveError)
        -> SCXMLSessionArchive
    {
        check(caller)
        if live.session.status == .running && live.hasStarted { catchUp(.timers) }
        return try live.session.archive()
    }

    /// The current snapshot, then one after every step that changed the session or did something
    /// (an event, a log, an error), until the session is released.
    ///
    /// - Parameters:
    ///   - bufferingPolicy: What to keep while the reader is behind: every snapshot (the default), or
    ///     only the newest ones.
    ///   - caller: The caller's actor, which must be the session's.
    public func snapshots(
        bufferingPolicy: AsyncStream<SCXMLSessionSnapshot>.Continuation.BufferingPolicy = .unbounded,
        isolation caller: isolated (any Actor)? = #isolation
    ) -> AsyncStream<SCXMLSessionSnapshot> {
        check(caller)
        return live.snapshots(bufferingPolicy: bufferingPolicy)
    }

    /// Calls `observer` with every later step's snapshot and the session as the step left it,
    /// synchronously on the session's actor, until it returns `false` or the session is released:
    /// for the inspector, which describes each step before the next one runs.
    package func observeSteps(
        isolation caller: isolated (any Actor)? = #isolation,
        _ observer: @escaping (SCXMLSessionSnapshot, SCXMLSession) -> Bool
    ) {
        check(caller)
        live.stepObservers.append(observer)
    }

    // MARK: - Coming back to the actor

    /// The wheel says the session's next deadline has come.
    @usableFromInline
    package func timerFired() async {
        await wake(isolation: isolation)
    }

    private func wake(isolation: isolated any Actor) {
        live.alarmFired()
        catchUp(.timers)
    }

    /// Processes what fell due by now; an error is told to the snapshots' readers.
    private func catchUp(_ cause: SCXMLSessionSnapshot.Cause) {
        observing { () -> Void in
            _ = try? live.perform(cause, owner: self) { _ throws(MachineError<String, SCXMLEvent>) in SCXMLStep() }
        }
    }

    /// Starts listening to the session's event I/O processors, when it has any.
    private func listen() {
        guard live.hasEventProcessors, live.listener == nil else { return }
        live.listener = listenToEventProcessors(
            live.session.options.eventProcessors, inbox: live.session.host.router.inbox
        ) { [weak self] limit in
            guard let self else { return false }
            await self.receive(givingUpAfter: limit, isolation: self.isolation)
            return true
        }
    }

    private func receive(givingUpAfter limit: Duration?, isolation: isolated any Actor) {
        observing { () -> Void in _ = try? live.receive(owner: self, givingUpAfter: limit) }
    }

    // MARK: - Isolation

    func check(_ caller: (any Actor)?) {
        guard let caller, caller === isolation else {
            preconditionFailure("an IsolatedSCXMLSession was used off the actor that made it")
        }
    }

    func checkIsolation() {
        isolation.preconditionIsolated("an IsolatedSCXMLSession was used off the actor that made it")
    }

    // MARK: - Observation

    /// Runs a step, then tells the observers of what it changed, once each.
    ///
    /// Observation's tracking is one-shot: an observer told of a change is removed, and observes
    /// again only by reading again, which marks the part observed again.
    private func observing<Result, Failure: Error>(_ step: () throws(Failure) -> Result) throws(Failure) -> Result {
        guard !observed.isEmpty else { return try step() }
        let configuration = live.session.configuration
        let status = live.session.status
        defer { notifyObservers(configuration: configuration, status: status) }
        return try step()
    }

    private func notifyObservers(configuration before: [String], status: MachineStatus) {
        let after = live.session.configuration
        let tellConfiguration = observed.configuration && before != after
        let tellStatus = observed.status && status != live.session.status
        var states: [String] = []
        if before != after {
            let was = Set(before)
            let now = Set(after)
            states = observed.states.filter { was.contains($0) != now.contains($0) }.sorted()
        }
        var values: [String] = []
        for (location, seen) in observed.values.sorted(by: { $0.key < $1.key }) where live.value(of: location) != seen {
            values.append(location)
        }
        if tellConfiguration { observed.configuration = false }
        if tellStatus { observed.status = false }
        observed.states.subtract(states)
        for location in values { observed.values[location] = nil }

        if tellConfiguration { registrar.withMutation(of: self, keyPath: \.configuration) {} }
        if tellStatus { registrar.withMutation(of: self, keyPath: \.status) {} }
        for state in states { registrar.withMutation(of: self, keyPath: \.[activityOf: state]) {} }
        for location in values { registrar.withMutation(of: self, keyPath: \.[valueOf: location]) {} }
    }
}

/// What the observers of an ``IsolatedSCXMLSession`` have read: only those parts are compared
/// after a step.
struct ObservedSessionParts {
    var configuration = false
    var status = false
    /// The states whose activity was read.
    var states: Set<String> = []
    /// The locations whose values were read, with the value read.
    var values: [String: SCXMLValue?] = [:]

    /// Whether nothing has been read: steps then compare nothing.
    var isEmpty: Bool { !configuration && !status && states.isEmpty && values.isEmpty }
}
