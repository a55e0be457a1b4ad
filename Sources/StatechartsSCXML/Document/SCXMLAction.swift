import Statecharts

/// One element of executable content.
public struct SCXMLAction: Sendable, Hashable {
    /// What the element is, with its attributes.
    public var kind: Kind
    /// Where the element is.
    public var location: SourcePosition

    /// An action from its kind and location.
    public init(_ kind: Kind, location: SourcePosition) {
        self.kind = kind
        self.location = location
    }

    /// The elements of executable content.
    public indirect enum Kind: Sendable, Hashable {
        /// `<raise event>`.
        case raise(event: String)
        /// `<send>`.
        case send(SCXMLSend)
        /// `<cancel sendid>` or `<cancel sendidexpr>`.
        case cancel(sendID: String?, sendIDExpression: SCXMLExpression?)
        /// `<log label expr>`.
        case log(label: String?, expression: SCXMLExpression?)
        /// `<if>` with its `<elseif>` and `<else>` branches; the `else` branch has no condition.
        case `if`([SCXMLBranch])
        /// `<foreach array item index>`.
        case foreach(array: SCXMLExpression, item: String, index: String?, actions: [SCXMLAction])
        /// `<assign location expr>`, or with inline content.
        case assign(location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?)
        /// `<script>`.
        case script(SCXMLScript)
        /// An element of another namespace: ignored when run, unless the session knows it (a named
        /// action of ``SCXMLExtensions/namespace``), and written back as read.
        case foreign(SCXMLForeignElement)
    }

    /// The element's tag name, such as `assign`.
    public var tagName: String {
        switch kind {
        case .raise: return "raise"
        case .send: return "send"
        case .cancel: return "cancel"
        case .log: return "log"
        case .if: return "if"
        case .foreach: return "foreach"
        case .assign: return "assign"
        case .script: return "script"
        case .foreign(let element): return element.name
        }
    }
}
