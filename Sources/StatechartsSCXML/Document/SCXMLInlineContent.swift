import Statecharts

/// The content written inside a `<data>`, `<content>` or `<assign>` element.
public enum SCXMLInlineContent: Sendable, Hashable {
    /// Character data, unescaped.
    case text(String)
    /// Child elements, as XML.
    case markup(String)

    /// The text, or the markup as written.
    public var string: String {
        switch self {
        case .text(let text): return text
        case .markup(let markup): return markup
        }
    }
}
