import Statecharts

/// A `<param>` element.
public struct SCXMLParam: Sendable, Hashable {
    /// The `name` attribute.
    public var name: String
    /// The `expr` attribute.
    public var expression: SCXMLExpression?
    /// The `location` attribute.
    public var dataLocation: SCXMLExpression?
    /// Where the element is.
    public var location: SourcePosition

    /// A parameter from its parts.
    public init(
        name: String, expression: SCXMLExpression? = nil, dataLocation: SCXMLExpression? = nil, location: SourcePosition
    ) {
        self.name = name
        self.expression = expression
        self.dataLocation = dataLocation
        self.location = location
    }
}
