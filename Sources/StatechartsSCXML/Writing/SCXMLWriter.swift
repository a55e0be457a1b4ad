import Statecharts

/// Writes SCXML documents: a document read earlier, or any chart, also one built in Swift.
///
/// Writing a document and reading it back gives the same document, locations aside. A chart
/// built from a document is written as that document. A chart built in Swift is written from its
/// structure (states, transitions, events, targets, history, initial states) in standard SCXML,
/// with two things that have no SCXML form written as references:
/// - a guard is `cond="swift('File.swift:12:9')"` and an action is
///   `<script>swift('File.swift:30:13')</script>`, naming where the closure is written (another
///   engine reading the document raises `error.execution` there rather than ignoring the code);
/// - a timeout (`After`) is written as SCXML writes one: a delayed `<send>` on entry, a
///   `<cancel>` on exit, and a transition on the sent event.
public enum SCXMLWriter {
    /// The text of `document`.
    public static func write(_ document: SCXMLDocument) -> String {
        var writer = XMLWriter()
        writer.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        var attributes: [(String, String)] = [("xmlns", SCXMLReader.namespace)]
        for declaration in ForeignMarkup.rootDeclarations(of: document) {
            attributes.append((declaration.attributeName, declaration.uri))
            writer.scope[declaration.prefix] = declaration.uri
        }
        attributes.append(("version", "1.0"))
        if let name = document.name { attributes.append(("name", name)) }
        if !document.initial.isEmpty { attributes.append(("initial", document.initial.joined(separator: " "))) }
        if let model = document.dataModel { attributes.append(("datamodel", model)) }
        if document.binding == .late { attributes.append(("binding", "late")) }
        attributes += writer.foreignAttributes(document.extensions.attributes)
        writer.open("scxml", attributes)
        writer.foreignElements(document.extensions.elements)
        writeData(document.data, to: &writer)
        if let script = document.script { writeScript(script, to: &writer) }
        for node in document.states { write(node, to: &writer) }
        for transition in document.transitions { write(transition, to: &writer) }
        writer.close("scxml")
        return writer.text
    }

    /// The text of `chart`: its document if it was read from one, else its structure.
    public static func write<State, Event, Context>(_ chart: Statechart<State, Event, Context>) -> String {
        write(document(for: chart))
    }

    /// The document of `chart`: the one it was read from, or one made from its structure.
    public static func document<State, Event, Context>(for chart: Statechart<State, Event, Context>) -> SCXMLDocument {
        if let document = chart.source as? SCXMLDocument { return document }
        return ChartDocumentBuilder(chart: chart).document()
    }

    // MARK: - Elements

    static func write(_ node: SCXMLNode, to writer: inout XMLWriter) {
        let name: String
        var attributes: [(String, String)] = []
        if !node.hasGeneratedID { attributes.append(("id", node.id)) }
        switch node.kind {
        case .state:
            name = "state"
            if !node.initial.isEmpty { attributes.append(("initial", node.initial.joined(separator: " "))) }
        case .parallel: name = "parallel"
        case .final: name = "final"
        case .history(let type):
            name = "history"
            if type == .deep { attributes.append(("type", "deep")) }
        }
        attributes += writer.foreignAttributes(node.extensions.attributes)
        let empty =
            node.initialTransition == nil && node.children.isEmpty && node.transitions.isEmpty && node.onEntry.isEmpty
            && node.onExit.isEmpty && node.data.isEmpty && node.doneData == nil && node.invocations.isEmpty
            && node.extensions.elements.isEmpty
        if empty {
            writer.empty(name, attributes)
            return
        }
        writer.open(name, attributes)
        writer.foreignElements(node.extensions.elements)
        if let initial = node.initialTransition {
            writer.open("initial", [])
            write(initial, to: &writer)
            writer.close("initial")
        }
        writeData(node.data, to: &writer)
        for block in node.onEntry { writeBlock("onentry", block.actions, to: &writer) }
        for block in node.onExit { writeBlock("onexit", block.actions, to: &writer) }
        for transition in node.transitions { write(transition, to: &writer) }
        for invocation in node.invocations { write(invocation, to: &writer) }
        for child in node.children { write(child, to: &writer) }
        if let doneData = node.doneData {
            writer.open("donedata", [])
            if let content = doneData.content { write(content, to: &writer) }
            for param in doneData.params { write(param, to: &writer) }
            writer.close("donedata")
        }
        writer.close(name)
    }

