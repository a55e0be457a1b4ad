import Foundation
import Statecharts

#if canImport(FoundationXML)
import FoundationXML
#endif

/// XML content as a tree: what a data model with a DOM (ECMAScript's) builds its DOM from, for
/// `<data>` and `<content>` with XML children and for events that carry XML.
///
/// Parsed with Foundation's `XMLParser` (FoundationXML on Linux), namespaces resolved, external
/// entities never loaded, and no deeper than ``maximumDepth``.
public enum SCXMLMarkup: Sendable, Hashable {
    /// An element.
    case element(Element)
    /// Character data.
    case text(String)

    /// An element: its name, its attributes in document order, its children.
    public struct Element: Sendable, Hashable {
        /// The qualified name, as written.
        public var name: String
        /// The namespace URI; empty for none.
        public var namespace: String
        /// The attributes, by name (the parser does not keep the order they were written in).
        public var attributes: [Attribute]
        /// The children: elements and character data, in document order.
        public var children: [SCXMLMarkup]

        /// An element from its parts.
        public init(name: String, namespace: String = "", attributes: [Attribute] = [], children: [SCXMLMarkup] = []) {
            self.name = name
            self.namespace = namespace
            self.attributes = attributes
            self.children = children
        }
    }

    /// An attribute.
    public struct Attribute: Sendable, Hashable {
        /// The qualified name.
        public var name: String
        /// The value.
        public var value: String

        /// An attribute from its parts.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// How deep a tree may be.
    public static let maximumDepth = 256

    /// The nodes of an XML fragment (one or more elements, with text between them); `nil` when
    /// the text is not well-formed XML, holds no element, is nested deeper than ``maximumDepth``,
    /// or has an element with more than 1,000 attributes.
    public static func parse(_ markup: String) -> [SCXMLMarkup]? {
        let trimmed = markup.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("<") else { return nil }
        // A fragment may have several elements at the top: parse it inside a wrapper.
        var body = trimmed
        if body.hasPrefix("<?xml"), let end = body.range(of: "?>") { body = String(body[end.upperBound...]) }
        let wrapped = "<statecharts-fragment>\(body)</statecharts-fragment>"
        let bytes = Data(wrapped.utf8)
        // Read in time linear in the markup, as a document is.
        guard MarkupBytes(bytes).firstElement(withMoreAttributesThan: MarkupBytes.maximumAttributes) == nil else {
            return nil
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: bytes)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), !builder.failed, let root = builder.root else { return nil }
        let nodes = root.children
        guard nodes.contains(where: { if case .element = $0 { return true } else { return false } }) else { return nil }
        return nodes
    }

    /// The node as XML text.
    public var xml: String {
        switch self {
        case .text(let text):
            return Escaping.xml(text, in: .text)
        case .element(let element):
            var result = "<\(element.name)"
            for attribute in element.attributes {
                result += " \(attribute.name)=\"\(Escaping.xml(attribute.value))\""
            }
            if element.children.isEmpty { return result + "/>" }
            return result + ">" + element.children.map(\.xml).joined() + "</\(element.name)>"
        }
    }

    /// Builds the tree from the parser's events.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        var failed = false

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard stack.count < SCXMLMarkup.maximumDepth else {
                failed = true
                parser.abortParsing()
                return
            }
            let ordered = attributes.sorted { $0.key < $1.key }.map { Attribute(name: $0.key, value: $0.value) }
            stack.append(
                Element(name: qualifiedName ?? elementName, namespace: namespaceURI ?? "", attributes: ordered))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(.element(element))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            append(string)
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            append(String(decoding: CDATABlock, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            failed = true
        }

        private func append(_ text: String) {
            guard !stack.isEmpty else { return }
            if case .text(let previous) = stack[stack.count - 1].children.last {
                stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + text)
            } else {
                stack[stack.count - 1].children.append(.text(text))
            }
        }
    }
}
