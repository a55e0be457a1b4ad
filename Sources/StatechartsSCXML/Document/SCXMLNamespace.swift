/// A namespace declaration, `xmlns:PREFIX="URI"`: how a document names the namespace of the
/// markup it carries from other vocabularies.
public struct SCXMLNamespace: Sendable, Hashable {
    /// The prefix, such as `qt`; empty for a default namespace (`xmlns="URI"`).
    public var prefix: String
    /// The namespace's URI, such as `http://www.qt.io/2015/02/scxml-ext`.
    public var uri: String

    /// A declaration of `uri` under `prefix`.
    public init(prefix: String, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }

    /// The attribute that declares it: `xmlns:qt` (or `xmlns`).
    public var attributeName: String { prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)" }

    /// The prefix of a qualified name (`qt` of `qt:editorinfo`), empty when it has none.
    public static func prefix(of qualifiedName: String) -> String {
        guard let colon = qualifiedName.firstIndex(of: ":") else { return "" }
        return String(qualifiedName[..<colon])
    }
}
