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
/// Not thread-safe on its own: a session runs on one thread at a time, and so does its cascade.
public final class SCXMLCascade: @unchecked Sendable {
    /// The cascade of the session call running on this task or thread; `nil` outside one.
    @TaskLocal public static var current: SCXMLCascade?

    /// The limits of the session.
    public let limits: SCXMLLimits
    /// When the cascade's script time is spent; `nil` when scripts have no time limit.
    public private(set) var scriptDeadline: ContinuousClock.Instant?
    /// The first limit a session went past during the cascade; it ends the session.
    public private(set) var violation: LimitViolation?
    /// The Swift code of the guards the documents name (``SCXMLSession/Options/guards``).
    public let namedGuards: [String: SCXMLNamedGuard]
    /// The Swift code of the actions the documents name (``SCXMLSession/Options/actions``).
    public let namedActions: [String: SCXMLNamedAction]

    /// A cascade that starts now.
    public init(
        limits: SCXMLLimits, namedGuards: [String: SCXMLNamedGuard] = [:],
        namedActions: [String: SCXMLNamedAction] = [:]
    ) {
        self.limits = limits
        self.namedGuards = namedGuards
        self.namedActions = namedActions
        scriptDeadline = limits.scriptTime.map { ContinuousClock.now + $0 }
    }

    /// Gives the scripts a whole budget again: a call that moves time on runs one cascade per
    /// instant at which timers fire.
    func beginInstant() {
        scriptDeadline = limits.scriptTime.map { ContinuousClock.now + $0 }
    }

    /// The script time left; `nil` for no limit. Zero or less once spent.
    public var remainingScriptTime: Duration? {
        scriptDeadline.map { $0 - ContinuousClock.now }
    }

    /// Records a limit a session went past; the first one is kept.
    public func record(_ violation: LimitViolation) {
        if self.violation == nil { self.violation = violation }
    }
}
