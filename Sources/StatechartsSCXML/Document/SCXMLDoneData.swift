import Statecharts

/// A `<donedata>` element.
public struct SCXMLDoneData: Sendable, Hashable {
    /// Its `<content>`.
    public var content: SCXMLContent?
    /// Its `<param>` elements.
    public var params: [SCXMLParam]
    /// Where the element is.
    public var location: SourcePosition

    /// Done data from its parts.
    public init(content: SCXMLContent? = nil, params: [SCXMLParam] = [], location: SourcePosition) {
        self.content = content
        self.params = params
        self.location = location
    }
}
