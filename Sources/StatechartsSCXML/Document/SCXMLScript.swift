import Statecharts

/// A `<script>` element.
public struct SCXMLScript: Sendable, Hashable {
    /// The `src` attribute.
    public var source: String?
    /// The inline script.
    public var text: String?
    /// Where the element is.
    public var location: SourcePosition

    /// A script from its parts.
    public init(source: String? = nil, text: String? = nil, location: SourcePosition) {
        self.source = source
        self.text = text
        self.location = location
    }
}
