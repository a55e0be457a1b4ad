import Statecharts

/// The markup of other namespaces on one SCXML element: its foreign attributes and the foreign
/// elements directly inside it, in the order written.
///
/// The reader keeps them and ``SCXMLWriter`` writes them back, so a document drawn in an editor
/// keeps the editor's data through any tool here: Qt Creator's layout (`qt:editorversion`,
/// `<qt:editorinfo>`), or the named actions and guards of this project's own namespace.
public struct SCXMLExtensions: Sendable, Hashable {
    /// This project's namespace, for what a design names and SCXML has no element for: named
    /// actions, guards and delays of a chart imported from an editor.
    public static let namespace = "urn:x-statecharts-swift:scxml-extensions:1"
    /// The prefix the project's tools write its namespace with.
    public static let prefix = "sc"

    /// The attributes of other namespaces, in the order written.
    public var attributes: [SCXMLForeignAttribute]
    /// The elements of other namespaces directly inside the element, in the order written.
    public var elements: [SCXMLForeignElement]

    /// Extensions from their parts; none by default.
    public init(attributes: [SCXMLForeignAttribute] = [], elements: [SCXMLForeignElement] = []) {
        self.attributes = attributes
        self.elements = elements
    }

    /// Whether there are none.
    public var isEmpty: Bool { attributes.isEmpty && elements.isEmpty }

    /// The value of the attribute named `name` (as written), if there is one.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}
