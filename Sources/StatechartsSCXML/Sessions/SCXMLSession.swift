import Foundation
import Statecharts

/// Runs an SCXML document: its session and every session it invokes, on one virtual clock. The
/// one way to run a document, in the library and in every command of the `statechart` tool.
///
/// The top session's machine runs in a `MachineHost` on a `ManualClock`, as every typed machine
/// runs in one, and its effects leave through the host's router, which holds the sessions it
/// invoked and the external queue of all of them. What a session's machine asks for leaves it as
/// effects (see `MachineEffect`), and they are done in the order they were asked for:
/// - an `<invoke>` of an SCXML document (by `src`, `srcexpr` or `<content>`, with `<param>` and
///   `namelist` values for its `<data>`) starts a child session once its state has been entered;
///   exiting the state cancels the child, its timers and its own children, and nothing a
///   cancelled child sent is processed;
/// - a `<send>` to the session itself, to `#_parent`, `#_INVOKEID` or `#_scxml_SESSIONID` is
///   delivered in the order sent, delayed or not, and cancelled by `<cancel>`; `autoforward`
///   forwards external events to a child, `<finalize>` runs before an event from a child, and a
///   child that finishes sends `done.invoke.ID` to its parent;
/// - a `<send>` through another event I/O processor (``Options/eventProcessors``, such as the Basic
///   HTTP one of StatechartsHTTP) goes to that processor; what it brings back is delivered when
///   the caller lets it (``receiveEvents()``, ``settle(upTo:)``);
/// - `<log>` records are collected in the ``SCXMLStep`` each call returns.
///
/// Sessions run one at a time, each event to completion, so a run without event I/O processors is
/// deterministic.
///
/// ```swift
/// let chart = try SCXMLChart.load(contentsOf: url, dataModels: dataModels)
/// var session = SCXMLSession(chart: chart)
/// try session.start()
/// try session.send("go")
/// try session.advance(by: .seconds(1))
/// print(session.activeStates)
/// ```
public struct SCXMLSession: Sendable {
    /// The machine of one session.
    public typealias Machine = StateMachine<String, SCXMLEvent, SCXMLContext>

    /// The host of the top session's machine, on a manual clock: its router holds everything else
    /// (the invoked sessions, the external queue they share, the delayed events between them, the
    /// Swift invocations and the event I/O processors' sends), and every session's effects leave
    /// through it.
    var host: MachineHost<SessionEffectRouter, ManualClock>
    /// How many deliveries and timer firings the cascade at the current instant has taken, in
    /// every session: bounded like one machine's microsteps, so that sessions that keep sending
    /// each other (or themselves) events end in an error, never in a hang.
    var cascade = 0
    var recorder = MachineRecorder<String, SCXMLEvent>()
    /// The cascade of the current call, or of the last one, ended, kept to be made new again by
    /// the next call while the session holds the only reference to it (see ``readyCascade()``).
    var spareCascade: SCXMLCascade?
    /// The error that ended the session: a limit it went past (`MachineError.limitExceeded`).
    /// An ended session takes no more calls: each throws this error again.
    public internal(set) var endedBy: MachineError<String, SCXMLEvent>?

    /// A session of `chart`, not started yet.
    public init(chart: SCXMLChart, options: Options = Options()) {
        let dataModels = options.dataModels ?? (SCXMLDocument.builtInDataModels + [chart.dataModel])
        var router = SessionEffectRouter(chart: chart, options: options, dataModels: dataModels)
        let info = SCXMLSessionInfo(
            id: options.sessionID, name: chart.document.name, limits: options.limits,
            eventProcessors: Self.open(options.sessionID, at: options.eventProcessors),
            invokerTypes: options.invokers.keys.sorted())
        var machine = chart.makeMachine(info: info)
        router.configure(&machine)
        router.problems = Self.missingProcessors(in: chart, have: options.eventProcessors)
        host = MachineHost(machine: machine, router: router)
    }

    /// The top session's machine: the document's.
    public internal(set) var machine: Machine {
        get { host.machine }
        set { host.machine = newValue }
        _modify { yield &host.machine }
    }

    /// The document's chart.
    public var chart: SCXMLChart { host.router.chart }

    /// How the session runs.
    public var options: Options { host.router.options }

    var dataModels: [any SCXMLDataModel.Type] { host.router.dataModels }

    /// The time of every session, measured from the start.
    public internal(set) var now: Duration {
        get { host.router.now }
        set { host.router.now = newValue }
    }

    /// What went wrong outside the top session: invoked documents that could not be read or
    /// built (each such `<invoke>` raised `error.execution` in its session), child sessions that
    /// failed, events sent through a processor that never arrived. Oldest first.
    public internal(set) var problems: [SCXMLDiagnostic] {
        get { host.router.problems }
        _modify { yield &host.router.problems }
    }

