import Statecharts

/// A `<content>` element.
public struct SCXMLContent: Sendable, Hashable {
    /// The `expr` attribute.
    public var expression: SCXMLExpression?
    /// The inline content.
    public var inline: SCXMLInlineContent?
    /// Where the element is.
    public var location: SourcePosition

    /// Content from its parts.
    public init(expression: SCXMLExpression? = nil, inline: SCXMLInlineContent? = nil, location: SourcePosition) {
        self.expression = expression
        self.inline = inline
        self.location = location
    }
}
