import Statecharts

/// An expression of the document's data model, as written in an attribute or element.
public struct SCXMLExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression's text.
    public var text: String
    /// Where it is written.
    public var location: SourcePosition

    /// An expression from its text and location.
    public init(_ text: String, location: SourcePosition) {
        self.text = text
        self.location = location
    }

    /// The text.
    public var description: String { text }
}
