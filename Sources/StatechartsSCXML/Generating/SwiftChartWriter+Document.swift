import Statecharts

/// The document as Swift values, for a document whose expressions need a data model: the chart is
/// built from them when the app runs, with no XML to read, and its expressions and scripts run on
/// the data model given then (ECMAScript on JavaScriptCore).
extension SwiftChartWriter {
    typealias Literal = SwiftLiteral

    mutating func documentDeclaration() -> [String] {
        // The `src` of Swift work is the work's to read (`SCXMLInvocationRequest.source`).
        for invocation in allInvocations
        where (invocation.source != nil || invocation.sourceExpression != nil) && !Self.isSwiftWork(invocation) {
            report(
                "a generated document cannot invoke a document read from a path when the app runs; write the child inline with <content>",
                at: invocation.location)
        }
        // Computed, not stored: the chart is built from it once per `chart(dataModels:)`, and no
        // global holds the document for the life of the process.
        return ["    nonisolated static var document: SCXMLDocument {"]
            + documentLiteral(document).lines(indent: 2) + ["    }"]
    }

    /// Whether an `<invoke>` names Swift work: a literal type other than SCXML's.
    static func isSwiftWork(_ invocation: SCXMLInvoke) -> Bool {
        guard let type = invocation.type else { return false }
        return !SCXMLExecutor.scxmlInvokeTypes.contains(type)
    }

    /// Names the property of the generated `Invokers` for each type of Swift work the document
    /// invokes; reports a type that makes no Swift name, or two that make the same one.
    mutating func nameInvokerTypes() {
        var positions: [String: (type: String, location: SourcePosition)] = [:]
        for invocation in allInvocations where Self.isSwiftWork(invocation) {
            guard let type = invocation.type, !invokerTypes.contains(where: { $0.type == type }) else { continue }
            guard let name = SwiftNaming.caseName(type), name != "byType" else {
                report(
                    "the invoke type '\(type)' makes no Swift property name for the generated Invokers; name the type with letters and digits",
                    at: invocation.location)
                continue
            }
            if let earlier = positions[name] {
                report(
                    "the invoke types '\(earlier.type)' (\(earlier.location)) and '\(type)' would both be Invokers.\(name); rename one",
                    at: invocation.location)
                continue
            }
            positions[name] = (type, invocation.location)
            invokerTypes.append((type, name))
        }
    }

    /// `Invokers`: one property per type of Swift work the document invokes, so that a session of
    /// the generated document cannot be made without an invoker for each; none when it invokes
    /// none.
    func invokersDeclaration(modifier: String) -> [String] {
        guard !invokerTypes.isEmpty else { return [] }
        var lines = [
            "",
            "    /// The Swift work the document invokes by type: an invoker for each `<invoke type>` it names. Give",
            "    /// `byType` to `SCXMLSession.Options(invokers:)`.",
            "    \(modifier)nonisolated struct Invokers: Sendable {",
        ]
        for (type, property) in invokerTypes {
            lines += [
                "        /// Runs `<invoke type=\(Escaping.swiftComment(Escaping.swiftLiteral(type)))>`.",
                "        \(modifier)var \(SwiftNaming.escaped(property)): SCXMLInvoker",
            ]
        }
        let parameters = invokerTypes.map { "\(SwiftNaming.escaped($0.property)): SCXMLInvoker" }
        lines += [
            "", "        /// An invoker for each type.",
            "        \(modifier)init(\(parameters.joined(separator: ", "))) {",
        ]
        for (_, property) in invokerTypes {
            let name = SwiftNaming.escaped(property)
            lines.append("            self.\(name) = \(name)")
        }
        lines += [
            "        }", "", "        /// The invokers by type, as `SCXMLSession.Options(invokers:)` takes them.",
        ]
        lines.append("        \(modifier)var byType: [String: SCXMLInvoker] {")
        let entries = invokerTypes.map { "\(Escaping.swiftLiteral($0.type)): \(SwiftNaming.escaped($0.property))" }
        lines += ["            [" + entries.joined(separator: ", ") + "]", "        }", "    }"]
        return lines
    }

    var allInvocations: [SCXMLInvoke] {
        var result: [SCXMLInvoke] = []
        func visit(_ node: SCXMLNode) {
            result += node.invocations
            node.children.forEach(visit)
        }
        document.states.forEach(visit)
        return result
    }

    func string(_ text: String) -> Literal { .code(Escaping.swiftLiteral(text)) }

    func at(_ location: SourcePosition) -> Literal { .code("at(\(location.line), \(location.column))") }

    func expression(_ expression: SCXMLExpression) -> Literal {
        .call("SCXMLExpression", [(nil, string(expression.text)), ("location", at(expression.location))])
    }

