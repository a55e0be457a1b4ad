import Statecharts

/// Writes an SCXML document as an XState v5 machine configuration (JSON), so that Stately Studio
/// and XState can open a chart made here: the reverse of ``XStateImporter``.
///
/// `XStateWriter.json(XStateImporter.document(fromJSON: json))` gives a configuration that
/// imports as the same document. A document written by hand is written as far as XState's JSON
/// can say it: its states, transitions (with named guards and actions of the project's namespace),
/// timers of the form `after` is written as, invocations of Swift work, tags, meta, description and
/// done data. What it cannot say is an error at its place in the document:
/// - a `cond` expression, and executable content other than named actions (`<raise>`, `<assign>`,
///   `<log>`, a `<send>` that is not an `after` timer), which a JSON export holds as code;
/// - an `<invoke>` of an SCXML document, `<datamodel>` and scripts.
///
/// SCXML matches an event descriptor `a` to `a.b` as well; XState's `a` is `a` alone. A document
/// that relies on that writes `a.*`.
public enum XStateWriter {
    /// The machine configuration of `document`, indented.
    ///
    /// - Throws: ``SCXMLError`` with every part of the document XState's JSON cannot express, each
    ///   at its place.
    public static func json(_ document: SCXMLDocument) throws(SCXMLError) -> String {
        var writer = XStateConfigurationBuilder(document: document)
        let configuration = writer.configuration()
        if writer.diagnostics.contains(where: { $0.severity == .error }) {
            throw SCXMLError(diagnostics: writer.diagnostics)
        }
        return configuration.pretty() + "\n"
    }
}

/// The work of ``XStateWriter``.
struct XStateConfigurationBuilder {
    let document: SCXMLDocument
    var diagnostics: [SCXMLDiagnostic] = []
    /// Each state's parent's id (`nil` at the top of the machine) and key, by SCXML id.
    var places: [String: (parent: String?, key: String)] = [:]
    var machineID = "(machine)"
    /// The final state the importer adds beside the machine's own, when there is one.
    var machineEnd: String?

    init(document: SCXMLDocument) { self.document = document }

    typealias Member = JSONNode.Member

    static func ours(_ attributes: [SCXMLForeignAttribute], _ name: String) -> String? {
        attributes.first { $0.namespace == SCXMLExtensions.namespace && $0.name.hasSuffix(":\(name)") }?.value
    }

    mutating func cannot(_ what: String, at location: SourcePosition) {
        diagnostics.append(
            SCXMLDiagnostic(.error, "\(what) cannot be written as an XState configuration", at: location))
    }

    func string(_ text: String) -> JSONNode { JSONNode(.string(text)) }

    /// JSON text kept by the importer, as a value; text that is not JSON stays a string.
    func value(ofJSON text: String) -> JSONNode {
        (try? JSONReader.read(text, file: "")) ?? JSONNode(.string(text))
    }

    // MARK: - The machine

    mutating func configuration() -> JSONNode {
        var members: [Member] = []
        let root = document.states.first { Self.ours($0.extensions.attributes, "root") == "true" }
        machineID = root?.id ?? document.name ?? "(machine)"
        members.append(Member(key: "id", value: string(machineID)))
        if let context = document.extensions.elements.first(where: {
            $0.namespace == SCXMLExtensions.namespace && $0.localName == "context"
        }) {
            members.append(Member(key: "context", value: value(ofJSON: context.text)))
        }
        for transition in document.transitions {
            cannot("a transition of the document itself", at: transition.location)
        }
        if !document.data.isEmpty || document.script != nil {
            cannot("a data model", at: document.location)
        }
        if let root {
            // The machine's own state: its synthetic final follows it at the top.
            let final = document.states.first { Self.ours($0.extensions.attributes, "root") == "done" }
            for other in document.states where other.id != root.id && other.id != final?.id {
                cannot("a state beside the machine's own", at: other.location)
            }
            machineEnd = final?.id
            place(root.children, parent: nil, keyPath: [])
            if root.kind == .parallel { members.append(Member(key: "type", value: string("parallel"))) }
            members += body(of: root, keyPath: [], isMachine: true)
            if let output = final?.doneData?.content?.inline {
                members.append(Member(key: "output", value: value(ofJSON: inlineText(output))))
            }
        } else {
            place(document.states, parent: nil, keyPath: [])
            if let initial = document.initial.first, let key = places[initial]?.key {
                members.append(Member(key: "initial", value: string(key)))
            }
            members += annotations(document.extensions.attributes)
            members.append(Member(key: "states", value: states(document.states, keyPath: [])))
        }
        return JSONNode(.object(members))
    }

