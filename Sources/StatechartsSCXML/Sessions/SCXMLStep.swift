import Statecharts

/// What one call of an ``SCXMLSession`` did: whether the event was handled, the microsteps and the
/// errors of the top session when the session records them, and what every session's `<log>`
/// elements wrote.
public struct SCXMLStep: Sendable, Equatable {
    /// For ``SCXMLSession/send(_:)``: whether a transition of the top session handled the event;
    /// `nil` for the other calls.
    public var handled: Bool?
    /// The top session's microsteps, in order, when ``SCXMLSession/Options/recordsMicrosteps`` is
    /// set; empty otherwise.
    public var microsteps: [Microstep<String>]
    /// What the `<log>` elements of every session wrote, in order.
    public var logs: [SCXMLLogRecord]
    /// The `error.execution` and `error.communication` events the top session processed, in
    /// order, each as the element that failed, where it is written and why, when
    /// ``SCXMLSession/Options/recordsMicrosteps`` is set; empty otherwise. A document may handle
    /// these events itself; they are here so that a tool can say why a document did what it did.
    public var errors: [SCXMLDiagnostic]
    /// The names of the top session's timers that fell due and were processed (its delayed
    /// `<send>`s to itself), in order, when ``SCXMLSession/Options/recordsMicrosteps`` is set;
    /// empty otherwise.
    public var firedTimers: [String] = []

    /// A step from its parts.
    public init(
        handled: Bool? = nil, microsteps: [Microstep<String>] = [], logs: [SCXMLLogRecord] = [],
        errors: [SCXMLDiagnostic] = []
    ) {
        self.handled = handled
        self.microsteps = microsteps
        self.logs = logs
        self.errors = errors
    }

    /// Adds what a later call did: its microsteps, logs, errors and timers after these. `handled` stays
    /// this step's.
    public mutating func merge(_ later: SCXMLStep) {
        microsteps += later.microsteps
        logs += later.logs
        errors += later.errors
        firedTimers += later.firedTimers
    }
}