    /// The arguments whose values are not the initialiser's defaults, in order.
    func arguments(_ pairs: [(String?, Literal?)]) -> [(label: String?, value: SwiftLiteral)] {
        pairs.compactMap { label, value in value.map { (label: label, value: $0) } }
    }

    func strings(_ texts: [String]) -> Literal? { texts.isEmpty ? nil : .array(texts.map(string)) }

    func documentLiteral(_ document: SCXMLDocument) -> Literal {
        .call(
            "SCXMLDocument",
            arguments([
                ("name", document.name.map(string)), ("initial", strings(document.initial)),
                ("dataModel", document.dataModel.map(string)),
                ("binding", document.binding == .late ? .code(".late") : nil),
                ("states", document.states.isEmpty ? nil : .array(document.states.map(node))),
                ("transitions", document.transitions.isEmpty ? nil : .array(document.transitions.map(transition))),
                ("data", document.data.isEmpty ? nil : .array(document.data.map(data))),
                ("script", document.script.map(script)), ("location", at(document.location)),
                (
                    "namespaces",
                    document.namespaces.isEmpty
                        ? nil
                        : .array(
                            document.namespaces.map {
                                .call("SCXMLNamespace", [("prefix", string($0.prefix)), ("uri", string($0.uri))])
                            })
                ),
                ("extensions", extensions(document.extensions)),
            ]))
    }

    func node(_ node: SCXMLNode) -> Literal {
        let kind: String
        switch node.kind {
        case .state: kind = ".state"
        case .parallel: kind = ".parallel"
        case .final: kind = ".final"
        case .history(let type): kind = type == .deep ? ".history(.deep)" : ".history(.shallow)"
        }
        return .call(
            "SCXMLNode",
            arguments([
                ("kind", .code(kind)), ("id", string(node.id)),
                ("hasGeneratedID", node.hasGeneratedID ? .code("true") : nil),
                ("initial", strings(node.initial)), ("initialTransition", node.initialTransition.map(transition)),
                ("children", node.children.isEmpty ? nil : .array(node.children.map(self.node))),
                ("transitions", node.transitions.isEmpty ? nil : .array(node.transitions.map(transition))),
                ("onEntry", node.onEntry.isEmpty ? nil : .array(node.onEntry.map(block))),
                ("onExit", node.onExit.isEmpty ? nil : .array(node.onExit.map(block))),
                ("data", node.data.isEmpty ? nil : .array(node.data.map(data))),
                ("doneData", node.doneData.map(doneData)),
                ("invocations", node.invocations.isEmpty ? nil : .array(node.invocations.map(invocation))),
                ("location", at(node.location)), ("extensions", extensions(node.extensions)),
            ]))
    }

    /// Markup of other namespaces: a named guard is read from it when the chart runs.
    func extensions(_ extensions: SCXMLExtensions) -> Literal? {
        guard !extensions.isEmpty else { return nil }
        return .call(
            "SCXMLExtensions",
            arguments([
                ("attributes", extensions.attributes.isEmpty ? nil : .array(extensions.attributes.map(attribute))),
                ("elements", extensions.elements.isEmpty ? nil : .array(extensions.elements.map(foreign))),
            ]))
    }

    func attribute(_ attribute: SCXMLForeignAttribute) -> Literal {
        .call(
            "SCXMLForeignAttribute",
            [
                ("name", string(attribute.name)), ("namespace", string(attribute.namespace)),
                ("value", string(attribute.value)),
            ])
    }

    func transition(_ transition: SCXMLTransition) -> Literal {
        .call(
            "SCXMLTransition",
            arguments([
                ("events", strings(transition.events)), ("condition", transition.condition.map(expression)),
                ("targets", strings(transition.targets)),
                ("type", transition.type == .internal ? .code(".internal") : nil),
                ("actions", actions(transition.actions)), ("location", at(transition.location)),
                ("extensions", extensions(transition.extensions)),
            ]))
    }

    func block(_ block: SCXMLBlock) -> Literal {
        .call("SCXMLBlock", [("actions", actions(block.actions) ?? .array([])), ("location", at(block.location))])
    }

    func actions(_ actions: [SCXMLAction]) -> Literal? {
        actions.isEmpty ? nil : .array(actions.map(action))
    }

    func optional(_ value: Literal?) -> Literal { value ?? .code("nil") }