    func inlineText(_ content: SCXMLInlineContent) -> String {
        switch content {
        case .text(let text): text
        case .markup(let markup): markup
        }
    }

    /// Records the key of every state: the last part of its id when the id is XState's own.
    mutating func place(_ nodes: [SCXMLNode], parent: String?, keyPath: [String]) {
        var used: Set<String> = []
        for node in nodes {
            let prefix = ([machineID] + keyPath).joined(separator: ".") + "."
            var key = node.id.hasPrefix(prefix) ? String(node.id.dropFirst(prefix.count)) : node.id
            if key.isEmpty || key.contains(".") { key = key.replacingOccurrences(of: ".", with: "_") }
            if key.isEmpty { key = "state" }
            var unique = key
            var number = 2
            while used.contains(unique) {
                unique = "\(key)_\(number)"
                number += 1
            }
            used.insert(unique)
            places[node.id] = (parent, unique)
            place(node.children, parent: node.id, keyPath: keyPath + [unique])
        }
    }

    mutating func states(_ nodes: [SCXMLNode], keyPath: [String]) -> JSONNode {
        var members: [Member] = []
        for node in nodes {
            let key = places[node.id]?.key ?? node.id
            members.append(Member(key: key, value: JSONNode(.object(stateBody(node, keyPath: keyPath + [key])))))
        }
        return JSONNode(.object(members))
    }

    // MARK: - States

    mutating func stateBody(_ node: SCXMLNode, keyPath: [String]) -> [Member] {
        var members: [Member] = []
        if ([machineID] + keyPath).joined(separator: ".") != node.id {
            members.append(Member(key: "id", value: string(node.id)))
        }
        switch node.kind {
        case .parallel: members.append(Member(key: "type", value: string("parallel")))
        case .final: members.append(Member(key: "type", value: string("final")))
        case .history(let depth):
            members.append(Member(key: "type", value: string("history")))
            if depth == .deep { members.append(Member(key: "history", value: string("deep"))) }
            if let targets = node.transitions.first?.targets, !targets.isEmpty {
                members.append(Member(key: "target", value: target(targets, from: node.id)))
            }
            return members
        case .state: break
        }
        members += body(of: node, keyPath: keyPath, isMachine: false)
        if let output = node.doneData {
            if let inline = output.content?.inline, output.params.isEmpty {
                members.append(Member(key: "output", value: value(ofJSON: inlineText(inline))))
            } else {
                cannot("done data other than JSON content", at: output.location)
            }
        }
        return members
    }

