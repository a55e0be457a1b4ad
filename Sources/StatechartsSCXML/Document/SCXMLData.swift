import Statecharts

/// A `<data>` element.
public struct SCXMLData: Sendable, Hashable {
    /// The `id` attribute: the variable's name.
    public var id: String
    /// The `expr` attribute.
    public var expression: SCXMLExpression?
    /// The `src` attribute.
    public var source: String?
    /// Inline content.
    public var content: SCXMLInlineContent?
    /// Where the element is.
    public var location: SourcePosition

    /// A data element from its parts.
    public init(
        id: String, expression: SCXMLExpression? = nil, source: String? = nil, content: SCXMLInlineContent? = nil,
        location: SourcePosition
    ) {
        self.id = id
        self.expression = expression
        self.source = source
        self.content = content
        self.location = location
    }
}
