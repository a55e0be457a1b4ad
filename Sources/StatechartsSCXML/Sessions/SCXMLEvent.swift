import Statecharts

/// An event of an SCXML session: a name, with the fields SCXML's `_event` has.
///
/// Charts read from documents use it as their event type; its kind is its name, so transitions
/// match it by SCXML descriptors.
public struct SCXMLEvent: StatechartEvent, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The event's name, such as `"t"` or `"error.execution"`.
    public var name: String
    /// Who raised it (SCXML's `_event.type`).
    public var type: EventType
    /// The identifier of the `<send>` that sent it.
    public var sendID: String?
    /// Where to send a reply (SCXML's `_event.origin`).
    public var origin: String?
    /// The processor of ``origin``.
    public var originType: String?
    /// The invocation that sent it.
    public var invokeID: String?
    /// Its data.
    public var data: SCXMLValue?
    /// For an event that came over HTTP: the whole request as received (SCXML's `_event.raw`);
    /// for one sent with inline content through an event I/O processor: that content.
    public var raw: String?

    /// SCXML's `_event.type`.
    public enum EventType: String, Sendable, Hashable, Codable {
        /// Raised by the machine: `done.*`, `error.*`.
        case platform
        /// Raised by `<raise>` or sent to `#_internal`.
        case `internal`
        /// Received from outside, or sent to the external queue.
        case external
    }

    /// An event.
    public init(
        _ name: String, data: SCXMLValue? = nil, type: EventType = .external, sendID: String? = nil,
        origin: String? = nil, originType: String? = nil, invokeID: String? = nil, raw: String? = nil
    ) {
        self.name = name
        self.data = data
        self.type = type
        self.sendID = sendID
        self.origin = origin
        self.originType = originType
        self.invokeID = invokeID
        self.raw = raw
    }

    /// An external event without data.
    public init(stringLiteral value: String) { self.init(value) }

    /// The name: what transitions match.
    public var kind: String { name }

    /// The name.
    public var description: String { name }
}
