import Statecharts

/// The session that invoked this one: where `#_parent` goes.
public struct SCXMLParentLink: Sendable, Hashable, Codable {
    /// The parent's session identifier.
    public var sessionID: String
    /// The identifier of the `<invoke>` in the parent that started this session; events this
    /// session sends to its parent carry it as their `invokeid`.
    public var invokeID: String

    /// A link from its parts.
    public init(sessionID: String, invokeID: String) {
        self.sessionID = sessionID
        self.invokeID = invokeID
    }
}

/// An `<invoke>` that started: the description its machine gives ``SCXMLSession`` to start the
/// child session, and the record the invoking session keeps while the child runs.
struct SCXMLInvocation: Sendable, Hashable, Codable {
    /// The machine's identifier of the invocation.
    var id: InvocationID
    /// The `<invoke>`'s `id`, or the one generated for it (SCXML's `invokeid`).
    var invokeID: String
    /// The state the `<invoke>` belongs to.
    var state: String
    /// The session identifier the child gets.
    var childSessionID: String
    /// Whether external events are forwarded to the child.
    var autoforward: Bool
    /// The child's document.
    var source: SCXMLInvocationSource
    /// The values of `namelist` and `<param>`, for the child's `<data>`.
    var parameters: [String: SCXMLValue]
    /// Where the `<invoke>` is written.
    var location: SourcePosition
    /// The type of a Swift invoker (``SCXMLSession/Options/invokers``); `nil` for an SCXML session.
    var invokerType: String?
}

/// Where an invoked session's document comes from.
enum SCXMLInvocationSource: Sendable, Hashable, Codable {
    /// A file, relative to the invoking document (`src`, `srcexpr`).
    case file(String)
    /// The document's text (`<content>`).
    case text(String)
}