    /// What a state and the machine share: initial, states, entry, exit, on, after, always,
    /// onDone, invoke, tags, meta, description.
    mutating func body(of node: SCXMLNode, keyPath: [String], isMachine: Bool) -> [Member] {
        var members: [Member] = []
        if let initial = node.initial.first, let key = places[initial]?.key {
            members.append(Member(key: "initial", value: string(key)))
        }
        if node.initialTransition != nil { cannot("an <initial> element", at: node.location) }
        if !node.data.isEmpty { cannot("a data model", at: node.location) }
        var timers: Set<String> = []
        let entry = actions(node.onEntry.flatMap(\.actions), timers: &timers, of: node.id)
        let exit = actions(node.onExit.flatMap(\.actions), timers: &timers, of: node.id)
        var on: [(event: String, transitions: [JSONNode])] = []
        var after: [(key: String, transitions: [JSONNode])] = []
        var always: [JSONNode] = []
        var onDone: [JSONNode] = []
        var outcomes: [String: (done: [JSONNode], error: [JSONNode])] = [:]
        let afterPrefix = "xstate.after."
        let afterSuffix = ".\(node.id)"
        for transition in node.transitions {
            if isMachine && transition.events == ["done.state.\(node.id)"]
                && transition.targets == machineEnd.map({ [$0] })
            {
                continue
            }
            let config = self.transition(transition, from: node.id)
            if let invocation = Self.ours(transition.extensions.attributes, "invoke") {
                if transition.events == ["done.invoke.\(invocation)"] {
                    outcomes[invocation, default: ([], [])].done.append(config)
                    continue
                }
                if transition.events == ["error.execution"] {
                    outcomes[invocation, default: ([], [])].error.append(config)
                    continue
                }
            }
            if transition.events.isEmpty {
                always.append(config)
                continue
            }
            for event in transition.events {
                if event.hasPrefix(afterPrefix), event.hasSuffix(afterSuffix), timers.contains(event) {
                    let key = String(event.dropFirst(afterPrefix.count).dropLast(afterSuffix.count))
                    if let index = after.firstIndex(where: { $0.key == key }) {
                        after[index].transitions.append(config)
                    } else {
                        after.append((key, [config]))
                    }
                } else if event == "done.state.\(node.id)" {
                    onDone.append(config)
                } else if let index = on.firstIndex(where: { $0.event == event }) {
                    on[index].transitions.append(config)
                } else {
                    on.append((event, [config]))
                }
            }
        }
        members += annotations(node.extensions.attributes)
        if !entry.isEmpty { members.append(Member(key: "entry", value: JSONNode(.array(entry)))) }
        if !exit.isEmpty { members.append(Member(key: "exit", value: JSONNode(.array(exit)))) }
        if !on.isEmpty {
            members.append(
                Member(
                    key: "on",
                    value: JSONNode(.object(on.map { Member(key: $0.event, value: Self.oneOrMany($0.transitions)) }))))
        }
        if !after.isEmpty {
            members.append(
                Member(
                    key: "after",
                    value: JSONNode(.object(after.map { Member(key: $0.key, value: Self.oneOrMany($0.transitions)) }))))
        }
        if !always.isEmpty { members.append(Member(key: "always", value: Self.oneOrMany(always))) }
        if !onDone.isEmpty { members.append(Member(key: "onDone", value: Self.oneOrMany(onDone))) }
        if !node.invocations.isEmpty {
            let invocations = node.invocations.enumerated().map { offset, invocation in
                self.invocation(invocation, offset: offset, of: node.id, outcomes: outcomes)
            }
            members.append(Member(key: "invoke", value: Self.oneOrMany(invocations)))
        }
        if !node.children.isEmpty {
            members.append(Member(key: "states", value: states(node.children, keyPath: keyPath)))
        }
        return members
    }

    static func oneOrMany(_ items: [JSONNode]) -> JSONNode {
        items.count == 1 ? items[0] : JSONNode(.array(items))
    }

    /// `tags`, `meta` and `description`.
    func annotations(_ attributes: [SCXMLForeignAttribute]) -> [Member] {
        var members: [Member] = []
        if let tags = Self.ours(attributes, "tags") {
            let names = tags.split(separator: " ").map { string(String($0)) }
            members.append(Member(key: "tags", value: JSONNode(.array(names))))
        }
        if let meta = Self.ours(attributes, "meta") { members.append(Member(key: "meta", value: value(ofJSON: meta))) }
        if let description = Self.ours(attributes, "description") {
            members.append(Member(key: "description", value: string(description)))
        }
        return members
    }

    // MARK: - Transitions and actions

    mutating func transition(_ transition: SCXMLTransition, from source: String) -> JSONNode {
        if transition.condition != nil { cannot("a 'cond' expression", at: transition.location) }
        var timers: Set<String> = []
        let actions = self.actions(transition.actions, timers: &timers, of: source)
        let guardName = Self.ours(transition.extensions.attributes, "guard")
        let annotations = self.annotations(transition.extensions.attributes)
        // XState re-enters the source only when told to, where SCXML's external transition does.
        let reenters =
            transition.type == .external
            && transition.targets.contains { $0 == source || isInside($0, source) }
        let plain = actions.isEmpty && guardName == nil && annotations.isEmpty && !reenters
        if plain && transition.targets.count == 1 { return target(transition.targets, from: source) }
        var members: [Member] = []
        if !transition.targets.isEmpty {
            members.append(Member(key: "target", value: target(transition.targets, from: source)))
        }
        if let guardName {
            if let params = Self.ours(transition.extensions.attributes, "guard-params") {
                members.append(
                    Member(
                        key: "guard",
                        value: JSONNode(
                            .object([
                                Member(key: "type", value: string(guardName)),
                                Member(key: "params", value: value(ofJSON: params)),
                            ]))))
            } else {
                members.append(Member(key: "guard", value: string(guardName)))
            }
        }
        if !actions.isEmpty { members.append(Member(key: "actions", value: JSONNode(.array(actions)))) }
        if reenters { members.append(Member(key: "reenter", value: JSONNode(.bool(true)))) }
        members += annotations
        return JSONNode(.object(members))
    }

