import Statecharts

/// An element of another namespace than SCXML's, with everything inside it: kept as read, so that
/// writing the document gives it back.
///
/// Qt Creator keeps the layout of its drawing in `<qt:editorinfo>` elements inside the states and
/// transitions; this project keeps the names of a design's actions in elements of its own namespace
/// (``SCXMLExtensions/namespace``). Engines that do not know an element ignore it.
public struct SCXMLForeignElement: Sendable, Hashable {
    /// The name as written, with its prefix: `qt:editorinfo`.
    public var name: String
    /// The namespace's URI.
    public var namespace: String
    /// The attributes, in the order written.
    public var attributes: [SCXMLForeignAttribute]
    /// The elements inside it, in order.
    public var children: [SCXMLForeignElement]
    /// The character data directly inside it, in order.
    public var text: String
    /// Where the element is.
    public var location: SourcePosition

    /// An element from its parts.
    public init(
        name: String, namespace: String, attributes: [SCXMLForeignAttribute] = [],
        children: [SCXMLForeignElement] = [], text: String = "", location: SourcePosition
    ) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
        self.text = text
        self.location = location
    }

    /// The name without its prefix: `editorinfo`.
    public var localName: String {
        guard let colon = name.firstIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The value of the attribute named `name` (as written), if it has one.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}
