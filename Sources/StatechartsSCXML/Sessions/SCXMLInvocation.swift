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
///
/// Package-visible: a durable fleet of a document (StatechartsStore) runs a Swift invoker's work
/// from it as an activity.
package struct SCXMLInvocation: Sendable, Hashable, Codable {
    /// The machine's identifier of the invocation.
    package var id: InvocationID
    /// The `<invoke>`'s `id`, or the one generated for it (SCXML's `invokeid`).
    package var invokeID: String
    /// The state the `<invoke>` belongs to.
    var state: String
    /// The session identifier the child gets (or, for Swift work, the work's own identifier).
    package var childSessionID: String
    /// Whether external events are forwarded to the child.
    var autoforward: Bool
    /// The child's document.
    var source: SCXMLInvocationSource
    /// The values of `namelist` and `<param>`, for the child's `<data>`.
    var parameters: [String: SCXMLValue]
    /// Where the `<invoke>` is written.
    var location: SourcePosition
    /// The type of a Swift invoker (``SCXMLSession/Options/invokers``); `nil` for an SCXML session.
    package var invokerType: String?

    /// The `type` of an `<invoke>` of an SCXML document, as the specification spells it.
    package static let scxmlType = "http://www.w3.org/TR/scxml/"

    /// The request the Swift invoker of this invocation is given, from session `sessionID`: what
    /// its work sends goes to `post`; `key` is the work's key in a durable fleet.
    package func request(
        sessionID: String, key: String? = nil, post: @escaping @Sendable (SCXMLEvent) -> Void
    ) -> SCXMLInvocationRequest {
        let text: String? =
            switch source {
            case .file(let path): path
            case .text(let text): text.isEmpty ? nil : text
            }
        return SCXMLInvocationRequest(
            invokeID: invokeID, type: invokerType ?? "", parameters: parameters, source: text, sessionID: sessionID,
            key: key, post: post)
    }

    /// An event the work of this invocation sent, as the invoking session receives it: external,
    /// from the work, with the invocation's `invokeid`.
    package func eventFromWork(_ sent: SCXMLEvent) -> SCXMLEvent {
        // Made whole, so that its fields get one box, not one per field changed.
        SCXMLEvent(
            sent.name, data: sent.data, type: .external, sendID: sent.sendID, origin: "#_scxml_\(childSessionID)",
            originType: SCXMLExecutor.scxmlProcessor, invokeID: invokeID, raw: sent.raw)
    }

    /// `done.invoke.ID`, with the data the work returned.
    package func doneEvent(data: SCXMLValue?) -> SCXMLEvent {
        SCXMLEvent(
            "done.invoke.\(invokeID)", data: data, type: .external, origin: "#_scxml_\(childSessionID)",
            originType: SCXMLExecutor.scxmlProcessor, invokeID: invokeID)
    }
}

/// Where an invoked session's document comes from.
package enum SCXMLInvocationSource: Sendable, Hashable, Codable {
    /// A file, relative to the invoking document (`src`, `srcexpr`).
    case file(String)
    /// The document's text (`<content>`).
    case text(String)
}
