import Statecharts

/// A block of executable content: the children of an `<onentry>` or `<onexit>` element.
public struct SCXMLBlock: Sendable, Hashable {
    /// The actions, in document order.
    public var actions: [SCXMLAction]
    /// Where the `<onentry>` or `<onexit>` element is.
    public var location: SourcePosition

    /// A block from its parts.
    public init(actions: [SCXMLAction], location: SourcePosition) {
        self.actions = actions
        self.location = location
    }
}
