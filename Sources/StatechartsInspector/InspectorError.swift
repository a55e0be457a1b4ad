#if Inspector
/// Why the inspector refused a request: the page shows the message, and the HTTP API answers
/// with the status.
public struct InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a sentence.
    public var message: String
    /// The HTTP status the API answers with.
    public var status: Int

    /// An error with its message and HTTP status.
    public init(_ message: String, status: Int = 400) {
        self.message = message
        self.status = status
    }

    /// The message.
    public var description: String { message }

    /// Sending events from the page was not allowed when the machine was attached.
    public static let sendingNotAllowed = InspectorError(
        "this machine does not take events from the inspector (attach it with an event maker to allow it)",
        status: 403)

    /// The machine cannot go back to an earlier step.
    public static let timeTravelNotSupported = InspectorError(
        "this machine cannot resume from an earlier step", status: 409)

    /// The machine runs on a real clock that the inspector does not control.
    public static let clockNotControlled = InspectorError(
        "this machine runs on its own clock; the inspector cannot move it", status: 409)
}
#endif
