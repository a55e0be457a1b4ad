import Foundation
import Statecharts

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of an XML document with where it starts: the reader's first stage, before the
/// elements are understood as SCXML.
struct XMLElement {
    var name: String
    var namespace: String
    var attributes: [String: String]
    var attributeLocations: [String: SourcePosition]
    /// The name as written, with its prefix.
    var qualifiedName: String
    /// The namespaces this element declares, in the order written.
    var declarations: [SCXMLNamespace] = []
    /// The namespace of each prefixed attribute, by its name as written.
    var attributeNamespaces: [String: String] = [:]
    var children: [XMLElement] = []
    /// Character data directly inside the element (CDATA included), in order.
    var text = ""
    /// Whether character data and elements are mixed (for inline content).
    var hasElementChildren: Bool { !children.isEmpty }
    var location: SourcePosition

    /// The element and its content as XML text, for inline `<content>` and `<data>`.
    var xml: String {
        var result = "<\(name)"
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            result += " \(key)=\"\(Escaping.xml(value))\""
        }
        let inner = innerXML
        return inner.isEmpty ? result + "/>" : result + ">" + inner + "</\(name)>"
    }

    /// The attribute names in the order they are written.
    var attributeNamesInOrder: [String] {
        attributes.keys.sorted { first, second in
            let a = attributeLocations[first]
            let b = attributeLocations[second]
            switch (a, b) {
            case (let a?, let b?): return (a.line, a.column) < (b.line, b.column)
            case (nil, nil): return first < second
            case (nil, _): return false
            case (_, nil): return true
            }
        }
    }

    /// The content as XML text: the text, then the children.
    var innerXML: String {
        Escaping.xml(text.trimmingCharacters(in: .whitespacesAndNewlines), in: .text) + children.map(\.xml).joined()
    }
}

/// Parses XML with Foundation's `XMLParser` into ``XMLElement``s that know where they start.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    let file: String
    let bytes: [UInt8]
    let lineStarts: [Int]
    let maximumDepth: Int
    var stack: [XMLElement] = []
    var root: XMLElement?
    var diagnostics: [SCXMLDiagnostic] = []
    var skippedDepth = 0
    var depthReported = false
    /// The namespaces declared since the last element started: they belong to the next one.
    var pendingDeclarations: [SCXMLNamespace] = []
    /// The prefixes in scope for each open element, innermost last.
    var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]

    init(data: Data, file: String, maximumDepth: Int) {
        self.file = file
        bytes = [UInt8](data)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
        self.maximumDepth = maximumDepth
    }

    /// Parses the document; `nil` when it is not well-formed (see ``diagnostics``).
    func parse() -> XMLElement? {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        _ = parser.parse()
        if diagnostics.contains(where: { $0.severity == .error }) { return nil }
        if root == nil {
            diagnostics.append(
                SCXMLDiagnostic(.error, "the document has no root element", at: location(line: 1, column: 1)))
        }
        return root
    }

    func location(line: Int, column: Int) -> SourcePosition {
        SourcePosition(file: file, line: max(line, 1), column: max(column, 1))
    }

    /// The position of `offset`.
    func location(ofOffset offset: Int) -> SourcePosition {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return location(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// `XMLParser` reports the position just after a start tag; this finds the tag's `<` and the
    /// position of each attribute in it.
    func startTag(named name: String, parser: XMLParser) -> (SourcePosition, [String: SourcePosition]) {
        let line = parser.lineNumber
        let column = parser.columnNumber
        guard line >= 1, line <= lineStarts.count else { return (location(line: line, column: column), [:]) }
        let end = min(lineStarts[line - 1] + max(column - 1, 0), bytes.count)
        let tag = Array("<\(name)".utf8)
        var start = end - 1
        while start >= 0 {
            if bytes[start] == UInt8(ascii: "<"), start + tag.count <= bytes.count,
                Array(bytes[start..<(start + tag.count)]) == tag
            {
                break
            }
            start -= 1
        }
        guard start >= 0 else { return (location(line: line, column: column), [:]) }
        var attributes: [String: SourcePosition] = [:]
        var index = start + tag.count
        let limit = min(end, bytes.count)
        while index < limit {
            // An attribute name starts after whitespace and runs to `=`.
            if bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n")
                || bytes[index] == UInt8(ascii: "\t")
                || bytes[index] == UInt8(ascii: "\r")
            {
                var nameEnd = index + 1
                while nameEnd < limit, bytes[nameEnd] != UInt8(ascii: "="), bytes[nameEnd] > 32 { nameEnd += 1 }
                if nameEnd > index + 1, nameEnd < limit, bytes[nameEnd] == UInt8(ascii: "=") {
                    let attribute = String(decoding: bytes[(index + 1)..<nameEnd], as: UTF8.self)
                    attributes[attribute] = location(ofOffset: index + 1)
                    // Skip the quoted value.
                    var valueIndex = nameEnd + 1
                    if valueIndex < limit {
                        let quote = bytes[valueIndex]
                        valueIndex += 1
                        while valueIndex < limit, bytes[valueIndex] != quote { valueIndex += 1 }
                    }
                    index = valueIndex + 1
                    continue
                }
            }
            index += 1
        }
        return (location(ofOffset: start), attributes)
    }

    // MARK: - XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let declarations = pendingDeclarations
        pendingDeclarations.removeAll()
        if skippedDepth > 0 || stack.count >= maximumDepth {
            if !depthReported {
                depthReported = true
                diagnostics.append(
                    SCXMLDiagnostic(
                        .error,
                        "elements are nested more than \(maximumDepth) deep; the rest of this subtree is not read",
                        at: location(line: parser.lineNumber, column: parser.columnNumber)))
            }
            skippedDepth += 1
            return
        }
        let (location, attributeLocations) = startTag(named: qualifiedName ?? elementName, parser: parser)
        var scope = scopes.last ?? [:]
        for declaration in declarations { scope[declaration.prefix] = declaration.uri }
        scopes.append(scope)
        var attributeNamespaces: [String: String] = [:]
        for name in attributeDict.keys {
            let prefix = SCXMLNamespace.prefix(of: name)
            if !prefix.isEmpty { attributeNamespaces[name] = scope[prefix] ?? "" }
        }
        stack.append(
            XMLElement(
                name: elementName, namespace: namespaceURI ?? "", attributes: attributeDict,
                attributeLocations: attributeLocations, qualifiedName: qualifiedName ?? elementName,
                declarations: declarations, attributeNamespaces: attributeNamespaces, location: location))
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        pendingDeclarations.append(SCXMLNamespace(prefix: prefix, uri: namespaceURI))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        guard let element = stack.popLast() else { return }
        scopes.removeLast()
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard skippedDepth == 0, !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard skippedDepth == 0, !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // Only the first error: later ones follow from it.
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return }
        let code = (parseError as NSError).code
        diagnostics.append(
            SCXMLDiagnostic(
                .error, "the document is not well-formed XML: \(XMLErrorMessage.sentence(for: code))",
                at: location(line: parser.lineNumber, column: parser.columnNumber)))
    }
}