    // MARK: - Reading

    /// The identifier of the top session (SCXML's `_sessionid`).
    public var sessionID: String { machine.context.info.id }

    /// Whether the top session has started or finished.
    public var status: MachineStatus { machine.status }

    /// The top session's active atomic states.
    public var activeStates: [String] { machine.activeStates }

    /// Every active state of the top session, parents before children.
    public var configuration: [String] { machine.configuration }

    /// The identifiers of the invoked sessions now running, in the order they started.
    public var childSessionIDs: [String] { host.router.childOrder }

    /// The `invokeid`s of the Swift invocations (``Options/invokers``) now running, sorted.
    public var runningInvocations: [String] { host.router.works.values.map(\.described.invokeID).sorted() }

    /// The active states of a running invoked session; `nil` when there is none with that identifier.
    public func activeStates(ofSession id: String) -> [String]? { host.router.children[id]?.machine.activeStates }

    /// The machine of a running session: the top one or an invoked one.
    public func machine(ofSession id: String) -> Machine? {
        id == sessionID ? machine : host.router.children[id]?.machine
    }

    /// The earliest instant at which a timer of any session, or a delayed event between sessions,
    /// falls due.
    public var nextDeadline: Duration? {
        guard endedBy == nil else { return nil }
        var deadlines = [machine.nextDeadline, host.router.delayed.first?.deadline].compactMap { $0 }
        deadlines += host.router.children.values.compactMap { $0.machine.nextDeadline }
        return deadlines.min()
    }

    // MARK: - Running

