import Statecharts

/// A live session as it was after one of its steps: what ``IsolatedSCXMLSession/snapshots(bufferingPolicy:isolation:)``
/// and ``SCXMLSessionActor/snapshots(bufferingPolicy:)`` give.
public struct SCXMLSessionSnapshot: Sendable, Equatable {
    /// What made the session take a step.
    public enum Cause: Sendable, Hashable {
        /// None: the session as it was when the stream was made.
        case now
        /// The session started, or a restored one was connected to its clock.
        case start
        /// An event was sent, with this name.
        case event(String)
        /// Timers or delayed events fell due.
        case timers
        /// Events arrived through an event I/O processor.
        case arrivals
    }

    /// What made the session take the step.
    public var cause: Cause
    /// Every active state of the top session, parents before children.
    public var configuration: [String]
    /// The top session's active atomic states.
    public var activeStates: [String]
    /// The active atomic states of each invoked session running, by session identifier.
    public var invoked: [String: [String]]
    /// Whether the top session is running or has finished.
    public var status: MachineStatus
    /// The session's time, measured from its start.
    public var now: Duration
    /// What the step did: logs, and with ``SCXMLSession/Options/recordsMicrosteps`` its microsteps,
    /// errors and fired timers.
    public var step: SCXMLStep
    /// The error the step ended with, when it did not complete.
    public var failure: String?
    /// The limit that ended the session, once it has been ended.
    public var endedBy: String?

    /// A snapshot from its parts.
    public init(
        cause: Cause, configuration: [String], activeStates: [String], invoked: [String: [String]] = [:],
        status: MachineStatus, now: Duration, step: SCXMLStep = SCXMLStep(), failure: String? = nil,
        endedBy: String? = nil
    ) {
        self.cause = cause
        self.configuration = configuration
        self.activeStates = activeStates
        self.invoked = invoked
        self.status = status
        self.now = now
        self.step = step
        self.failure = failure
        self.endedBy = endedBy
    }
}