    func action(_ action: SCXMLAction) -> Literal {
        let kind: Literal
        switch action.kind {
        case .raise(let event):
            kind = .call(".raise", [("event", string(event))])
        case .send(let send):
            kind = .call(".send", [(nil, self.send(send))])
        case .cancel(let sendID, let sendIDExpression):
            kind = .call(
                ".cancel",
                [
                    ("sendID", optional(sendID.map(string))),
                    ("sendIDExpression", optional(sendIDExpression.map(expression))),
                ])
        case .log(let label, let value):
            kind = .call(
                ".log", [("label", optional(label.map(string))), ("expression", optional(value.map(expression)))])
        case .if(let branches):
            kind = .call(
                ".if",
                [
                    (
                        nil,
                        .array(
                            branches.map { branch in
                                .call(
                                    "SCXMLBranch",
                                    [
                                        ("condition", optional(branch.condition.map(expression))),
                                        ("actions", actions(branch.actions) ?? .array([])),
                                    ])
                            })
                    )
                ])
        case .foreach(let array, let item, let index, let body):
            kind = .call(
                ".foreach",
                [
                    ("array", expression(array)), ("item", string(item)), ("index", optional(index.map(string))),
                    ("actions", actions(body) ?? .array([])),
                ])
        case .assign(let location, let value, let content):
            kind = .call(
                ".assign",
                [
                    ("location", expression(location)), ("expression", optional(value.map(expression))),
                    ("content", optional(content.map(inline))),
                ])
        case .script(let script):
            kind = .call(".script", [(nil, self.script(script))])
        case .foreign(let element):
            kind = .call(".foreign", [(nil, foreign(element))])
        }
        return .call("SCXMLAction", [(nil, kind), ("location", at(action.location))])
    }

    func foreign(_ element: SCXMLForeignElement) -> Literal {
        .call(
            "SCXMLForeignElement",
            [
                ("name", string(element.name)), ("namespace", string(element.namespace)),
                ("attributes", .array(element.attributes.map(attribute))),
                ("children", .array(element.children.map(foreign))), ("text", string(element.text)),
                ("location", at(element.location)),
            ])
    }

    func send(_ send: SCXMLSend) -> Literal {
        .call(
            "SCXMLSend",
            arguments([
                ("event", send.event.map(string)), ("eventExpression", send.eventExpression.map(expression)),
                ("target", send.target.map(string)), ("targetExpression", send.targetExpression.map(expression)),
                ("type", send.type.map(string)), ("typeExpression", send.typeExpression.map(expression)),
                ("id", send.id.map(string)), ("idLocation", send.idLocation.map(expression)),
                ("delay", send.delay.map { .code(SwiftNaming.durationLiteral($0)) }),
                ("delayText", send.delayText.map(string)), ("delayExpression", send.delayExpression.map(expression)),
                ("namelist", strings(send.namelist)),
                ("params", send.params.isEmpty ? nil : .array(send.params.map(param))),
                ("content", send.content.map(content)),
            ]))
    }

    func param(_ param: SCXMLParam) -> Literal {
        .call(
            "SCXMLParam",
            arguments([
                ("name", string(param.name)), ("expression", param.expression.map(expression)),
                ("dataLocation", param.dataLocation.map(expression)), ("location", at(param.location)),
            ]))
    }

    func content(_ content: SCXMLContent) -> Literal {
        .call(
            "SCXMLContent",
            arguments([
                ("expression", content.expression.map(expression)), ("inline", content.inline.map(inline)),
                ("location", at(content.location)),
            ]))
    }

    func inline(_ content: SCXMLInlineContent) -> Literal {
        switch content {
        case .text(let text): return .call(".text", [(nil, string(text))])
        case .markup(let markup): return .call(".markup", [(nil, string(markup))])
        }
    }

    func data(_ data: SCXMLData) -> Literal {
        .call(
            "SCXMLData",
            arguments([
                ("id", string(data.id)), ("expression", data.expression.map(expression)),
                ("source", data.source.map(string)), ("content", data.content.map(inline)),
                ("location", at(data.location)),
            ]))
    }

    func script(_ script: SCXMLScript) -> Literal {
        .call(
            "SCXMLScript",
            arguments([
                ("source", script.source.map(string)), ("text", script.text.map(string)),
                ("location", at(script.location)),
            ]))
    }

    func doneData(_ doneData: SCXMLDoneData) -> Literal {
        .call(
            "SCXMLDoneData",
            arguments([
                ("content", doneData.content.map(content)),
                ("params", doneData.params.isEmpty ? nil : .array(doneData.params.map(param))),
                ("location", at(doneData.location)),
            ]))
    }

    func invocation(_ invocation: SCXMLInvoke) -> Literal {
        .call(
            "SCXMLInvoke",
            arguments([
                ("type", invocation.type.map(string)), ("typeExpression", invocation.typeExpression.map(expression)),
                ("source", invocation.source.map(string)),
                ("sourceExpression", invocation.sourceExpression.map(expression)),
                ("id", invocation.id.map(string)), ("idLocation", invocation.idLocation.map(expression)),
                ("namelist", strings(invocation.namelist)),
                ("autoforward", invocation.autoforward ? .code("true") : nil),
                ("params", invocation.params.isEmpty ? nil : .array(invocation.params.map(param))),
                ("content", invocation.content.map(content)), ("finalize", actions(invocation.finalize)),
                ("location", at(invocation.location)),
            ]))
    }
}