    /// Starts the top session and the sessions it invokes.
    ///
    /// - Throws: What the top machine's `start()` throws.
    @discardableResult
    public mutating func start() throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        try runCascade { session throws(MachineError<String, SCXMLEvent>) in
            do {
                defer { session.afterRouting() }
                if session.options.recordsMicrosteps {
                    try session.host.start(observer: &session.recorder)
                } else {
                    try session.host.start()
                }
            }
            try session.pump()
        }
    }

    /// Sends an external event to the top session and processes everything it causes in every
    /// session.
    ///
    /// - Returns: The step; its ``SCXMLStep/handled`` tells whether a transition handled the event.
    /// - Throws: What the top machine's `send(_:)` throws; `MachineError/unhandledEvent(_:configuration:)`
    ///   when no transition handled it and ``Options/unhandledEvents`` is `.reject`.
    @discardableResult
    public mutating func send(_ event: SCXMLEvent) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        var handled = false
        var result = try runCascade { session throws(MachineError<String, SCXMLEvent>) in
            do {
                defer { session.afterRouting() }
                handled =
                    session.options.recordsMicrosteps
                    ? try session.host.send(event, observer: &session.recorder) : try session.host.send(event)
            }
            try session.pump()
        }
        if !handled && options.unhandledEvents == .reject {
            throw .unhandledEvent(event, configuration: machine.activeStates)
        }
        result.handled = handled
        return result
    }

    /// Moves every session's time forward by `duration`, firing timers and delayed events in order.
    ///
    /// - Throws: What the top machine throws while processing them.
    @discardableResult
    public mutating func advance(by duration: Duration) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        try advance(to: now + duration)
    }

    /// Moves every session's time to `instant`, firing timers and delayed events in order.
    ///
    /// - Throws: What the top machine throws while processing them.
    @discardableResult
    public mutating func advance(to instant: Duration) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        try runCascade { session throws(MachineError<String, SCXMLEvent>) in
            while session.machine.status == .running, let deadline = session.nextDeadline, deadline <= instant {
                if deadline > session.now { session.beginInstant() }
                session.now = max(session.now, deadline)
                try session.pump()
                session.host.router.releaseDelayedDeliveries()
                session.afterRouting()
                try session.pump()
            }
            session.now = max(session.now, instant)
            let now = session.now
            // Nothing falls due any more: each machine's time only catches up with the session's.
            if session.machine.status == .running {
                defer { session.afterRouting() }
                if session.options.recordsMicrosteps {
                    try session.host.advance(to: now, observer: &session.recorder)
                } else {
                    try session.host.advance(to: now)
                }
            }
            for id in session.host.router.childOrder {
                session.host.router.updateChild(id) { _ = try? $0.advance(to: now) }
            }
        }
    }

    /// Ends every session: closes them at the event I/O processors and drops the children. The top
    /// machine stays as it is, to be read.
    public mutating func close() {
        host.router.close()
    }

    // MARK: - Steps

    /// Runs one call of the session as a cascade: under a budget of its own, bound to
    /// ``SCXMLCascade/current`` so that every session's data model draws on it. A call that fails
    /// abandons its cascade; one that goes past a limit also ends the session.
    ///
    /// Inlined into each call: specialised for its closure instead, it took what the closure
    /// captures (the event of ``send(_:)``) as copies.
    @inline(__always)
    mutating func runCascade(
        _ body: (inout SCXMLSession) throws(MachineError<String, SCXMLEvent>) -> Void
    ) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        if let endedBy { throw endedBy }
        beginStep()
        // The session holds the cascade for the whole call, so the call uses it unretained.
        let budget = readyCascade()
        var failure = SCXMLCascade.withCurrent(unretained: budget) { () -> MachineError<String, SCXMLEvent>? in
            do throws(MachineError<String, SCXMLEvent>) {
                try body(&self)
                return nil
            } catch {
                return error
            }
        }
        budget._withUnsafeGuaranteedRef { budget in
            budget.end()
            // Only a stopped cascade has a violation: the flag is read first, not the violation's fields.
            if budget.isStopped, let violation = budget.violation { failure = .limitExceeded(violation) }
        }
        guard let failure else { return endStep() }
        abandonCascade()
        if case .limitExceeded(let violation) = failure { end(failure, violation: violation) }
        throw failure
    }

    /// Ends the session after it went past a limit: its children stop, and every later call
    /// throws `error`.
    mutating func end(_ error: MachineError<String, SCXMLEvent>, violation: LimitViolation) {
        endedBy = error
        problems.append(
            SCXMLDiagnostic(
                .error, "the session was ended: \(violation.summary)",
                at: violation.location ?? chart.document.location, kind: .document))
        close()
    }

    /// Starts a call's step. Its cascade is made afterwards, with a whole budget of its own.
    mutating func beginStep() {
        // Left empty by the last call's ``endStep()``, unless that call failed.
        if !host.router.step.isUntouched { host.router.step = SCXMLStep() }
        cascade = 0
        if options.recordsMicrosteps { recorder = MachineRecorder() }
    }

    /// The cascade of a new call, which the session holds in ``spareCascade`` until the next call
    /// and so keeps alive for the whole call: the last call's, made new again, when nothing else
    /// holds it (a copy of the session, or a data model that kept it); otherwise a new one.
    @inline(__always)
    mutating func readyCascade() -> Unmanaged<SCXMLCascade> {
        if isKnownUniquelyReferenced(&spareCascade) {
            let cascade = Unmanaged.passUnretained(spareCascade.unsafelyUnwrapped)
            cascade._withUnsafeGuaranteedRef { $0.restart() }
            return cascade
        }
        let cascade = SCXMLCascade(limits: options.limits, namedGuards: options.guards, namedActions: options.actions)
        spareCascade = cascade
        return Unmanaged.passUnretained(cascade)
    }

    /// Starts the cascade of a new instant: its deliveries are counted, and its scripts timed, from
    /// zero.
    mutating func beginInstant() {
        cascade = 0
        SCXMLCascade.current?.beginInstant()
    }

    /// After a call failed (a machine's step or the cascade did not end): drops the deliveries of
    /// the abandoned cascade, as a machine drops the events queued in a step it abandons. What the
    /// top machine asked for before it stopped was routed by its host, which settles also when a
    /// step throws, so that the machine is not left paused at its effects.
    mutating func abandonCascade() {
        afterRouting()
        host.router.pending.removeAll()
        host.router.pendingHead = 0
    }

    /// The call's step: its logs, and what the recorder saw when the session records microsteps.
    /// The session's step is left empty.
    @inline(__always)
    mutating func endStep() -> SCXMLStep {
        var result = SCXMLStep()
        swap(&result, &host.router.step)
        // Every use of the recorder is under `recordsMicrosteps`: without it, it holds nothing.
        guard options.recordsMicrosteps else { return result }
        return recordedStep(result)
    }

    /// ``endStep()``'s step, `result`, with what the recorder saw; the recorder is made new.
    @inline(never)
    mutating func recordedStep(_ result: SCXMLStep) -> SCXMLStep {
        var result = result
        result.microsteps = recorder.microsteps
        let document = chart.document.location
        result.errors = recorder.events.compactMap { SCXMLErrorData.diagnostic(of: $0, fallback: document) }
        result.firedTimers = recorder.events.filter { $0.origin == .timer }.map(\.name)
        recorder = MachineRecorder()
        return result
    }
}

extension SCXMLSession: CustomStringConvertible {
    /// The top session's active states, as its machine prints them: `[playing]`.
    public var description: String { machine.description }
}
