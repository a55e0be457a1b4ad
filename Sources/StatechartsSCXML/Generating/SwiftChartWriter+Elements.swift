import Statecharts

extension SwiftChartWriter {
    static func pad(_ indent: Int) -> String { String(repeating: "    ", count: indent) }

    /// The longest line written where a line can be broken (a string literal longer than this
    /// stays on one line).
    static let lineLength = 120

    /// `name(arguments)` followed by `tail`, on one line when it fits, else with the arguments on
    /// the next line, else one argument per line.
    static func call(_ name: String, _ arguments: [String], tail: String = "", indent: Int) -> [String] {
        let pad = Self.pad(indent)
        let oneLine = pad + name + "(" + arguments.joined(separator: ", ") + ")" + tail
        guard oneLine.count > lineLength, !arguments.isEmpty else { return [oneLine] }
        let inner = Self.pad(indent + 1)
        let together = inner + arguments.joined(separator: ", ") + ")" + tail
        if together.count <= lineLength { return [pad + name + "(", together] }
        var lines = [pad + name + "("]
        for argument in arguments.dropLast() { lines.append(inner + argument + ",") }
        let last = inner + (arguments.last ?? "")
        // A literal too long for any line ends the line, and the parenthesis takes the next one.
        if (last + ")" + tail).count <= lineLength {
            lines.append(last + ")" + tail)
        } else {
            lines += [last, pad + ")" + tail]
        }
        return lines
    }

    /// The element of a state and everything in it, in the order the interpreter builds them.
    mutating func node(_ node: SCXMLNode, indent: Int) -> [String] {
        let pad = Self.pad(indent)
        if case .history(let type) = node.kind {
            let fallback = node.transitions.first
            var head = "History(\(state(node.id))" + (type == .deep ? ", .deep" : "")
            if let targets = fallback?.targets, !targets.isEmpty {
                head += ", default: " + targets.map(state).joined(separator: ", ")
            }
            head += ")"
            return closureCall(pad + head, fallback?.actions ?? [], indent: indent)
        }
        var content: [String] = []
        // A block that does nothing is left out: `OnEntry` and `OnExit` need an action.
        // A block of delayed sends to the machine itself, or of cancels, is written as data
        // (`OnEntry(send:after:id:)`, `OnExit(cancel:)`), which the machine's quick step does.
        for block in node.onEntry {
            if let sends = declaredSends(block, indent: indent + 1) {
                content += sends
                continue
            }
            let call = closureCall(Self.pad(indent + 1) + "OnEntry", block.actions, indent: indent + 1)
            if call.count > 1 { content += call }
        }
        for block in node.onExit {
            if let cancels = declaredCancels(block, indent: indent + 1) {
                content += cancels
                continue
            }
            let call = closureCall(Self.pad(indent + 1) + "OnExit", block.actions, indent: indent + 1)
            if call.count > 1 { content += call }
        }
        if let initial = node.initialTransition {
            let head = "Initial(to: " + initial.targets.map(state).joined(separator: ", ") + ")"
            content += closureCall(Self.pad(indent + 1) + head, initial.actions, indent: indent + 1)
        }
        for invocation in node.invocations {
            report(
                "a generated chart runs alone and cannot invoke other sessions; run a document with <invoke> with statechart run or SCXMLSession",
                at: invocation.location)
        }
        if let doneData = node.doneData {
            warn(
                "the generated chart drops the <donedata>: done events of a generated chart carry no data, which the null data model cannot read",
                at: doneData.location)
        }
        for child in node.children { content += self.node(child, indent: indent + 1) }
        for transition in node.transitions { content += self.transition(transition, indent: indent + 1) }
        var head: String
        switch node.kind {
        case .parallel: head = "Parallel(\(state(node.id)))"
        case .final: head = "Final(\(state(node.id)))"
        case .state, .history:
            head = "StateNode(\(state(node.id))"
            if !node.initial.isEmpty { head += ", initial: " + node.initial.map(state).joined(separator: ", ") }
            head += ")"
        }
        if content.isEmpty { return [pad + head + (node.kind == .parallel ? " {}" : "")] }
        return [pad + head + " {"] + content + [pad + "}"]
    }

