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
