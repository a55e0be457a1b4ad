import Statecharts

/// An event I/O processor besides SCXML's own: how sessions send events to parties outside the
/// process, and receive events from them (SCXML 1.0, section 6.2 and Appendix D).
///
/// An ``SCXMLSession`` given processors (``SCXMLSession/Options/eventProcessors``) opens each of
/// its sessions at each of them: `_ioprocessors` then gives the session's location there, and a
/// `<send>` whose `type` names a processor leaves the session through it. A session without a
/// processor that a `<send>` names raises `error.execution` for it, as SCXML asks.
///
/// A processor works concurrently with the session. The session calls ``send(_:to:from:ticket:)``
/// when a step sends an event, and takes what came back with ``takeArrivals()`` when its caller
/// lets it (``SCXMLSession/receiveEvents()``, ``SCXMLSession/settle(upTo:)``): events that arrived
/// for its sessions, and sends that succeeded or failed. An event sent to one of the processor's
/// own sessions is delivered in the order it was sent: the session waits for its arrival before it
/// delivers the events sent after it.
///
/// The module StatechartsHTTP provides the Basic HTTP Event I/O Processor.
public protocol SCXMLEventProcessor: AnyObject, Sendable {
    /// The `type` values that name the processor; the first is its URI.
    var types: [String] { get }

    /// Opens the session with this identifier: events for it are accepted from now on.
    ///
    /// - Returns: The session's location at the processor, where others send its events.
    func open(session: String) -> String

    /// Closes the session with this identifier: events for it are refused from now on.
    func close(session: String)

    /// Starts delivering an event that the session `source` sent to `target`.
    ///
    /// - Returns: Whether the processor will report the event's arrival, with `ticket`, because
    ///   `target` is one of its open sessions: the sending side then keeps the event's place among
    ///   the events sent after it.
    func send(_ event: SCXMLEvent, to target: String, from source: String, ticket: UInt64) -> Bool

    /// What happened since the last call, in the order it happened.
    func takeArrivals() -> [SCXMLArrival]

    /// Whether sends are still under way or arrivals wait to be taken.
    var isBusy: Bool { get }

    /// Returns when an arrival waits to be taken or no send is under way, or after `timeout`.
    func waitForArrivals(upTo timeout: Duration) async
}

/// Something an event I/O processor reports to a session (see
/// ``SCXMLEventProcessor/takeArrivals()``).
public enum SCXMLArrival: Sendable, Hashable {
    /// An event arrived for the open session `session`. `ticket` is the ticket of the send that
    /// sent it when it came from a session of this process; `nil` when it came from outside.
    case event(SCXMLEvent, session: String, ticket: UInt64?)
    /// The send with this ticket was delivered.
    case delivered(ticket: UInt64)
    /// The send with this ticket could not be delivered, for this reason: its session gets
    /// `error.communication`.
    case failed(ticket: UInt64, reason: String)
}
