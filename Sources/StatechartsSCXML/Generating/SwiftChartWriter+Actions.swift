import Statecharts

extension SwiftChartWriter {
    /// Statements of a block, and whether the block always ends by throwing (what follows a throw
    /// is left out, as the interpreter skips it, and Swift would warn of it).
    struct Statements {
        var lines: [String] = []
        var throwsAlways = false
    }

    /// The statements of executable content: what ``SCXMLExecutor`` does with the null data model,
    /// with every expression read when the chart is generated.
    mutating func block(_ actions: [SCXMLAction], indent: Int) -> Statements {
        var result = Statements()
        for action in actions {
            let statements = self.action(action, indent: indent)
            result.lines += statements.lines
            if statements.throwsAlways {
                result.throwsAlways = true
                break
            }
        }
        return result
    }

    mutating func action(_ action: SCXMLAction, indent: Int) -> Statements {
        let pad = Self.pad(indent)
        switch action.kind {
        case .raise(let name):
            return Statements(lines: [pad + "scope.raise(\(event(name)))"])
        case .send(let send):
            return self.send(send, at: action.location, indent: indent)
        case .cancel(let sendID, let expression):
            guard let id = sendID ?? expression.flatMap({ NullDataModel.stringLiteral($0.text) }) else {
                return Statements()
            }
            return Statements(lines: Self.call("scope.cancel", ["id: " + Escaping.swiftLiteral(id)], indent: indent))
        case .log(let label, let expression):
            let message = expression.flatMap { NullDataModel.stringLiteral($0.text) } ?? ""
            let arguments =
                [Escaping.swiftLiteral(message)] + (label.map { ["label: " + Escaping.swiftLiteral($0)] } ?? [])
            return Statements(lines: Self.call("scope.log", arguments, indent: indent))
        case .if(let branches):
            return ifStatement(branches, indent: indent)
        case .foreach, .assign, .script:
            report("<\(action.tagName)> needs a data model with variables", at: action.location)
            return Statements()
        case .foreign(let element):
            // A named action of the design is the app's code; any other element of another
            // namespace does nothing, as in an interpreted session.
            guard let (name, parameters) = Self.namedAction(element),
                let item = implementationMember(.action, name)
            else { return Statements() }
            var arguments = ["scope.event", "&scope.context"]
            if item.hasParameters { arguments.append("parameters: " + Escaping.swiftLiteral(parameters ?? "{}")) }
            return Statements(
                lines: Self.call("try implementation.\(SwiftNaming.escaped(item.member))", arguments, indent: indent))
        }
    }

    /// `if scope.isActive(.a) { ... } else if ... else { ... }`. A branch whose condition names no
    /// state is never taken and is left out.
    mutating func ifStatement(_ branches: [SCXMLBranch], indent: Int) -> Statements {
        let pad = Self.pad(indent)
        var lines: [String] = []
        var allThrow = true
        var hasElse = false
        for branch in branches {
            var test: String?
            if let condition = branch.condition {
                guard let id = NullDataModel.stateTest(condition.text) else {
                    report("the condition '\(condition.text)' is not In(stateID)", at: condition.location)
                    continue
                }
                guard stateNames[id] != nil else {
                    warn(
                        "In('\(id)') names no state of the document; this branch is never taken", at: condition.location
                    )
                    continue
                }
                test = "scope.isActive(\(state(id)))"
            }
            let body = block(branch.actions, indent: indent + 1)
            allThrow = allThrow && body.throwsAlways
            if let test {
                lines.append((lines.isEmpty ? pad : pad + "} else ") + "if \(test) {")
                lines += body.lines
            } else {
                hasElse = true
                if lines.isEmpty {
                    // Only the else branch is left: its statements run unconditionally.
                    return Statements(
                        lines: block(branch.actions, indent: indent).lines, throwsAlways: body.throwsAlways)
                }
                lines.append(pad + "} else {")
                lines += body.lines
                break
            }
        }
        if lines.isEmpty { return Statements() }
        lines.append(pad + "}")
        return Statements(lines: lines, throwsAlways: hasElse && allThrow)
    }

