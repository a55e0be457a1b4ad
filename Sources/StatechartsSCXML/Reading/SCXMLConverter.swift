import Foundation
import Statecharts

/// The reader's second stage: understands ``XMLElement``s as SCXML, checking the schema.
struct SCXMLConverter {
    let file: String
    var diagnostics: [SCXMLDiagnostic] = []

    init(file: String) { self.file = file }

    // MARK: - Reporting

    mutating func error(_ message: String, at location: SourcePosition) {
        diagnostics.append(SCXMLDiagnostic(.error, message, at: location))
    }

    mutating func warning(_ message: String, at location: SourcePosition) {
        diagnostics.append(SCXMLDiagnostic(.warning, message, at: location))
    }

    func isSCXML(_ element: XMLElement) -> Bool {
        element.namespace == SCXMLReader.namespace || element.namespace.isEmpty
    }

    /// The element's attributes, after reporting those SCXML does not define for it.
    mutating func attributes(of element: XMLElement, allowed: Set<String>) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in element.attributes {
            if name.contains(":") { continue }
            if allowed.contains(name) {
                result[name] = value
            } else {
                warning(
                    "<\(element.name)> has no attribute '\(name)' in SCXML; it is ignored",
                    at: element.attributeLocations[name] ?? element.location)
            }
        }
        return result
    }

    func location(of attribute: String, in element: XMLElement) -> SourcePosition {
        element.attributeLocations[attribute] ?? element.location
    }

    func expression(_ attribute: String, of element: XMLElement, in attributes: [String: String]) -> SCXMLExpression? {
        attributes[attribute].map { SCXMLExpression($0, location: location(of: attribute, in: element)) }
    }

    /// Reports attributes that must not be given together.
    mutating func exclusive(_ names: [String], in attributes: [String: String], of element: XMLElement) {
        let given = names.filter { attributes[$0] != nil }
        if given.count > 1 {
            error(
                "<\(element.name)> has both '\(given[0])' and '\(given[1])'; give only one",
                at: location(of: given[1], in: element))
        }
    }

    mutating func required(_ name: String, in attributes: [String: String], of element: XMLElement) -> String? {
        guard let value = attributes[name] else {
            error("<\(element.name)> needs the attribute '\(name)'", at: element.location)
            return nil
        }
        return value
    }

    /// The SCXML children of an element, reporting character data where none belongs.
    mutating func children(of element: XMLElement) -> [XMLElement] {
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !text.isEmpty {
            let preview = text.count > 30 ? String(text.prefix(30)) + "…" : text
            warning("text '\(preview)' in <\(element.name)> is ignored", at: element.location)
        }
        return element.children.filter(isSCXML)
    }

    mutating func misplaced(_ child: XMLElement, in parent: XMLElement) {
        if Self.knownElements.contains(child.name) {
            error("<\(child.name)> cannot be inside <\(parent.name)>", at: child.location)
        } else {
            error("<\(child.name)> is not an SCXML element", at: child.location)
        }
    }

    static let knownElements: Set<String> = [
        "scxml", "state", "parallel", "final", "history", "initial", "transition", "onentry", "onexit", "datamodel",
        "data", "script", "donedata", "content", "param", "invoke", "finalize", "raise", "send", "cancel", "log", "if",
        "elseif", "else", "foreach", "assign",
    ]

    // MARK: - Other namespaces

    /// The element's attributes and child elements of other namespaces, as written.
    func extensions(of element: XMLElement) -> SCXMLExtensions {
        SCXMLExtensions(
            attributes: foreignAttributes(of: element, prefixedOnly: true),
            elements: element.children.filter { !isSCXML($0) }.map(foreignElement))
    }

    /// The attributes of `element` in the order written: all of them, or only those with a prefix
    /// (on an SCXML element, whose own attributes have none).
    func foreignAttributes(of element: XMLElement, prefixedOnly: Bool) -> [SCXMLForeignAttribute] {
        element.attributeNamesInOrder.compactMap { name in
            if prefixedOnly && !name.contains(":") { return nil }
            return SCXMLForeignAttribute(
                name: name, namespace: element.attributeNamespaces[name] ?? "", value: element.attributes[name] ?? "")
        }
    }

    /// An element of another namespace, with everything inside it.
    func foreignElement(_ element: XMLElement) -> SCXMLForeignElement {
        SCXMLForeignElement(
            name: element.qualifiedName, namespace: element.namespace,
            attributes: foreignAttributes(of: element, prefixedOnly: false),
            children: element.children.map(foreignElement),
            // White space between child elements is layout, not content.
            text: !element.children.isEmpty && element.text.allSatisfy(\.isWhitespace) ? "" : element.text,
            location: element.location)
    }

    static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    // MARK: - Document

    mutating func document(from root: XMLElement) -> SCXMLDocument {
        guard root.name == "scxml", isSCXML(root) else {
            error("the root element is <\(root.name)>, not <scxml>", at: root.location)
            return SCXMLDocument(location: root.location)
        }
        if root.namespace.isEmpty {
            warning("<scxml> has no xmlns=\"\(SCXMLReader.namespace)\"; it is read as SCXML", at: root.location)
        }
        let attributes = attributes(
            of: root, allowed: ["initial", "name", "version", "datamodel", "binding", "exmode"])
        if let version = attributes["version"], version != "1.0" {
            warning("the version is '\(version)'; this reader knows SCXML 1.0", at: location(of: "version", in: root))
        }
        var document = SCXMLDocument(
            name: attributes["name"], initial: attributes["initial"].map(Self.tokens) ?? [],
            dataModel: attributes["datamodel"], location: root.location)
        document.namespaces = root.declarations.filter { !$0.prefix.isEmpty }
        document.extensions = extensions(of: root)
        if let binding = attributes["binding"] {
            if let value = SCXMLBinding(rawValue: binding) {
                document.binding = value
            } else {
                error("the binding '\(binding)' is neither 'early' nor 'late'", at: location(of: "binding", in: root))
            }
        }
        for child in children(of: root) {
            switch child.name {
            case "state", "parallel", "final":
                if let node = node(from: child) { document.states.append(node) }
            case "transition":
                warning(
                    "<transition> in <scxml> is not standard SCXML; it is read as a transition of the document, which applies in every state",
                    at: child.location)
                document.transitions.append(transition(from: child))
            case "datamodel":
                document.data += data(from: child)
            case "script":
                if document.script != nil { error("<scxml> has more than one <script>", at: child.location) }
                document.script = script(from: child)
            default:
                misplaced(child, in: root)
            }
        }
        return document
    }

    // MARK: - States

    mutating func node(from element: XMLElement) -> SCXMLNode? {
        let kind: SCXMLNode.Kind
        var allowed: Set<String> = ["id"]
        switch element.name {
        case "state":
            kind = .state
            allowed.insert("initial")
        case "parallel": kind = .parallel
        case "final": kind = .final
        case "history":
            kind = .history(.shallow)
            allowed.insert("type")
        default: return nil
        }
        let attributes = attributes(of: element, allowed: allowed)
        let generated = attributes["id"] == nil
        let id = attributes["id"] ?? "#\(element.name)@\(element.location.line):\(element.location.column)"
        var node = SCXMLNode(
            kind: kind, id: id, hasGeneratedID: generated, initial: attributes["initial"].map(Self.tokens) ?? [],
            location: element.location)
        node.extensions = extensions(of: element)
        if case .history = kind {
            switch attributes["type"] ?? "shallow" {
            case "shallow": node.kind = .history(.shallow)
            case "deep": node.kind = .history(.deep)
            case let other:
                error(
                    "the history type '\(other)' is neither 'shallow' nor 'deep'", at: location(of: "type", in: element)
                )
            }
        }
        for child in children(of: element) {
            switch (element.name, child.name) {
            case ("state", "state"), ("state", "parallel"), ("state", "final"), ("state", "history"),
                ("parallel", "state"), ("parallel", "parallel"), ("parallel", "history"):
                if let childNode = self.node(from: child) { node.children.append(childNode) }
            case ("state", "transition"), ("parallel", "transition"), ("history", "transition"):
                node.transitions.append(transition(from: child))
            case ("state", "initial"):
                if node.initialTransition != nil { error("<state> has more than one <initial>", at: child.location) }
                if !node.initial.isEmpty {
                    error("<state> has both an 'initial' attribute and an <initial> element", at: child.location)
                }
                node.initialTransition = initialTransition(from: child)
            case ("state", "onentry"), ("parallel", "onentry"), ("final", "onentry"):
                node.onEntry.append(SCXMLBlock(actions: actions(in: child), location: child.location))
            case ("state", "onexit"), ("parallel", "onexit"), ("final", "onexit"):
                node.onExit.append(SCXMLBlock(actions: actions(in: child), location: child.location))
            case ("state", "datamodel"), ("parallel", "datamodel"):
                node.data += data(from: child)
            case ("state", "invoke"), ("parallel", "invoke"):
                node.invocations.append(invoke(from: child))
            case ("final", "donedata"):
                if node.doneData != nil { error("<final> has more than one <donedata>", at: child.location) }
                node.doneData = doneData(from: child)
            default:
                misplaced(child, in: element)
            }
        }
        if case .history = node.kind {
            if node.transitions.count > 1 {
                error("<history> has more than one <transition>", at: node.transitions[1].location)
            }
            for transition in node.transitions {
                if !transition.events.isEmpty || transition.condition != nil {
                    error("the default transition of <history> cannot have 'event' or 'cond'", at: transition.location)
                }
                if transition.targets.isEmpty {
                    error("the default transition of <history> needs a 'target'", at: transition.location)
                }
            }
        }
        return node
    }

    mutating func initialTransition(from element: XMLElement) -> SCXMLTransition? {
        _ = attributes(of: element, allowed: [])
        let transitions = children(of: element).filter { child in
            if child.name == "transition" { return true }
            misplaced(child, in: element)
            return false
        }
        guard let first = transitions.first else {
            error("<initial> needs a <transition>", at: element.location)
            return nil
        }
        if transitions.count > 1 { error("<initial> has more than one <transition>", at: transitions[1].location) }
        let result = transition(from: first)
        if !result.events.isEmpty || result.condition != nil {
            error("the transition of <initial> cannot have 'event' or 'cond'", at: result.location)
        }
        if result.targets.isEmpty { error("the transition of <initial> needs a 'target'", at: result.location) }
        return result
    }

    mutating func transition(from element: XMLElement) -> SCXMLTransition {
        let attributes = attributes(of: element, allowed: ["event", "cond", "target", "type"])
        var result = SCXMLTransition(
            events: attributes["event"].map(Self.tokens) ?? [],
            condition: expression("cond", of: element, in: attributes),
            targets: attributes["target"].map(Self.tokens) ?? [], location: element.location)
        // The elements inside a transition are its executable content, foreign ones included, in
        // order (``actions(in:)``); only its foreign attributes are extensions.
        result.extensions = SCXMLExtensions(attributes: foreignAttributes(of: element, prefixedOnly: true))
        if let event = attributes["event"], result.events.isEmpty {
            error("the event attribute '\(event)' names no event", at: location(of: "event", in: element))
        }
        switch attributes["type"] {
        case nil, "external": result.type = .external
        case "internal": result.type = .internal
        case let other?:
            error(
                "the transition type '\(other)' is neither 'internal' nor 'external'",
                at: location(of: "type", in: element))
        }
        result.actions = actions(in: element)
        return result
    }

    // MARK: - Data

    mutating func data(from element: XMLElement) -> [SCXMLData] {
        _ = attributes(of: element, allowed: [])
        var result: [SCXMLData] = []
        for child in children(of: element) {
            guard child.name == "data" else {
                misplaced(child, in: element)
                continue
            }
            let attributes = attributes(of: child, allowed: ["id", "src", "expr"])
            guard let id = required("id", in: attributes, of: child) else { continue }
            let content = inlineContent(of: child)
            exclusive(["expr", "src"], in: attributes, of: child)
            if content != nil && (attributes["expr"] != nil || attributes["src"] != nil) {
                error(
                    "<data> has both content and '\(attributes["expr"] != nil ? "expr" : "src")'; give only one",
                    at: child.location)
            }
            result.append(
                SCXMLData(
                    id: id, expression: expression("expr", of: child, in: attributes), source: attributes["src"],
                    content: content, location: child.location))
        }
        return result
    }

    /// Text or markup inside an element, when there is any.
    func inlineContent(of element: XMLElement) -> SCXMLInlineContent? {
        if element.hasElementChildren { return .markup(element.innerXML) }
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : .text(element.text)
    }

    mutating func script(from element: XMLElement) -> SCXMLScript {
        let attributes = attributes(of: element, allowed: ["src"])
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : element.text
        if attributes["src"] != nil && text != nil {
            error("<script> has both 'src' and content; give only one", at: element.location)
        }
        for child in element.children where isSCXML(child) { misplaced(child, in: element) }
        return SCXMLScript(source: attributes["src"], text: text, location: element.location)
    }

    mutating func doneData(from element: XMLElement) -> SCXMLDoneData {
        _ = attributes(of: element, allowed: [])
        var result = SCXMLDoneData(location: element.location)
        for child in children(of: element) {
            switch child.name {
            case "content":
                if result.content != nil { error("<donedata> has more than one <content>", at: child.location) }
                result.content = content(from: child)
            case "param":
                if let param = param(from: child) { result.params.append(param) }
            default:
                misplaced(child, in: element)
            }
        }
        if result.content != nil && !result.params.isEmpty {
            error("<donedata> has both <content> and <param>; give only one", at: element.location)
        }
        return result
    }

    mutating func content(from element: XMLElement) -> SCXMLContent {
        let attributes = attributes(of: element, allowed: ["expr"])
        let text = inlineContent(of: element)
        if attributes["expr"] != nil && text != nil {
            error("<content> has both 'expr' and content; give only one", at: element.location)
        }
        return SCXMLContent(
            expression: expression("expr", of: element, in: attributes), inline: text, location: element.location)
    }

    mutating func param(from element: XMLElement) -> SCXMLParam? {
        let attributes = attributes(of: element, allowed: ["name", "expr", "location"])
        for child in children(of: element) { misplaced(child, in: element) }
        guard let name = required("name", in: attributes, of: element) else { return nil }
        exclusive(["expr", "location"], in: attributes, of: element)
        return SCXMLParam(
            name: name, expression: expression("expr", of: element, in: attributes),
            dataLocation: expression("location", of: element, in: attributes), location: element.location)
    }

    mutating func invoke(from element: XMLElement) -> SCXMLInvoke {
        let attributes = attributes(
            of: element, allowed: ["type", "typeexpr", "src", "srcexpr", "id", "idlocation", "namelist", "autoforward"])
        exclusive(["type", "typeexpr"], in: attributes, of: element)
        exclusive(["src", "srcexpr"], in: attributes, of: element)
        exclusive(["id", "idlocation"], in: attributes, of: element)
        var result = SCXMLInvoke(
            type: attributes["type"], typeExpression: expression("typeexpr", of: element, in: attributes),
            source: attributes["src"], sourceExpression: expression("srcexpr", of: element, in: attributes),
            id: attributes["id"], idLocation: expression("idlocation", of: element, in: attributes),
            namelist: attributes["namelist"].map(Self.tokens) ?? [], location: element.location)
        switch attributes["autoforward"] {
        case nil, "false": result.autoforward = false
        case "true": result.autoforward = true
        case let other?:
            error("autoforward '\(other)' is neither 'true' nor 'false'", at: location(of: "autoforward", in: element))
        }
        for child in children(of: element) {
            switch child.name {
            case "param": if let param = param(from: child) { result.params.append(param) }
            case "content":
                if result.content != nil { error("<invoke> has more than one <content>", at: child.location) }
                result.content = content(from: child)
            case "finalize":
                _ = self.attributes(of: child, allowed: [])
                result.finalize += actions(in: child)
            default: misplaced(child, in: element)
            }
        }
        return result
    }
}