    /// A transition: `On` for events, `Always` for none.
    mutating func transition(_ transition: SCXMLTransition, indent: Int) -> [String] {
        var arguments: [String] = []
        let head: String
        if transition.events.isEmpty {
            head = "Always"
        } else {
            head = "On"
            let descriptors = EventDescriptor.list(transition.events)
            if let kinds = exactKinds(descriptors) {
                arguments += kinds.map(event)
            } else {
                let texts = transition.events.flatMap { $0.split(whereSeparator: \.isWhitespace) }.map(String.init)
                arguments.append("named: " + texts.map(Escaping.swiftLiteral).joined(separator: ", "))
            }
        }
        if !transition.targets.isEmpty {
            arguments.append("to: " + transition.targets.map(state).joined(separator: ", "))
        }
        if transition.type == .internal { arguments.append("type: .internal") }
        let named = Self.namedGuard(transition).flatMap { found in
            implementationMember(.guard, found.name).map { (item: $0, parameters: found.parameters) }
        }
        if let named {
            var call = "implementation.\(SwiftNaming.escaped(named.item.member))($0.event, $0.context"
            if named.item.hasParameters { call += ", parameters: " + Escaping.swiftLiteral(named.parameters ?? "{}") }
            call += ")"
            if let condition = transition.condition {
                let written = guardClosure(condition)
                arguments.append("guard: { (\(written))($0) && \(call) }")
            } else {
                arguments.append("guard: { \(call) }")
            }
        } else if let condition = transition.condition {
            arguments.append("guard: " + guardClosure(condition))
        }
        let statements = block(transition.actions, indent: indent + 1).lines
        if statements.isEmpty { return Self.call(head, arguments, indent: indent) }
        return Self.call(head, arguments, tail: " { scope in", indent: indent) + statements + [Self.pad(indent) + "}"]
    }

    /// The event cases a transition's descriptors name exactly, when they match no other event:
    /// no wildcard, no prefix of another event's name, no platform event. `nil` otherwise, and the
    /// transition names its descriptors, which the chart matches as SCXML does.
    func exactKinds(_ descriptors: [EventDescriptor]) -> [String]? {
        var kinds: [String] = []
        for descriptor in descriptors {
            // A descriptor matches another event when it is a proper prefix of one (in time linear
            // in the document, not in the events times the transitions).
            guard !descriptor.isWildcard, eventNames[descriptor.pattern] != nil, !isPlatform(descriptor.pattern),
                !eventPrefixes.contains(descriptor.pattern)
            else { return nil }
            if !kinds.contains(descriptor.pattern) { kinds.append(descriptor.pattern) }
        }
        return kinds.isEmpty ? nil : kinds
    }

    /// A guard of `In(id)`: `{ $0.isActive(.id) }`.
    mutating func guardClosure(_ condition: SCXMLExpression) -> String {
        guard let id = NullDataModel.stateTest(condition.text) else {
            report("the condition '\(condition.text)' is not In(stateID)", at: condition.location)
            return "{ _ in false }"
        }
        guard stateNames[id] != nil else {
            warn("In('\(id)') names no state of the document; the condition is always false", at: condition.location)
            return "{ _ in false }"
        }
        return "{ $0.isActive(\(state(id))) }"
    }

    /// `head` alone, or with the actions as a trailing closure `{ scope in ... }`.
    mutating func closureCall(_ head: String, _ actions: [SCXMLAction], indent: Int) -> [String] {
        let statements = block(actions, indent: indent + 1).lines
        guard !statements.isEmpty else { return [head] }
        let pad = Self.pad(indent)
        return [head + " { scope in"] + statements + [pad + "}"]
    }
}
