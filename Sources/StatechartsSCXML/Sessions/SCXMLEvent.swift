import Statecharts

/// An event of an SCXML session: a name, with the fields SCXML's `_event` has.
///
/// Charts read from documents use it as their event type; its kind is its name, so transitions
/// match it by SCXML descriptors.
///
/// The name and the type are held in the value; the other fields, which most events do not have,
/// in one shared, immutable box (none when they are all `nil`), so that copying an event, as
/// queues and steps do for every event, retains two references instead of seven.
public struct SCXMLEvent: StatechartEvent, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The event's name, such as `"t"` or `"error.execution"`.
    public var name: String
    /// Who raised it (SCXML's `_event.type`).
    public var type: EventType
    /// The fields other than the name and the type; `nil` when they are all `nil`.
    private var details: Details?

    /// The identifier of the `<send>` that sent it.
    public var sendID: String? {
        get { details?.fields.sendID }
        set { update { $0.sendID = newValue } }
    }
    /// Where to send a reply (SCXML's `_event.origin`).
    public var origin: String? {
        get { details?.fields.origin }
        set { update { $0.origin = newValue } }
    }
    /// The processor of ``origin``.
    public var originType: String? {
        get { details?.fields.originType }
        set { update { $0.originType = newValue } }
    }
    /// The invocation that sent it.
    public var invokeID: String? {
        get { details?.fields.invokeID }
        set { update { $0.invokeID = newValue } }
    }
    /// Its data.
    public var data: SCXMLValue? {
        get { details?.fields.data }
        set { update { $0.data = newValue } }
    }
    /// For an event that came over HTTP: the whole request as received (SCXML's `_event.raw`);
    /// for one sent with inline content through an event I/O processor: that content.
    public var raw: String? {
        get { details?.fields.raw }
        set { update { $0.raw = newValue } }
    }

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
        self.type = type
        let fields = Fields(
            sendID: sendID, origin: origin, originType: originType, invokeID: invokeID, data: data, raw: raw)
        details = fields.isEmpty ? nil : Details(fields)
    }

    /// An external event without data.
    public init(stringLiteral value: String) { self.init(value) }

    /// The name: what transitions match.
    public var kind: String { name }

    /// The name.
    public var description: String { name }

    // MARK: - The fields most events do not have

    /// The fields other than the name and the type.
    struct Fields: Sendable, Hashable {
        var sendID: String?
        var origin: String?
        var originType: String?
        var invokeID: String?
        var data: SCXMLValue?
        var raw: String?

        /// Whether every field is `nil`.
        var isEmpty: Bool {
            sendID == nil && origin == nil && originType == nil && invokeID == nil && data == nil && raw == nil
        }
    }

    /// The box of an event's other fields, never changed once made: an event that changes one
    /// gets a new box, so copies of the event do not see the change.
    final class Details: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// Changes the fields other than the name and the type, in a box of this event's own.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = details?.fields ?? Fields()
        change(&fields)
        details = fields.isEmpty ? nil : Details(fields)
    }

    // MARK: - Equality, hashing and coding, field by field

    /// Whether two events have the same name, type and fields.
    public static func == (lhs: SCXMLEvent, rhs: SCXMLEvent) -> Bool {
        guard lhs.name == rhs.name, lhs.type == rhs.type else { return false }
        if lhs.details === rhs.details { return true }
        return (lhs.details?.fields ?? Fields()) == (rhs.details?.fields ?? Fields())
    }

    /// Hashes the name, the type and the other fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(details?.fields ?? Fields())
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, sendID, origin, originType, invokeID, data, raw
    }

    /// Reads an event as ``encode(to:)`` writes it: its name and type, and each other field that
    /// is present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            data: try container.decodeIfPresent(SCXMLValue.self, forKey: .data),
            type: try container.decode(EventType.self, forKey: .type),
            sendID: try container.decodeIfPresent(String.self, forKey: .sendID),
            origin: try container.decodeIfPresent(String.self, forKey: .origin),
            originType: try container.decodeIfPresent(String.self, forKey: .originType),
            invokeID: try container.decodeIfPresent(String.self, forKey: .invokeID),
            raw: try container.decodeIfPresent(String.self, forKey: .raw))
    }

    /// Writes the name and the type, and each other field that is not `nil`, under its own name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        guard let fields = details?.fields else { return }
        try container.encodeIfPresent(fields.sendID, forKey: .sendID)
        try container.encodeIfPresent(fields.origin, forKey: .origin)
        try container.encodeIfPresent(fields.originType, forKey: .originType)
        try container.encodeIfPresent(fields.invokeID, forKey: .invokeID)
        try container.encodeIfPresent(fields.data, forKey: .data)
        try container.encodeIfPresent(fields.raw, forKey: .raw)
    }
}
