import Statecharts

/// An attribute of another namespace than SCXML's on an SCXML element, or any attribute of a
/// ``SCXMLForeignElement``: kept as read, so that writing the document gives it back unchanged.
///
/// A design tool's own data lives in such attributes (Qt Creator writes `qt:editorversion` on the
/// `<scxml>` element); engines ignore them, and a tool that rewrites the document must not drop
/// them.
public struct SCXMLForeignAttribute: Sendable, Hashable {
    /// The name as written, with its prefix: `qt:editorversion`, or `geometry` on a foreign element.
    public var name: String
    /// The namespace's URI; empty for an attribute without a prefix.
    public var namespace: String
    /// The value, with character references resolved.
    public var value: String

    /// An attribute from its parts.
    public init(name: String, namespace: String, value: String) {
        self.name = name
        self.namespace = namespace
        self.value = value
    }
}
