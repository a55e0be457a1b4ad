import Statecharts

/// What one call of an ``SCXMLSession`` did: whether the event was handled, the microsteps of the
/// top session when the session records them, and what every session's `<log>` elements wrote.
public struct SCXMLStep: Sendable, Equatable {
    /// For ``SCXMLSession/send(_:)``: whether a transition of the top session handled the event;
    /// `nil` for the other calls.
    public var handled: Bool?
    /// The top session's microsteps, in order, when ``SCXMLSession/Options/recordsMicrosteps`` is
    /// set; empty otherwise.
    public var microsteps: [Microstep<String>]
    /// What the `<log>` elements of every session wrote, in order.
    public var logs: [SCXMLLogRecord]

    /// A step from its parts.
    public init(handled: Bool? = nil, microsteps: [Microstep<String>] = [], logs: [SCXMLLogRecord] = []) {
        self.handled = handled
        self.microsteps = microsteps
        self.logs = logs
    }
}
