import Statecharts

/// What a `<log>` element wrote, in which session.
public struct SCXMLLogRecord: Sendable, Hashable, CustomStringConvertible {
    /// The session whose document holds the `<log>`.
    public var sessionID: String
    /// The `label` attribute.
    public var label: String?
    /// The value of the `expr` attribute, as text; empty without one.
    public var message: String
    /// Where the `<log>` is.
    public var location: SourcePosition?

    /// A record from its parts.
    public init(sessionID: String, label: String?, message: String, location: SourcePosition?) {
        self.sessionID = sessionID
        self.label = label
        self.message = message
        self.location = location
    }

    /// `label: message`, or whichever of the two there is.
    public var description: String {
        [label, message.isEmpty ? nil : message].compactMap { $0 }.joined(separator: ": ")
    }
}
