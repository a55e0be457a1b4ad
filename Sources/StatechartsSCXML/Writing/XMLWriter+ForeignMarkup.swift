import Statecharts

/// How the writer gives back the markup of other namespaces that the reader kept.
enum ForeignMarkup {
    /// The namespace the `xml` prefix is bound to in every document.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The declarations to write on `<scxml>`: the document's own, in the order it gave them, then
    /// one for each other prefix its foreign markup uses, in document order. A prefix used with
    /// two namespaces is declared for the first; the other is declared where it is used.
    static func rootDeclarations(of document: SCXMLDocument) -> [SCXMLNamespace] {
        var result: [SCXMLNamespace] = []
        var declared: Set<String> = ["", "xml", "xmlns"]
        func add(prefix: String, uri: String) {
            guard !uri.isEmpty, isName(prefix), !prefix.contains(":"), declared.insert(prefix).inserted else { return }
            result.append(SCXMLNamespace(prefix: prefix, uri: uri))
        }
        for declaration in document.namespaces { add(prefix: declaration.prefix, uri: declaration.uri) }
        func visit(_ attributes: [SCXMLForeignAttribute]) {
            for attribute in attributes {
                add(prefix: SCXMLNamespace.prefix(of: attribute.name), uri: attribute.namespace)
            }
        }
        func visit(_ element: SCXMLForeignElement) {
            add(prefix: SCXMLNamespace.prefix(of: element.name), uri: element.namespace)
            visit(element.attributes)
            for child in element.children { visit(child) }
        }
        func visit(_ extensions: SCXMLExtensions) {
            visit(extensions.attributes)
            for element in extensions.elements { visit(element) }
        }
        func visit(_ actions: [SCXMLAction]) {
            for action in actions {
                switch action.kind {
                case .foreign(let element): visit(element)
                case .if(let branches): for branch in branches { visit(branch.actions) }
                case .foreach(_, _, _, let body): visit(body)
                default: continue
                }
            }
        }
        func visit(_ transition: SCXMLTransition) {
            visit(transition.extensions)
            visit(transition.actions)
        }
        func visit(_ node: SCXMLNode) {
            visit(node.extensions)
            if let initial = node.initialTransition { visit(initial) }
            for transition in node.transitions { visit(transition) }
            for block in node.onEntry + node.onExit { visit(block.actions) }
            for invocation in node.invocations { visit(invocation.finalize) }
            for child in node.children { visit(child) }
        }
        visit(document.extensions)
        for transition in document.transitions { visit(transition) }
        for node in document.states { visit(node) }
        return result
    }

    /// Whether `name` can be written as an XML name (a qualified name has one colon at most, inside).
    /// Names read from a document always can; only names made in code may not, and those are left
    /// out of what is written.
    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isNameStart(first) || first == ":" else { return name.isEmpty }
        guard name.unicodeScalars.allSatisfy({ isNameStart($0) || isNameCharacter($0) || $0 == ":" }) else {
            return false
        }
        let colons = name.unicodeScalars.filter { $0 == ":" }.count
        return colons == 0 || (colons == 1 && name.first != ":" && name.last != ":")
    }

    /// XML 1.0's NameStartChar, without the colon.
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF,
            0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
            0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    /// XML 1.0's NameChar beyond NameStartChar.
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
        default: return false
        }
    }
}

extension XMLWriter {
    /// The attributes of other namespaces of an SCXML element, in order, each after the
    /// declaration of its prefix when the element is not already in its scope.
    func foreignAttributes(_ attributes: [SCXMLForeignAttribute]) -> [(String, String)] {
        var result: [(String, String)] = []
        var local: [String: String] = [:]
        for attribute in attributes where ForeignMarkup.isName(attribute.name) {
            let prefix = SCXMLNamespace.prefix(of: attribute.name)
            if !prefix.isEmpty, prefix != "xml", (local[prefix] ?? scope[prefix]) != attribute.namespace {
                local[prefix] = attribute.namespace
                result.append(("xmlns:\(prefix)", attribute.namespace))
            }
            result.append((attribute.name, attribute.value))
        }
        return result
    }

    /// Writes elements of other namespaces, each on a line of its own, as read.
    mutating func foreignElements(_ elements: [SCXMLForeignElement]) {
        for element in elements where ForeignMarkup.isName(element.name) {
            line(Self.markup(of: element, scope: scope))
        }
    }

    /// The text of a foreign element with everything inside it, declaring what `scope` lacks.
    static func markup(of element: SCXMLForeignElement, scope outer: [String: String]) -> String {
        var scope = outer
        var attributes: [(String, String)] = []
        let prefix = SCXMLNamespace.prefix(of: element.name)
        if prefix != "xml", scope[prefix] != element.namespace {
            scope[prefix] = element.namespace
            attributes.append((prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)", element.namespace))
        }
        for attribute in element.attributes where ForeignMarkup.isName(attribute.name) {
            let attributePrefix = SCXMLNamespace.prefix(of: attribute.name)
            if !attributePrefix.isEmpty, attributePrefix != "xml", scope[attributePrefix] != attribute.namespace {
                scope[attributePrefix] = attribute.namespace
                attributes.append(("xmlns:\(attributePrefix)", attribute.namespace))
            }
            attributes.append((attribute.name, attribute.value))
        }
        let children = element.children.filter { ForeignMarkup.isName($0.name) }
        let open = "<\(element.name)\(attributeText(attributes))"
        if element.text.isEmpty && children.isEmpty { return open + "/>" }
        return open + ">" + Escaping.xml(element.text, in: .text)
            + children.map { markup(of: $0, scope: scope) }.joined()
            + "</\(element.name)>"
    }
}
