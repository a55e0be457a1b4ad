extension SCXMLDocument {
    /// Calls `body` with every block of executable content of the document, in document order:
    /// transitions' (with `<initial>` and history defaults), `<onentry>`, `<onexit>` and `<finalize>`.
    /// Nested blocks (`<if>` branches, `<foreach>` bodies) are inside the blocks given.
    public func forEachActionBlock(_ body: ([SCXMLAction]) -> Void) {
        func visit(_ node: SCXMLNode) {
            for block in node.onEntry { body(block.actions) }
            for block in node.onExit { body(block.actions) }
            if let initial = node.initialTransition { body(initial.actions) }
            for transition in node.transitions { body(transition.actions) }
            for invocation in node.invocations { body(invocation.finalize) }
            for child in node.children { visit(child) }
        }
        for transition in transitions { body(transition.actions) }
        for state in states { visit(state) }
    }
}

extension SCXMLDocument {
    /// The names of the events the document sends itself after a delay: its timers, such as
    /// `<send event="timeout" delay="60s"/>`. A send counts when its event is written out, it has a
    /// `delay` or `delayexpr`, and it has no target or type (or SCXML's own type): it goes to the
    /// session's own external queue. Tools list these apart from the events a user sends: they
    /// come when time passes.
    public var timerEventNames: Set<String> {
        var names: Set<String> = []
        func visit(_ actions: [SCXMLAction]) {
            for action in actions {
                switch action.kind {
                case .send(let send):
                    guard let event = send.event, send.delay != nil || send.delayExpression != nil,
                        send.target == nil, send.targetExpression == nil, send.typeExpression == nil,
                        send.type.map(SCXMLSend.scxmlProcessorTypes.contains) ?? true
                    else { continue }
                    names.insert(event)
                case .if(let branches): for branch in branches { visit(branch.actions) }
                case .foreach(_, _, _, let body): visit(body)
                default: continue
                }
            }
        }
        forEachActionBlock(visit)
        return names
    }
}