    static func write(_ transition: SCXMLTransition, to writer: inout XMLWriter) {
        var attributes: [(String, String)] = []
        if !transition.events.isEmpty { attributes.append(("event", transition.events.joined(separator: " "))) }
        if let condition = transition.condition { attributes.append(("cond", condition.text)) }
        if !transition.targets.isEmpty { attributes.append(("target", transition.targets.joined(separator: " "))) }
        if transition.type == .internal { attributes.append(("type", "internal")) }
        attributes += writer.foreignAttributes(transition.extensions.attributes)
        if transition.actions.isEmpty && transition.extensions.elements.isEmpty {
            writer.empty("transition", attributes)
        } else {
            writer.open("transition", attributes)
            writer.foreignElements(transition.extensions.elements)
            for action in transition.actions { write(action, to: &writer) }
            writer.close("transition")
        }
    }

    static func writeBlock(_ name: String, _ actions: [SCXMLAction], to writer: inout XMLWriter) {
        if actions.isEmpty {
            writer.empty(name, [])
            return
        }
        writer.open(name, [])
        for action in actions { write(action, to: &writer) }
        writer.close(name)
    }

    static func writeData(_ data: [SCXMLData], to writer: inout XMLWriter) {
        guard !data.isEmpty else { return }
        writer.open("datamodel", [])
        for item in data {
            var attributes: [(String, String)] = [("id", item.id)]
            if let source = item.source { attributes.append(("src", source)) }
            if let expression = item.expression { attributes.append(("expr", expression.text)) }
            if let content = item.content {
                writer.inline("data", attributes, content)
            } else {
                writer.empty("data", attributes)
            }
        }
        writer.close("datamodel")
    }

    static func writeScript(_ script: SCXMLScript, to writer: inout XMLWriter) {
        let attributes: [(String, String)] = script.source.map { [("src", $0)] } ?? []
        if let text = script.text {
            writer.script(attributes, text)
        } else {
            writer.empty("script", attributes)
        }
    }

    static func write(_ content: SCXMLContent, to writer: inout XMLWriter) {
        let attributes: [(String, String)] = content.expression.map { [("expr", $0.text)] } ?? []
        if let inline = content.inline {
            writer.inline("content", attributes, inline)
        } else {
            writer.empty("content", attributes)
        }
    }

    static func write(_ param: SCXMLParam, to writer: inout XMLWriter) {
        var attributes: [(String, String)] = [("name", param.name)]
        if let expression = param.expression { attributes.append(("expr", expression.text)) }
        if let location = param.dataLocation { attributes.append(("location", location.text)) }
        writer.empty("param", attributes)
    }

    static func write(_ invocation: SCXMLInvoke, to writer: inout XMLWriter) {
        var attributes: [(String, String)] = []
        if let type = invocation.type { attributes.append(("type", type)) }
        if let type = invocation.typeExpression { attributes.append(("typeexpr", type.text)) }
        if let source = invocation.source { attributes.append(("src", source)) }
        if let source = invocation.sourceExpression { attributes.append(("srcexpr", source.text)) }
        if let id = invocation.id { attributes.append(("id", id)) }
        if let location = invocation.idLocation { attributes.append(("idlocation", location.text)) }
        if !invocation.namelist.isEmpty { attributes.append(("namelist", invocation.namelist.joined(separator: " "))) }
        if invocation.autoforward { attributes.append(("autoforward", "true")) }
        if invocation.params.isEmpty && invocation.content == nil && invocation.finalize.isEmpty {
            writer.empty("invoke", attributes)
            return
        }
        writer.open("invoke", attributes)
        for param in invocation.params { write(param, to: &writer) }
        if let content = invocation.content { write(content, to: &writer) }
        if !invocation.finalize.isEmpty { writeBlock("finalize", invocation.finalize, to: &writer) }
        writer.close("invoke")
    }

