import Statecharts

extension SCXMLExecutor {
    /// A transition's named guard: its `sc:guard` attribute of the project's namespace, with its
    /// `sc:guard-params`.
    struct NamedGuardReference: Sendable {
        var name: String
        var parameters: SCXMLValue?
        var location: SourcePosition

        /// The transition's named guard; `nil` when it names none.
        init?(_ transition: SCXMLTransition) {
            let ours = transition.extensions.attributes.filter { $0.namespace == SCXMLExtensions.namespace }
            guard let name = ours.first(where: { $0.name.hasSuffix(":guard") })?.value else { return nil }
            self.name = name
            parameters = ours.first { $0.name.hasSuffix(":guard-params") }.flatMap { SCXMLValue(json: $0.value) }
            location = transition.location
        }
    }

    /// Evaluates a named guard with the code the session was given for it, which the session's
    /// cascade carries (``SCXMLCascade/namedGuards``).
    ///
    /// - Throws: ``SCXMLEvaluationError`` when the session has no code for it: the engine then
    ///   raises `error.execution` and does not take the transition.
    static func namedGuard(_ reference: NamedGuardReference, in scope: borrowing SCXMLScope) throws -> Bool {
        guard let code = SCXMLCascade.current?.namedGuards[reference.name] else {
            throw SCXMLEvaluationError(
                "the guard '\(reference.name)' has no code in this session (SCXMLSession.Options.guards; statechart run --guard \(reference.name)=true)",
                at: reference.location, element: "transition")
        }
        return code.test(
            SCXMLNamedGuard.Request(
                name: reference.name, parameters: reference.parameters, event: scope.event,
                sessionID: scope.context.info.id))
    }

    /// Runs a named action (`<sc:action name="…">`) with the code the session was given for it;
    /// nothing for another element of another namespace, or a name without code.
    static func namedAction(_ element: SCXMLForeignElement, in scope: borrowing SCXMLScope) throws {
        guard element.namespace == SCXMLExtensions.namespace, element.localName == "action",
            let name = element.attribute("name"), let code = SCXMLCascade.current?.namedActions[name]
        else { return }
        try code.perform(
            SCXMLNamedAction.Request(
                name: name, parameters: element.attribute("params").flatMap { SCXMLValue(json: $0) },
                event: scope.event, sessionID: scope.context.info.id))
    }
}