    /// A `<send>`: to the machine itself (its external queue, after the delay), to `#_internal`
    /// (its internal queue), or elsewhere, which a chart that runs alone cannot reach.
    mutating func send(_ send: SCXMLSend, at location: SourcePosition, indent: Int) -> Statements {
        let pad = Self.pad(indent)
        func literal(_ expression: SCXMLExpression?) -> String? {
            expression.flatMap { NullDataModel.stringLiteral($0.text) }
        }
        let name = send.event ?? literal(send.eventExpression)
        let target = send.target ?? literal(send.targetExpression)
        let type = send.type ?? literal(send.typeExpression)
        if let type, !SCXMLSend.scxmlProcessorTypes.contains(type) {
            warn(
                "a generated chart has only SCXML's event I/O processor; this <send> of type '\(type)' raises error.execution",
                at: location)
            return failure(
                "the event I/O processor '\(type)' is not available in this session; it has SCXML's", indent: indent)
        }
        var delay = send.delay ?? .zero
        if let expression = send.delayExpression, let text = literal(expression) {
            guard let parsed = SCXMLTime.duration(text) else {
                warn(
                    "the delay '\(text)' is not a time such as '1s' or '200ms'; this <send> raises error.execution",
                    at: location)
                return failure("the delay '\(text)' is not a time such as '1s' or '200ms'", indent: indent)
            }
            delay = parsed
        }
        if !send.params.isEmpty || send.content != nil {
            warn(
                "the generated chart drops the data of this <send>: its events carry none, and the null data model cannot read it",
                at: location)
        }
        guard let name else {
            warn("this <send> has no event name and raises error.execution", at: location)
            return failure("the <send> has no event name", indent: indent)
        }
        switch target {
        case nil, "":
            var arguments = [event(name)]
            if let named = Self.namedDelay(of: send, in: Set(stateOrder)),
                let item = implementationMember(.delay, named)
            {
                arguments.append("after: implementation.\(SwiftNaming.escaped(item.member))")
                if let id = send.id { arguments.append("id: " + Escaping.swiftLiteral(id)) }
            } else if delay > .zero {
                arguments.append("after: " + SwiftNaming.durationLiteral(delay))
                if let id = send.id { arguments.append("id: " + Escaping.swiftLiteral(id)) }
            }
            return Statements(lines: Self.call("scope.send", arguments, indent: indent))
        case "#_internal":
            if delay > .zero {
                warn("a <send> to '#_internal' cannot be delayed; this one raises error.execution", at: location)
                return failure("a <send> to '#_internal' cannot be delayed", indent: indent)
            }
            return Statements(lines: [pad + "scope.raise(\(event(name)))"])
        case let other?:
            guard other.hasPrefix("#_") else {
                warn(
                    "the target '\(other)' is not one SCXML's event I/O processor accepts; this <send> raises error.execution",
                    at: location)
                return failure(
                    "the target '\(other)' is not one SCXML's event I/O processor accepts (#_internal, #_parent, #_scxml_...)",
                    indent: indent)
            }
            warn(
                "a generated chart runs alone, without a parent or other sessions: this <send> to '\(other)' raises error.communication",
                at: location)
            let position =
                "SourcePosition(file: \(Escaping.swiftLiteral(fileName)), line: \(location.line), column: \(location.column))"
            return Statements(
                lines: Self.call(
                    "scope.raiseCommunicationError",
                    [Escaping.swiftLiteral("no session that this one can reach is '\(other)'"), "at: " + position],
                    indent: indent))
        }
    }

    /// `throw ExecutionError(message)`: the machine raises `error.execution` and skips the rest of
    /// the block.
    mutating func failure(_ message: String, indent: Int) -> Statements {
        throwsExecutionError = true
        return Statements(
            lines: Self.call("throw ExecutionError", [Escaping.swiftLiteral(message)], indent: indent),
            throwsAlways: true
        )
    }
}