    /// Whether the state `id` is inside the state `ancestor`.
    func isInside(_ id: String, _ ancestor: String) -> Bool {
        var current = places[id]?.parent
        while let parent = current {
            if parent == ancestor { return true }
            current = places[parent]?.parent
        }
        return false
    }

    /// A target as XState writes it: a sibling's key, `.child` for a child, `#id` for any other.
    func target(_ targets: [String], from source: String) -> JSONNode {
        let written = targets.map { id -> JSONNode in
            let sourceParent = places[source]?.parent
            if let place = places[id] {
                if place.parent == sourceParent && places[source] != nil { return string(place.key) }
                if place.parent == source { return string(".\(place.key)") }
            }
            return string("#\(id)")
        }
        return written.count == 1 ? written[0] : JSONNode(.array(written))
    }

    /// Named actions; the sends and cancels of `after` timers are recorded in `timers` and left out.
    mutating func actions(_ actions: [SCXMLAction], timers: inout Set<String>, of state: String) -> [JSONNode] {
        var result: [JSONNode] = []
        for action in actions {
            switch action.kind {
            case .foreign(let element)
            where element.namespace == SCXMLExtensions.namespace && element.localName == "action":
                guard let name = element.attribute("name") else {
                    cannot("an <sc:action> without a name", at: action.location)
                    continue
                }
                if let params = element.attribute("params") {
                    result.append(
                        JSONNode(
                            .object([
                                Member(key: "type", value: string(name)),
                                Member(key: "params", value: value(ofJSON: params)),
                            ])))
                } else {
                    result.append(string(name))
                }
            case .foreign:
                // Another tool's markup (a layout) says nothing XState runs.
                continue
            case .send(let send)
            where send.event != nil && send.event == send.id && send.event?.hasPrefix("xstate.after.") == true
                && send.event?.hasSuffix(".\(state)") == true && send.target == nil && send.type == nil
                && send.delay != nil:
                timers.insert(send.event ?? "")
            case .cancel(let id?, nil) where id.hasPrefix("xstate.after.") && id.hasSuffix(".\(state)"):
                continue
            default:
                cannot("<\(action.tagName)>", at: action.location)
            }
        }
        return result
    }

    mutating func invocation(
        _ invocation: SCXMLInvoke, offset: Int, of state: String,
        outcomes: [String: (done: [JSONNode], error: [JSONNode])]
    ) -> JSONNode {
        var members: [Member] = []
        guard let type = invocation.type, invocation.source == nil, invocation.sourceExpression == nil,
            invocation.typeExpression == nil, !SCXMLExecutor.scxmlInvokeTypes.contains(type)
        else {
            cannot("an <invoke> that is not Swift work of a named type", at: invocation.location)
            return JSONNode(.object([]))
        }
        members.append(Member(key: "src", value: string(type)))
        let id = invocation.id ?? "\(state):invocation[\(offset)]"
        if id != "\(state):invocation[\(offset)]" { members.append(Member(key: "id", value: string(id))) }
        if let content = invocation.content?.inline {
            members.append(Member(key: "input", value: value(ofJSON: inlineText(content))))
        }
        if !invocation.params.isEmpty || !invocation.namelist.isEmpty || invocation.autoforward
            || !invocation.finalize.isEmpty
        {
            cannot("an <invoke> with <param>, namelist, autoforward or <finalize>", at: invocation.location)
        }
        if let done = outcomes[id]?.done, !done.isEmpty {
            members.append(Member(key: "onDone", value: Self.oneOrMany(done)))
        }
        if let error = outcomes[id]?.error, !error.isEmpty {
            members.append(Member(key: "onError", value: Self.oneOrMany(error)))
        }
        return JSONNode(.object(members))
    }
}
