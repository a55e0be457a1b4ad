import Statecharts

extension SwiftChartWriter {
    /// The `OnEntry(send:after:id:)` elements of an `<onentry>` block whose every action is a
    /// `<send>` to the machine itself with an event, a delay of more than zero and an identifier
    /// (if any) all written as literals, and nothing else: no target, no data, no `idlocation`.
    /// `nil` for any other block, which is written as a closure.
    ///
    /// Such a send cannot fail, so writing a block of several as several elements keeps what the
    /// block does; each does what `scope.send(event, after: delay, id: id)` in a closure does.
    func declaredSends(_ block: SCXMLBlock, indent: Int) -> [String]? {
        guard !block.actions.isEmpty else { return nil }
        var lines: [String] = []
        for action in block.actions {
            guard case .send(let send) = action.kind, let name = send.event, send.eventExpression == nil,
                send.target == nil || send.target == "", send.targetExpression == nil,
                send.type.map({ SCXMLSend.scxmlProcessorTypes.contains($0) }) ?? true, send.typeExpression == nil,
                send.idLocation == nil, send.delayExpression == nil, let delay = send.delay, delay > .zero,
                send.namelist.isEmpty, send.params.isEmpty, send.content == nil,
                Self.namedDelay(of: send, in: Set(stateOrder)) == nil
            else { return nil }
            var arguments = [event(name), "after: " + SwiftNaming.durationLiteral(delay)]
            if let id = send.id { arguments.append("id: " + Escaping.swiftLiteral(id)) }
            lines.append(Self.pad(indent) + "OnEntry(send: " + arguments.joined(separator: ", ") + ")")
        }
        return lines
    }

    /// The `OnExit(cancel:)` elements of an `<onexit>` block whose every action is a `<cancel>`
    /// with a literal `sendid`; `nil` for any other block, which is written as a closure.
    func declaredCancels(_ block: SCXMLBlock, indent: Int) -> [String]? {
        guard !block.actions.isEmpty else { return nil }
        var lines: [String] = []
        for action in block.actions {
            guard case .cancel(let id?, nil) = action.kind else { return nil }
            lines.append(Self.pad(indent) + "OnExit(cancel: " + Escaping.swiftLiteral(id) + ")")
        }
        return lines
    }
}