    static func write(_ action: SCXMLAction, to writer: inout XMLWriter) {
        switch action.kind {
        case .raise(let event):
            writer.empty("raise", [("event", event)])
        case .send(let send):
            write(send, to: &writer)
        case .cancel(let sendID, let expression):
            var attributes: [(String, String)] = []
            if let sendID { attributes.append(("sendid", sendID)) }
            if let expression { attributes.append(("sendidexpr", expression.text)) }
            writer.empty("cancel", attributes)
        case .log(let label, let expression):
            var attributes: [(String, String)] = []
            if let label { attributes.append(("label", label)) }
            if let expression { attributes.append(("expr", expression.text)) }
            writer.empty("log", attributes)
        case .if(let branches):
            guard let first = branches.first else { return }
            writer.open("if", [("cond", first.condition?.text ?? "true")])
            for action in first.actions { write(action, to: &writer) }
            for branch in branches.dropFirst() {
                if let condition = branch.condition {
                    writer.empty("elseif", [("cond", condition.text)])
                } else {
                    writer.empty("else", [])
                }
                for action in branch.actions { write(action, to: &writer) }
            }
            writer.close("if")
        case .foreach(let array, let item, let index, let actions):
            var attributes: [(String, String)] = [("array", array.text), ("item", item)]
            if let index { attributes.append(("index", index)) }
            writeBlock("foreach", actions, attributes: attributes, to: &writer)
        case .assign(let location, let expression, let content):
            var attributes: [(String, String)] = [("location", location.text)]
            if let expression { attributes.append(("expr", expression.text)) }
            if let content {
                writer.inline("assign", attributes, content)
            } else {
                writer.empty("assign", attributes)
            }
        case .script(let script):
            writeScript(script, to: &writer)
        case .foreign(let element):
            writer.foreignElements([element])
        }
    }

    static func writeBlock(
        _ name: String, _ actions: [SCXMLAction], attributes: [(String, String)], to writer: inout XMLWriter
    ) {
        if actions.isEmpty {
            writer.empty(name, attributes)
            return
        }
        writer.open(name, attributes)
        for action in actions { write(action, to: &writer) }
        writer.close(name)
    }

    static func write(_ send: SCXMLSend, to writer: inout XMLWriter) {
        var attributes: [(String, String)] = []
        if let event = send.event { attributes.append(("event", event)) }
        if let value = send.eventExpression { attributes.append(("eventexpr", value.text)) }
        if let value = send.target { attributes.append(("target", value)) }
        if let value = send.targetExpression { attributes.append(("targetexpr", value.text)) }
        if let value = send.type { attributes.append(("type", value)) }
        if let value = send.typeExpression { attributes.append(("typeexpr", value.text)) }
        if let value = send.id { attributes.append(("id", value)) }
        if let value = send.idLocation { attributes.append(("idlocation", value.text)) }
        if let text = send.delayText {
            attributes.append(("delay", text))
        } else if let delay = send.delay {
            attributes.append(("delay", SCXMLTime.text(delay)))
        }
        if let value = send.delayExpression { attributes.append(("delayexpr", value.text)) }
        if !send.namelist.isEmpty { attributes.append(("namelist", send.namelist.joined(separator: " "))) }
        if send.params.isEmpty && send.content == nil {
            writer.empty("send", attributes)
            return
        }
        writer.open("send", attributes)
        for param in send.params { write(param, to: &writer) }
        if let content = send.content { write(content, to: &writer) }
        writer.close("send")
    }
}

/// Builds XML text with two-space indentation.
struct XMLWriter {
    var text = ""
    var depth = 0
    /// The namespace of each prefix declared so far on the way down; `""` for the default one.
    var scope: [String: String] = ["": SCXMLReader.namespace, "xml": ForeignMarkup.xmlNamespace]

    mutating func line(_ line: String) {
        text += String(repeating: "  ", count: depth) + line + "\n"
    }

    static func attributeText(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(Escaping.xml($0.1))\"" }.joined()
    }

    mutating func open(_ name: String, _ attributes: [(String, String)]) {
        line("<\(name)\(Self.attributeText(attributes))>")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        line("</\(name)>")
    }

    mutating func empty(_ name: String, _ attributes: [(String, String)]) {
        line("<\(name)\(Self.attributeText(attributes))/>")
    }

    /// An element with inline content, written as read: text escaped, markup as it is.
    mutating func inline(_ name: String, _ attributes: [(String, String)], _ content: SCXMLInlineContent) {
        let body: String
        switch content {
        case .text(let text): body = Escaping.xml(text, in: .text)
        case .markup(let markup): body = markup
        }
        line("<\(name)\(Self.attributeText(attributes))>\(body)</\(name)>")
    }

    /// A script, in a CDATA section when it holds characters XML would need escaped.
    mutating func script(_ attributes: [(String, String)], _ text: String) {
        let needsCDATA = text.contains("<") || text.contains("&")
        let body =
            needsCDATA ? "<![CDATA[" + text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>" : text
        line("<script\(Self.attributeText(attributes))>\(body)</script>")
    }
}
