import Statecharts

/// The work of ``XStateImporter``: a machine configuration's tree of state nodes, then the SCXML
/// of each, collecting every problem with its JSON path.
struct XStateMapping {
    let options: XStateImporter.Options
    let file: String
    var diagnostics: [SCXMLDiagnostic] = []
    /// Every state node, the machine's first, parents before children.
    var nodes: [Draft] = []
    /// The node with each id, for `#id` targets.
    var byID: [String: Int] = [:]

    init(options: XStateImporter.Options, file: String) {
        self.options = options
        self.file = file
    }

    /// A state node of the configuration, before it is written.
    struct Draft {
        var key: String
        var config: JSONNode
        var path: String
        var id: String
        var parent: Int?
        /// The keys from the machine down to the node.
        var keyPath: [String]
        /// The children's indices, in the order written, by key.
        var children: [(key: String, index: Int)] = []
        var type: String
    }

    static let sc = SCXMLExtensions.prefix
    static let namespace = SCXMLExtensions.namespace

    /// The keys each kind of node may have; anything else is an error.
    static let stateKeys: Set<String> = [
        "id", "type", "initial", "states", "on", "after", "always", "entry", "exit", "invoke", "onDone",
        "tags", "meta", "description", "output", "history", "target",
    ]
    static let machineKeys: Set<String> = [
        "id", "type", "initial", "states", "on", "after", "always", "entry", "exit", "invoke", "tags", "meta",
        "description", "output", "context", "version", "types", "schemas", "tsTypes",
    ]
    static let transitionKeys: Set<String> = ["target", "guard", "actions", "reenter", "description", "meta"]
    static let invokeKeys: Set<String> = ["src", "id", "input", "onDone", "onError", "systemId"]

    // MARK: - Reporting

    mutating func error(_ message: String, at path: String, _ node: JSONNode) {
        diagnostics.append(SCXMLDiagnostic(.error, "\(path): \(message)", at: node.location))
    }

    mutating func warning(_ message: String, at path: String, _ node: JSONNode) {
        diagnostics.append(SCXMLDiagnostic(.warning, "\(path): \(message)", at: node.location))
    }

