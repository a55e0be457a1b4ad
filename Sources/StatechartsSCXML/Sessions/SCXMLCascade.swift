import CStatechartsThread
import Statecharts

/// The budget of the cascade a session is running now: what one call of an ``SCXMLSession`` may
/// still spend, in every session it reaches.
///
/// The session makes one for each call (``SCXMLSession/start()``, ``SCXMLSession/send(_:)``,
/// ``SCXMLSession/advance(by:)``, ...; a call that moves time on starts the budget again at each
/// instant at which timers fire) and binds it to ``current`` while the call runs, so that
/// the data models of all its sessions draw on the same script time. A data model stops an
/// evaluation when ``remainingScriptTime`` is spent and records why with ``record(_:)``; the
/// session then ends with `MachineError.limitExceeded`.
///
/// A data model used outside a session (a machine made with `SCXMLChart.makeMachine(info:)`)
/// finds no current cascade and applies its `SCXMLSessionInfo.limits` to each evaluation alone.
///
/// Whoever binds a cascade to ``current`` calls ``end()`` when the call returns, as the session
/// does: a data model may keep something set up for the whole cascade (the ECMAScript model keeps
/// its script watchdog armed from one evaluation to the next) and undoes it then.
///
/// Not thread-safe on its own: a session runs on one thread at a time, and so does its cascade,
/// which is why its properties skip the dynamic exclusivity checks of class properties.
public final class SCXMLCascade: @unchecked Sendable {
    /// The cascade of the session call running on this thread; `nil` outside one.
    ///
    /// A session's calls are synchronous, so the call's cascade is bound to the thread it runs
    /// on (``withCurrent(_:_:)``), not to a task: binding a task-local value outside a task
    /// allocates, twice, on every call.
    public static var current: SCXMLCascade? {
        guard let pointer = statecharts_current_cascade() else { return nil }
        return Unmanaged<SCXMLCascade>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with `cascade` as ``current`` on this thread, then restores the cascade bound
    /// before (calls nest: an inner session call binds its own and gives the outer one back).
    ///
    /// The binding is a C thread-local pointer (`CStatechartsThread`): it holds the cascade
    /// unretained, kept alive by this function's argument while it is bound.
    public static func withCurrent<Result, Failure: Error>(
        _ cascade: SCXMLCascade?, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        defer { withExtendedLifetime(cascade) {} }
        return try withCurrent(unretained: cascade.map { Unmanaged.passUnretained($0) }, body)
    }

    /// ``withCurrent(_:_:)`` for a cascade that the caller keeps alive until `body` returns, as a
    /// session keeps its own: nothing is retained or released.
    @inline(__always)
    static func withCurrent<Result, Failure: Error>(
        unretained cascade: Unmanaged<SCXMLCascade>?, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let previous = statecharts_current_cascade()
        statecharts_bind_cascade(cascade.map { UnsafeRawPointer($0.toOpaque()) })
        defer { statecharts_bind_cascade(previous) }
        return try body()
    }

    /// The limits of the session.
    public let limits: SCXMLLimits
    /// When the cascade's script time is spent; `nil` when scripts have no time limit.
    ///
    /// The script time is counted from the first time a data model asks for it in the cascade
    /// (or in an instant of a call that moves time on), which it does before it runs its first
    /// script: a cascade that runs no script (the null data model's) never reads the clock.
    public var scriptDeadline: ContinuousClock.Instant? {
        if !isScriptClockStarted {
            isScriptClockStarted = true
            startedScriptDeadline = limits.scriptTime.map { ContinuousClock.now + $0 }
        }
        return startedScriptDeadline
    }
    /// What ``scriptDeadline`` read when it was first asked for since the cascade or its instant
    /// started.
    @exclusivity(unchecked) private var startedScriptDeadline: ContinuousClock.Instant?
    /// Whether ``scriptDeadline`` was asked for since the cascade or its instant started.
    @exclusivity(unchecked) private var isScriptClockStarted = false
    /// The first limit a session went past during the cascade; it ends the session.
    @exclusivity(unchecked) public private(set) var violation: LimitViolation?
    /// The Swift code of the guards the documents name (``SCXMLSession/Options/guards``).
    public let namedGuards: [String: SCXMLNamedGuard]
    /// The Swift code of the actions the documents name (``SCXMLSession/Options/actions``).
    public let namedActions: [String: SCXMLNamedAction]
    /// Whether a session went past a limit during the cascade (``violation`` is set).
    @exclusivity(unchecked) public private(set) var isStopped = false
    /// What ``end()`` tells, in the order they joined: the first kept inline, so that the usual
    /// cascade, with one data model that joins, allocates nothing for it.
    @exclusivity(unchecked) private var firstParticipant: (any SCXMLCascadeParticipant)?
    @exclusivity(unchecked) private var moreParticipants: [any SCXMLCascadeParticipant] = []

    /// A cascade that starts now.
    public init(
        limits: SCXMLLimits, namedGuards: [String: SCXMLNamedGuard] = [:],
        namedActions: [String: SCXMLNamedAction] = [:]
    ) {
        self.limits = limits
        self.namedGuards = namedGuards
        self.namedActions = namedActions
    }

    /// Makes an ended cascade (``end()``) new again, for the next call of the session that made it:
    /// a whole budget, no violation. The session reuses its cascade only while it holds the sole
    /// reference to it, so nothing that saw the last call sees this change.
    func restart() {
        isScriptClockStarted = false
        // A violation is recorded with isStopped, so only a stopped cascade has one to drop.
        if isStopped {
            violation = nil
            isStopped = false
        }
    }

    /// Gives the scripts a whole budget again: a call that moves time on runs one cascade per
    /// instant at which timers fire.
    func beginInstant() {
        isScriptClockStarted = false
    }

    /// The script time left; `nil` for no limit. Zero or less once spent.
    public var remainingScriptTime: Duration? {
        scriptDeadline.map { $0 - ContinuousClock.now }
    }

    /// Records a limit a session went past; the first one is kept.
    public func record(_ violation: LimitViolation) {
        if self.violation == nil {
            self.violation = violation
            isStopped = true
        }
    }

    /// Has ``end()`` tell `participant` when the cascade ends: a data model that set something up
    /// for the whole cascade undoes it then. The cascade holds it until it ends, so a cascade
    /// that is never ended keeps what joined it.
    public func join(_ participant: any SCXMLCascadeParticipant) {
        if firstParticipant == nil {
            firstParticipant = participant
        } else {
            moreParticipants.append(participant)
        }
    }

    /// Ends the cascade: tells what joined it (``join(_:)``), once each, in order. Called by
    /// whoever bound the cascade to ``current``, when that call returns.
    @inline(__always)
    public func end() {
        if firstParticipant != nil { endParticipants() }
    }

    /// Tells the participants, in the order they joined, that the cascade has ended; out of line,
    /// so that a cascade nobody joined (the null data model's) ends in a comparison.
    private func endParticipants() {
        guard let first = firstParticipant else { return }
        firstParticipant = nil
        let more = moreParticipants
        moreParticipants = []
        first.cascadeEnded(self)
        for participant in more { participant.cascadeEnded(self) }
    }
}

/// What joins a cascade (``SCXMLCascade/join(_:)``) to be told when it ends.
public protocol SCXMLCascadeParticipant: AnyObject {
    /// The cascade has ended: the call that ran it returned.
    func cascadeEnded(_ cascade: SCXMLCascade)
}
