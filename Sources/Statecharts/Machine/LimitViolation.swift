/// A limit that a run exceeded: which limit, its value, and the element and place that went past
/// it.
///
/// Runtimes that run documents someone else wrote (such as an SCXML session) bound what a run may
/// take: time, steps, memory, depth, files. Going past one ends the run with
/// ``MachineError/limitExceeded(_:)`` carrying this value.
public struct LimitViolation: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The limit's name, as the runtime's limits name it (such as `scriptTime` or `foreachItems`).
    public var limit: String
    /// The limit's value, readable (such as `1 second` or `100000 items`).
    public var allowed: String
    /// The element that went past the limit (such as `script` or `foreach`), when one did.
    public var element: String?
    /// Where that element is written, when known.
    public var location: SourcePosition?
    /// The session or machine that went past it, when the runtime runs several.
    public var session: String?
    /// What happened, in a few words (such as `the array has 4294967295 items`).
    public var detail: String

    /// A violation from its parts.
    public init(
        limit: String, allowed: String, element: String? = nil, location: SourcePosition? = nil,
        session: String? = nil, detail: String
    ) {
        self.limit = limit
        self.allowed = allowed
        self.element = element
        self.location = location
        self.session = session
        self.detail = detail
    }

    /// `file:line:column: <element>: detail: the limit NAME is VALUE (session ID)`.
    public var description: String {
        (location.map { "\($0): " } ?? "") + summary
    }

    /// The description without the location, for messages that give it apart.
    public var summary: String {
        var text = ""
        if let element { text += "<\(element)>: " }
        text += "\(detail): the limit \(limit) is \(allowed)"
        if let session { text += " (session \(session))" }
        return text
    }
}