    /// `path` followed by `key`: `.states`, or `["two words"]` for a key that is not a name.
    static func path(_ path: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || $0 == "_" || $0 == "$" || ("0"..."9").contains($0)
            }
            && !("0"..."9").contains(key.unicodeScalars.first ?? "0")
        return plain ? "\(path).\(key)" : "\(path)[\(Escaping.json(key))]"
    }

    static func path(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }

    /// A value of the file in a message: as a JSON string, so that a line break or a control
    /// character in it is written escaped, never obeyed.
    static func quoted(_ text: String) -> String { Escaping.json(text) }

    /// The value as an array of its items: an array's items, or the value alone.
    static func items(_ node: JSONNode) -> [JSONNode] {
        if case .array(let items) = node.value { return items }
        return [node]
    }

    mutating func checkKeys(of node: JSONNode, allowed: Set<String>, at path: String, what: String) {
        for member in node.members ?? [] where !allowed.contains(member.key) {
            error(
                "\(what) has no key \(Self.quoted(member.key)) that can be expressed in SCXML here",
                at: Self.path(path, member.key), member.value)
        }
    }

    // MARK: - The tree

    mutating func document(from root: JSONNode) -> SCXMLDocument {
        let place = root.location
        guard root.members != nil else {
            error("a machine configuration is an object, not \(root.kindName)", at: "$", root)
            return SCXMLDocument(location: place)
        }
        checkKeys(of: root, allowed: Self.machineKeys, at: "$", what: "the machine")
        let machineID = string(root["id"], at: "$.id") ?? "(machine)"
        collect(root, key: machineID, path: "$", parent: nil, machineID: machineID)
        // XState's JSON holds no expressions: the null data model runs the document anywhere.
        var document = SCXMLDocument(name: machineID, dataModel: "null", location: place)
        document.namespaces = [SCXMLNamespace(prefix: Self.sc, uri: Self.namespace)]
        guard let machine = nodes.first else { return document }
        let wrapped =
            ["on", "after", "always", "entry", "exit", "invoke", "output"].contains { root[$0] != nil }
            || machine.type == "parallel"
        if let context = root["context"] {
            document.extensions.elements.append(
                SCXMLForeignElement(
                    name: "\(Self.sc):context", namespace: Self.namespace, text: context.json,
                    location: context.location))
        }
        if wrapped {
            var top = node(at: 0)
            // The machine's end: a final state beside its own, named so as to be no state's id.
            var done = "\(machine.id).done"
            var number = 2
            while byID[done] != nil {
                done = "\(machine.id).done\(number)"
                number += 1
            }
            var final = SCXMLNode(
                kind: .final, id: done, doneData: root["output"].map { doneData($0) }, location: place)
            final.extensions.attributes.append(attribute("root", "done"))
            top.transitions.append(
                SCXMLTransition(events: ["done.state.\(machine.id)"], targets: [done], location: place))
            top.extensions.attributes.append(attribute("root", "true"))
            document.states = [top, final]
            document.initial = [machine.id]
        } else {
            let top = node(at: 0)
            document.initial = top.initial
            document.states = top.children
            document.extensions.attributes += top.extensions.attributes
        }
        return document
    }

    /// Records the node and its descendants, parents first.
    mutating func collect(_ config: JSONNode, key: String, path: String, parent: Int?, machineID: String) {
        guard config.members != nil else {
            error("a state node is an object, not \(config.kindName)", at: path, config)
            return
        }
        let keyPath = parent.map { nodes[$0].keyPath + [key] } ?? []
        let type =
            string(config["type"], at: Self.path(path, "type")) ?? (config["states"] != nil ? "compound" : "atomic")
        if !["atomic", "compound", "parallel", "final", "history"].contains(type) {
            error(
                "the type \(Self.quoted(type)) is not one of XState's", at: Self.path(path, "type"),
                config["type"] ?? config)
        }
        // The machine's own id was read already.
        let id =
            parent == nil
            ? machineID
            : string(config["id"], at: Self.path(path, "id")) ?? ([machineID] + keyPath).joined(separator: ".")
        let index = nodes.count
        if let other = byID[id] {
            error("the id \(Self.quoted(id)) is already the id of \(nodes[other].path)", at: path, config)
        } else {
            byID[id] = index
        }
        nodes.append(Draft(key: key, config: config, path: path, id: id, parent: parent, keyPath: keyPath, type: type))
        if let parent { nodes[parent].children.append((key, index)) }
        if parent != nil { checkKeys(of: config, allowed: Self.stateKeys, at: path, what: "a state node") }
        guard let states = config["states"] else { return }
        let statesPath = Self.path(path, "states")
        guard let members = states.members else {
            error("'states' is an object, not \(states.kindName)", at: statesPath, states)
            return
        }
        for member in members {
            guard writable(member.key, at: Self.path(statesPath, member.key), member.value) else { continue }
            if member.key.isEmpty || member.key.contains(".") {
                error("a state's key cannot be empty or hold '.'", at: Self.path(statesPath, member.key), member.value)
                continue
            }
            collect(
                member.value, key: member.key, path: Self.path(statesPath, member.key), parent: index,
                machineID: machineID)
        }
    }

    // MARK: - States

    mutating func node(at index: Int) -> SCXMLNode {
        let draft = nodes[index]
        let config = draft.config
        let place = config.location
        let kind: SCXMLNode.Kind
        switch draft.type {
        case "parallel": kind = .parallel
        case "final": kind = .final
        case "history":
            let depth = string(config["history"], at: Self.path(draft.path, "history")) ?? "shallow"
            if depth != "shallow" && depth != "deep" {
                error(
                    "the history is \(Self.quoted(depth)), neither 'shallow' nor 'deep'",
                    at: Self.path(draft.path, "history"),
                    config["history"] ?? config)
            }
            kind = .history(depth == "deep" ? .deep : .shallow)
        default: kind = .state
        }
        var result = SCXMLNode(kind: kind, id: draft.id, location: place)
        result.extensions.attributes = annotations(of: config, at: draft.path)
        if case .history = kind {
            result.transitions = [historyDefault(of: index)]
            return result
        }
        if let initial = config["initial"] {
            let initialPath = Self.path(draft.path, "initial")
            if let key = string(initial, at: initialPath) {
                if let child = draft.children.first(where: { $0.key == key }) {
                    result.initial = [nodes[child.index].id]
                } else {
                    error(
                        "the initial state \(Self.quoted(key)) is not a child of this state", at: initialPath, initial)
                }
            }
        } else if draft.type == "compound" && !draft.children.isEmpty && draft.parent != nil {
            warning(
                "a state with children and no 'initial' starts in its first child, as SCXML does", at: draft.path,
                config)
        }
        var entry: [SCXMLAction] = []
        var exit: [SCXMLAction] = []
        if let actions = config["entry"] { entry = self.actions(actions, at: Self.path(draft.path, "entry")) }
        if let actions = config["exit"] { exit = self.actions(actions, at: Self.path(draft.path, "exit")) }
        var transitions = on(of: index)
        if let after = config["after"] {
            let (sends, cancels, delayed) = self.after(after, of: index)
            entry += sends
            exit += cancels
            transitions += delayed
        }
        if let always = config["always"] {
            transitions += self.transitions(always, events: [], from: index, at: Self.path(draft.path, "always"))
        }
        if let done = config["onDone"] {
            transitions += self.transitions(
                done, events: ["done.state.\(draft.id)"], from: index, at: Self.path(draft.path, "onDone"))
        }
        if let invoke = config["invoke"] {
            let (invocations, outcomes) = invocations(invoke, of: index)
            result.invocations = invocations
            transitions += outcomes
        }
        if !entry.isEmpty { result.onEntry = [SCXMLBlock(actions: entry, location: place)] }
        if !exit.isEmpty { result.onExit = [SCXMLBlock(actions: exit, location: place)] }
        result.transitions = transitions
        if let output = config["output"], draft.parent != nil {
            if draft.type == "final" {
                result.doneData = doneData(output)
            } else {
                error("only a final state has an 'output'", at: Self.path(draft.path, "output"), output)
            }
        }
        result.children = draft.children.map { node(at: $0.index) }
        return result
    }

    /// A history state's default transition: its `target`, or its parent's initial state.
    mutating func historyDefault(of index: Int) -> SCXMLTransition {
        let draft = nodes[index]
        let place = draft.config.location
        if let target = draft.config["target"] {
            let targetPath = Self.path(draft.path, "target")
            let ids = Self.items(target).compactMap { item in
                string(item, at: targetPath).flatMap { resolve($0, from: index, at: targetPath, item) }
            }
            return SCXMLTransition(targets: ids, location: place)
        }
        guard let parent = draft.parent else { return SCXMLTransition(location: place) }
        let siblings = nodes[parent].children.filter { nodes[$0.index].type != "history" }
        let initialKey = nodes[parent].config["initial"]?.string ?? siblings.first?.key
        let initial = siblings.first { $0.key == initialKey }.map { nodes[$0.index].id }
        return SCXMLTransition(targets: initial.map { [$0] } ?? [], location: place)
    }

    /// `tags`, `meta` and `description`, as attributes of the project's namespace.
    mutating func annotations(of config: JSONNode, at path: String) -> [SCXMLForeignAttribute] {
        var result: [SCXMLForeignAttribute] = []
        if let tags = config["tags"] {
            let tagsPath = Self.path(path, "tags")
            let names = Self.items(tags).enumerated().compactMap { offset, item in
                string(item, at: Self.path(tagsPath, offset))
            }
            for (offset, name) in names.enumerated() where name.isEmpty || name.contains(where: \.isWhitespace) {
                error("a tag cannot be empty or hold white space", at: Self.path(tagsPath, offset), tags)
            }
            result.append(attribute("tags", names.joined(separator: " ")))
        }
        if let meta = config["meta"] { result.append(attribute("meta", meta.json)) }
        if let description = config["description"],
            let text = string(description, at: Self.path(path, "description"))
        {
            result.append(attribute("description", text))
        }
        return result
    }

    func attribute(_ name: String, _ value: String) -> SCXMLForeignAttribute {
        SCXMLForeignAttribute(name: "\(Self.sc):\(name)", namespace: Self.namespace, value: value)
    }

    func doneData(_ output: JSONNode) -> SCXMLDoneData {
        SCXMLDoneData(
            content: SCXMLContent(inline: .text(output.json), location: output.location), location: output.location)
    }

    // MARK: - Transitions

    /// The transitions of `on`, exact events first, then wildcards, longest first (as XState
    /// chooses among them).
    mutating func on(of index: Int) -> [SCXMLTransition] {
        let draft = nodes[index]
        guard let on = draft.config["on"] else { return [] }
        let onPath = Self.path(draft.path, "on")
        guard let members = on.members else {
            error("'on' is an object, not \(on.kindName)", at: onPath, on)
            return []
        }
        func isWildcard(_ event: String) -> Bool { event == "*" || event.hasSuffix(".*") }
        let exact = members.filter { !isWildcard($0.key) }
        let wildcards = members.filter { isWildcard($0.key) }.enumerated()
            .sorted { ($0.element.key.count, -$0.offset) > ($1.element.key.count, -$1.offset) }.map(\.element)
        var result: [SCXMLTransition] = []
        for member in exact + wildcards {
            let eventPath = Self.path(onPath, member.key)
            guard writable(member.key, at: eventPath, member.value) else { continue }
            guard !member.key.isEmpty, !member.key.contains(where: \.isWhitespace) else {
                error("an event's name cannot be empty or hold white space", at: eventPath, member.value)
                continue
            }
            result += transitions(member.value, events: [member.key], from: index, at: eventPath)
        }
        return result
    }

    /// The transitions of one event's value: a target, a transition, or an array of them.
    mutating func transitions(
        _ value: JSONNode, events: [String], from index: Int, at path: String
    ) -> [SCXMLTransition] {
        let many = Self.items(value)
        let isArray: Bool
        if case .array = value.value { isArray = true } else { isArray = false }
        return many.enumerated().compactMap { offset, item in
            transition(item, events: events, from: index, at: isArray ? Self.path(path, offset) : path)
        }
    }

    mutating func transition(_ item: JSONNode, events: [String], from index: Int, at path: String) -> SCXMLTransition? {
        var result = SCXMLTransition(events: events, location: item.location)
        switch item.value {
        case .string(let target):
            result.targets = resolve(target, from: index, at: path, item).map { [$0] } ?? []
            settleReentry(&result, from: index, reenter: false)
            return result
        case .object:
            break
        case .null:
            error("a transition is null: a function, which a JSON export cannot hold", at: path, item)
            return nil
        default:
            error("a transition is a target or an object, not \(item.kindName)", at: path, item)
            return nil
        }
        checkKeys(of: item, allowed: Self.transitionKeys, at: path, what: "a transition")
        if let target = item["target"] {
            let targetPath = Self.path(path, "target")
            if case .array(let targets) = target.value {
                result.targets = targets.enumerated().compactMap { offset, element in
                    string(element, at: Self.path(targetPath, offset)).flatMap {
                        resolve($0, from: index, at: Self.path(targetPath, offset), element)
                    }
                }
            } else if let text = string(target, at: targetPath) {
                result.targets = resolve(text, from: index, at: targetPath, target).map { [$0] } ?? []
            }
        }
        var reenters = false
        if let reenter = item["reenter"] {
            if case .bool(let flag) = reenter.value {
                reenters = flag
            } else {
                error("'reenter' is a boolean, not \(reenter.kindName)", at: Self.path(path, "reenter"), reenter)
            }
        }
        settleReentry(&result, from: index, reenter: reenters)
        if let guardNode = item["guard"] {
            result.extensions.attributes += self.guardAttributes(guardNode, at: Self.path(path, "guard"))
        }
        result.extensions.attributes += annotations(of: item, at: path)
        if let actions = item["actions"] { result.actions = self.actions(actions, at: Self.path(path, "actions")) }
        return result
    }

    /// Gives a transition XState's reentry in SCXML's terms. XState (v5) leaves the source state
    /// unless `reenter` is false and every target is the source or inside it. SCXML's internal
    /// transition does the same for targets inside the source, but leaves and enters the source
    /// for a target that is the source itself; so without `reenter`, a target that is the source
    /// becomes the source's initial children (XState enters them again), or no target at all for
    /// a state without children. `type="internal"` is written only where it changes something.
    mutating func settleReentry(_ transition: inout SCXMLTransition, from index: Int, reenter: Bool) {
        let source = nodes[index].id
        if !reenter, transition.targets.contains(source) {
            var targets = transition.targets.filter { $0 != source }
            let draft = nodes[index]
            if draft.type == "parallel" {
                targets += draft.children.filter { nodes[$0.index].type != "history" }.map { nodes[$0.index].id }
            } else if !draft.children.isEmpty {
                let key =
                    draft.config["initial"]?.string ?? draft.children.first { nodes[$0.index].type != "history" }?.key
                if let child = draft.children.first(where: { $0.key == key }) { targets.append(nodes[child.index].id) }
            }
            transition.targets = targets
        }
        let inside = transition.targets.contains { isProperDescendant($0, of: index) }
        transition.type = !reenter && inside ? .internal : .external
    }

    /// Whether the state with SCXML id `id` is inside node `ancestor`.
    func isProperDescendant(_ id: String, of ancestor: Int) -> Bool {
        guard var current = byID[id].flatMap({ nodes[$0].parent }) else { return false }
        while true {
            if current == ancestor { return true }
            guard let parent = nodes[current].parent else { return false }
            current = parent
        }
    }

    /// A named guard as `sc:guard` (and `sc:guard-params`).
    mutating func guardAttributes(_ node: JSONNode, at path: String) -> [SCXMLForeignAttribute] {
        guard let (name, params) = named(node, at: path, what: "a guard") else { return [] }
        return [attribute("guard", name)] + (params.map { [attribute("guard-params", $0.json)] } ?? [])
    }

    /// A name, or `{ "type": name, "params": … }`.
    mutating func named(_ node: JSONNode, at path: String, what: String) -> (String, JSONNode?)? {
        switch node.value {
        case .string(let name) where !name.isEmpty:
            return writable(name, at: path, node) ? (name, nil) : nil
        case .object:
            checkKeys(of: node, allowed: ["type", "params"], at: path, what: what)
            guard let name = node["type"]?.string, !name.isEmpty, writable(name, at: path, node) else {
                error("\(what) object needs a 'type' that names it", at: path, node)
                return nil
            }
            return (name, node["params"])
        case .null:
            error(
                "\(what) is null: an inline function, which a JSON export cannot hold; give it a name", at: path, node)
            return nil
        default:
            error("\(what) is a name or an object with a 'type', not \(node.kindName)", at: path, node)
            return nil
        }
    }

    /// Named actions as `<sc:action>` elements.
    mutating func actions(_ value: JSONNode, at path: String) -> [SCXMLAction] {
        let isArray: Bool
        if case .array = value.value { isArray = true } else { isArray = false }
        return Self.items(value).enumerated().compactMap { offset, item in
            let itemPath = isArray ? Self.path(path, offset) : path
            guard let (name, params) = named(item, at: itemPath, what: "an action") else { return nil }
            var attributes = [SCXMLForeignAttribute(name: "name", namespace: "", value: name)]
            if let params {
                attributes.append(SCXMLForeignAttribute(name: "params", namespace: "", value: params.json))
            }
            return SCXMLAction(
                .foreign(
                    SCXMLForeignElement(
                        name: "\(Self.sc):action", namespace: Self.namespace, attributes: attributes,
                        location: item.location)),
                location: item.location)
        }
    }

    /// The state a target names, as seen from node `index`: `#id`, `.child`, or a sibling's key,
    /// each followed by more keys.
    mutating func resolve(_ target: String, from index: Int, at path: String, _ node: JSONNode) -> String? {
        var start: Int?
        var rest: [String]
        if target.hasPrefix("#") {
            let name = String(target.dropFirst())
            if let exact = byID[name] { return nodes[exact].id }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            rest = []
            var prefix = parts
            while !prefix.isEmpty, byID[prefix.joined(separator: ".")] == nil {
                rest.insert(prefix.removeLast(), at: 0)
            }
            start = prefix.isEmpty ? nil : byID[prefix.joined(separator: ".")]
        } else if target.hasPrefix(".") {
            start = index
            rest = target.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        } else {
            start = nodes[index].parent ?? index
            rest = target.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        guard var current = start else {
            error("the target \(Self.quoted(target)) names no state", at: path, node)
            return nil
        }
        for key in rest {
            guard let child = nodes[current].children.first(where: { $0.key == key }) else {
                error("the target \(Self.quoted(target)) names no state", at: path, node)
                return nil
            }
            current = child.index
        }
        return nodes[current].id
    }

    // MARK: - Time

    /// `after`: a delayed send on entry, a cancel on exit and the transitions on the sent event.
    mutating func after(
        _ after: JSONNode, of index: Int
    ) -> (sends: [SCXMLAction], cancels: [SCXMLAction], transitions: [SCXMLTransition]) {
        let draft = nodes[index]
        let afterPath = Self.path(draft.path, "after")
        guard let members = after.members else {
            error("'after' is an object, not \(after.kindName)", at: afterPath, after)
            return ([], [], [])
        }
        var sends: [SCXMLAction] = []
        var cancels: [SCXMLAction] = []
        var transitions: [SCXMLTransition] = []
        for member in members {
            let path = Self.path(afterPath, member.key)
            guard writable(member.key, at: path, member.value) else { continue }
            guard !member.key.isEmpty, !member.key.contains(where: \.isWhitespace) else {
                error("a delay's name cannot be empty or hold white space", at: path, member.value)
                continue
            }
            var send = SCXMLSend()
            if let milliseconds = Double(member.key),
                member.key.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
            {
                // SCXML's times stop short of a billion seconds.
                guard milliseconds < 1e12 else {
                    error("a delay of \(member.key) ms is longer than a billion seconds", at: path, member.value)
                    continue
                }
                send.delay = .nanoseconds(Int64((milliseconds * 1_000_000).rounded()))
                send.delayText = "\(member.key)ms"
            } else if let delay = options.delays[member.key] {
                send.delay = delay
                send.delayText = SCXMLTime.text(delay)
            } else {
                error(
                    "the named delay \(Self.quoted(member.key)) has no duration here: give it (statechart import --delay NAME=500ms)",
                    at: path, member.value)
                continue
            }
            let event = "xstate.after.\(member.key).\(draft.id)"
            send.event = event
            send.id = event
            let action = SCXMLAction(.send(send), location: member.value.location)
            sends.append(action)
            cancels.append(SCXMLAction(.cancel(sendID: event, sendIDExpression: nil), location: member.value.location))
            transitions += self.transitions(member.value, events: [event], from: index, at: path)
        }
        return (sends, cancels, transitions)
    }

    // MARK: - Invocations

    mutating func invocations(
        _ invoke: JSONNode, of index: Int
    ) -> (invocations: [SCXMLInvoke], transitions: [SCXMLTransition]) {
        let draft = nodes[index]
        let invokePath = Self.path(draft.path, "invoke")
        let isArray: Bool
        if case .array = invoke.value { isArray = true } else { isArray = false }
        var invocations: [SCXMLInvoke] = []
        var transitions: [SCXMLTransition] = []
        for (offset, item) in Self.items(invoke).enumerated() {
            let path = isArray ? Self.path(invokePath, offset) : invokePath
            guard item.members != nil else {
                error("an invocation is an object, not \(item.kindName)", at: path, item)
                continue
            }
            checkKeys(of: item, allowed: Self.invokeKeys, at: path, what: "an invocation")
            guard let source = item["src"], let type = source.string, !type.isEmpty,
                !type.contains(where: \.isWhitespace), writable(type, at: Self.path(path, "src"), source)
            else {
                error(
                    "an invocation needs 'src' naming its actor (an inline actor is code, which a JSON export cannot hold)",
                    at: Self.path(path, "src"), item["src"] ?? item)
                continue
            }
            let id = string(item["id"], at: Self.path(path, "id")) ?? "\(draft.id):invocation[\(offset)]"
            var invocation = SCXMLInvoke(type: type, id: id, location: item.location)
            if let input = item["input"] {
                invocation.content = SCXMLContent(inline: .text(input.json), location: input.location)
            }
            invocations.append(invocation)
            // Each outcome's transitions say whose outcome they take, for the way back to XState.
            var outcomes: [SCXMLTransition] = []
            if let done = item["onDone"] {
                outcomes += self.transitions(
                    done, events: ["done.invoke.\(id)"], from: index, at: Self.path(path, "onDone"))
            }
            if let failure = item["onError"] {
                outcomes += self.transitions(
                    failure, events: ["error.execution"], from: index, at: Self.path(path, "onError"))
            }
            for index in outcomes.indices {
                outcomes[index].extensions.attributes.insert(attribute("invoke", id), at: 0)
            }
            transitions += outcomes
        }
        return (invocations, transitions)
    }

    // MARK: - Values

    /// The text of a string; an error for anything else, and for text SCXML cannot hold.
    mutating func string(_ node: JSONNode?, at path: String) -> String? {
        guard let node else { return nil }
        guard let text = node.string else {
            error("this must be a string, not \(node.kindName)", at: path, node)
            return nil
        }
        return writable(text, at: path, node) ? text : nil
    }

    /// Whether XML can hold `text` as it is: a name or key holding a control character XML 1.0
    /// has no place for would come back changed, so it is an error.
    mutating func writable(_ text: String, at path: String, _ node: JSONNode) -> Bool {
        guard text.unicodeScalars.allSatisfy(Escaping.isXMLCharacter) else {
            error("\(Self.quoted(text)) holds a control character that SCXML cannot hold", at: path, node)
            return false
        }
        return true
    }
}
