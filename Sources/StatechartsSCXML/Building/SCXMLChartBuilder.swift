import Statecharts

/// Turns an ``SCXMLDocument`` into chart elements whose actions run the executable content.
struct SCXMLChartBuilder {
    typealias Element = ChartElement<String, SCXMLEvent, SCXMLContext>

    let document: SCXMLDocument
    let model: any SCXMLDataModel.Type
    let requestedModel: String
    /// Whether the document asked for a model that is not available and runs on a stand-in.
    let standIn: Bool
    var diagnostics: [SCXMLDiagnostic] = []

    init(document: SCXMLDocument, dataModels: [any SCXMLDataModel.Type]) {
        let (resolved, sourceProblems) = document.resolvingSources()
        self.document = resolved
        diagnostics = sourceProblems
        let requested = document.dataModel ?? SCXMLDocument.defaultDataModel
        requestedModel = requested
        if let found = dataModels.first(where: { $0.names.contains(requested) }) {
            model = found
            standIn = false
        } else {
            model = NullDataModel.self
            standIn = true
            if requested != "ecmascript" {
                diagnostics.append(
                    SCXMLDiagnostic(
                        .error, "the data model '\(requested)' is not available", at: document.location,
                        kind: .unsupported))
            }
        }
    }

    mutating func build() throws(SCXMLError) -> SCXMLChart {
        var elements = document.states.map { node($0) }
        elements += document.transitions.map { transition($0) }
        let allData = document.data + document.states.flatMap(Self.dataOfSubtree)
        if !allData.isEmpty {
            require(.data, at: allData[0].location)
            for item in allData { check(item) }
        }
        if let script = document.script { require(.script, at: script.location) }
        let binding = document.binding
        let topData = document.data
        let script = document.script
        if !allData.isEmpty || script != nil {
            elements.insert(
                .onStart { scope in
                    SCXMLExecutor.initialize(binding == .early ? allData : topData, in: &scope)
                    if binding == .late {
                        let later = allData.dropFirst(topData.count)
                        for item in later {
                            _ = try? SCXMLExecutor.withModel(&scope) { model, _ in try model.declare(item) }
                        }
                    }
                    if let script {
                        do {
                            try SCXMLExecutor.withModel(&scope) { model, isActive in
                                try model.run(script, isActive: isActive)
                            }
                        } catch var error as SCXMLEvaluationError {
                            if error.element == nil { error.element = "script" }
                            throw error
                        }
                    }
                }, at: 0)
        }
        let chart: Statechart<String, SCXMLEvent, SCXMLContext>
        do {
            // A model that cannot read `_event` is not told of each event (see readsBoundEvents).
            chart = try Statechart(
                name: document.name ?? "scxml", initial: document.initial, elements: elements,
                maximumDepth: SCXMLReader.maximumDepth, source: document, announcingEvents: model.readsBoundEvents)
        } catch {
            for problem in error.problems {
                diagnostics.append(
                    SCXMLDiagnostic(.error, problem.message, at: problem.location ?? document.location, kind: .document)
                )
            }
            throw SCXMLError(diagnostics: diagnostics.sorted(by: Self.documentOrder))
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw SCXMLError(diagnostics: diagnostics.sorted(by: Self.documentOrder))
        }
        return SCXMLChart(statechart: chart, document: document, dataModel: model, warnings: diagnostics)
    }

    static func documentOrder(_ first: SCXMLDiagnostic, _ second: SCXMLDiagnostic) -> Bool {
        (first.location.line, first.location.column) < (second.location.line, second.location.column)
    }

    static func dataOfSubtree(_ node: SCXMLNode) -> [SCXMLData] {
        node.data + node.children.flatMap(dataOfSubtree)
    }

    // MARK: - Checks

    mutating func unsupported(_ message: String, at location: SourcePosition) {
        let text = standIn ? "needs the \(requestedModel) data model, which is not available: \(message)" : message
        diagnostics.append(SCXMLDiagnostic(.error, text, at: location, kind: .unsupported))
    }

    mutating func check(_ expression: SCXMLExpression?, as use: SCXMLExpressionUse) {
        guard let expression, let problem = model.problem(with: expression, as: use) else { return }
        unsupported(problem, at: expression.location)
    }

    mutating func require(_ feature: SCXMLFeature, at location: SourcePosition) {
        if let problem = model.problem(with: feature) { unsupported(problem, at: location) }
    }

    mutating func check(_ data: SCXMLData) {
        check(data.expression, as: .value)
        check(data.content, at: data.location)
    }

    mutating func check(_ content: SCXMLInlineContent?, at location: SourcePosition) {
        guard let content, let problem = model.problem(with: content) else { return }
        unsupported(problem, at: location)
    }

    mutating func check(_ content: SCXMLContent?) {
        guard let content else { return }
        check(content.expression, as: .value)
        check(content.inline, at: content.location)
    }

    mutating func check(_ actions: [SCXMLAction]) {
        for action in actions {
            switch action.kind {
            case .raise:
                break
            case .send(let send):
                if let type = send.type, !SCXMLSend.scxmlProcessorTypes.contains(type),
                    !SCXMLSend.basicHTTPProcessorTypes.contains(type)
                {
                    diagnostics.append(
                        SCXMLDiagnostic(
                            .warning,
                            "the event I/O processor '\(type)' is not one a session can have here (SCXML's and the Basic HTTP one); this <send> raises error.execution",
                            at: action.location, kind: .unsupported))
                }
                check(send.eventExpression, as: .value)
                check(send.targetExpression, as: .value)
                check(send.typeExpression, as: .value)
                check(send.delayExpression, as: .value)
                if send.idLocation != nil || !send.namelist.isEmpty
                    || send.params.contains(where: { $0.dataLocation != nil })
                {
                    require(.variables, at: action.location)
                }
                for param in send.params { check(param.expression, as: .value) }
                check(send.content)
            case .cancel(_, let expression):
                check(expression, as: .value)
            case .log(_, let expression):
                check(expression, as: .value)
            case .if(let branches):
                for branch in branches {
                    check(branch.condition, as: .condition)
                    check(branch.actions)
                }
            case .foreach(let array, _, _, let body):
                require(.foreach, at: action.location)
                check(array, as: .value)
                check(body)
            case .assign(let location, let expression, _):
                require(.assign, at: action.location)
                check(location, as: .location)
                check(expression, as: .value)
            case .script:
                require(.script, at: action.location)
            case .foreign:
                // Markup of another namespace: kept for tools, nothing to run.
                break
            }
        }
    }

    // MARK: - Elements

    mutating func node(_ node: SCXMLNode) -> Element {
        var elements: [Element] = []
        if case .history(let type) = node.kind {
            let fallback = node.transitions.first
            if let fallback { check(fallback.actions) }
            return .history(
                node.id, type: type, defaultTargets: fallback?.targets ?? [],
                action: actionClosure(fallback?.actions ?? []),
                location: node.location)
        }
        if document.binding == .late, !node.data.isEmpty {
            let data = node.data
            let id = node.id
            elements.append(
                .onEntry { scope in
                    guard !scope.context.initializedStates.contains(id) else { return }
                    scope.context.initializedStates.insert(id)
                    SCXMLExecutor.initialize(data, in: &scope)
                })
        }
        for block in node.onEntry {
            check(block.actions)
            if let send = declaredSend(block.actions) {
                elements.append(send)
            } else if let action = actionClosure(block.actions) {
                elements.append(.onEntry(action))
            }
        }
        for block in node.onExit {
            check(block.actions)
            if let cancels = declaredCancels(block.actions) {
                elements += cancels
            } else if let action = actionClosure(block.actions) {
                elements.append(.onExit(action))
            }
        }
        if let initial = node.initialTransition {
            check(initial.actions)
            elements.append(
                .initial(initial.targets, action: actionClosure(initial.actions), location: initial.location))
        }
        for invocation in node.invocations { elements.append(invoke(invocation, in: node)) }
        if !node.invocations.isEmpty {
            // Leaving the state ends its invocations: their children are cancelled and can no
            // longer be reached, and nothing they send is processed.
            let id = node.id
            elements.append(.onExit { scope in scope.context.invocations.removeAll { $0.state == id } })
        }
        if let doneData = node.doneData {
            for param in doneData.params {
                check(param.expression, as: .value)
                if param.dataLocation != nil || param.expression == nil { require(.variables, at: param.location) }
            }
            check(doneData.content)
            elements.append(.doneData { scope in try SCXMLExecutor.doneData(doneData, in: scope) })
        }
        elements += node.children.map { self.node($0) }
        elements += node.transitions.map { transition($0) }
        let kind: StateKind
        switch node.kind {
        case .state: kind = .state
        case .parallel: kind = .parallel
        case .final: kind = .final
        case .history: kind = .history
        }
        return .state(node.id, kind: kind, initial: node.initial, elements: elements, location: node.location)
    }

    mutating func invoke(_ invocation: SCXMLInvoke, in node: SCXMLNode) -> Element {
        check(invocation.typeExpression, as: .value)
        check(invocation.sourceExpression, as: .value)
        // Inline content of an <invoke> is the child's document, not data.
        check(invocation.content?.expression, as: .value)
        for param in invocation.params { check(param.expression, as: .value) }
        if invocation.idLocation != nil || !invocation.namelist.isEmpty
            || invocation.params.contains(where: { $0.dataLocation != nil })
        {
            require(.variables, at: invocation.location)
        }
        if let type = invocation.type, !SCXMLExecutor.scxmlInvokeTypes.contains(type) {
            diagnostics.append(
                SCXMLDiagnostic(
                    .warning,
                    "the invoke type '\(type)' is not SCXML; this <invoke> raises error.execution unless the session has an invoker for it",
                    at: invocation.location, kind: .unsupported))
        }
        check(invocation.finalize)
        let state = node.id
        let finalize = invocation.finalize
        return .invoke(
            id: invocation.id,
            describedBy: { scope, id in try SCXMLExecutor.startInvocation(invocation, state: state, id: id, in: &scope)
            },
            beforeExternalEvent: { scope, id in try SCXMLExecutor.beforeExternalEvent(finalize, id: id, in: &scope) },
            location: invocation.location)
    }

    mutating func transition(_ transition: SCXMLTransition) -> Element {
        check(transition.condition, as: .condition)
        check(transition.actions)
        let trigger: TransitionTrigger<String> =
            transition.events.isEmpty ? .eventless : .events(transition.events.map { .descriptor(EventDescriptor($0)) })
        var condition = transition.condition.map { expression -> StatechartGuard<String, SCXMLEvent, SCXMLContext> in
            { scope in try SCXMLExecutor.condition(expression, in: scope) }
        }
        if let named = SCXMLExecutor.NamedGuardReference(transition) {
            let written = condition
            condition = { scope in try written?(scope) != false && SCXMLExecutor.namedGuard(named, in: scope) }
        }
        return .transition(
            trigger, targets: transition.targets, type: transition.type, guard: condition,
            action: actionClosure(transition.actions), location: transition.location)
    }

    /// The entry action of an `<onentry>` block that is one `<send>` with an `id`, whose every
    /// attribute is written out, that sends its session a delayed event with no data
    /// (``PreparedSend/literalDelay``): its closure, with what it does as data, so that a step
    /// arms it without running the closure, as it arms a typed chart's `OnEntry(send:after:id:)`.
    /// `nil` for any other block.
    ///
    /// The data's event has no `origin`: each session gives its machine the events of its own
    /// (``StateMachine/prepareDeclaredSends(pendingTimers:)``). A state whose sends would go past
    /// the session's limit on pending timers runs the closure, which raises `error.execution` as
    /// any `<send>` does. Only a block of one: a block whose first send fails stops there, which
    /// separate elements would not. Only with an `id`: a send without one takes a new generated
    /// identifier each time, which the data cannot.
    func declaredSend(_ actions: [SCXMLAction]) -> Element? {
        guard actions.count == 1, case .send(let send) = actions[0].kind, let id = send.id, let name = send.event
        else { return nil }
        let prepared = PreparedSend(send, location: actions[0].location)
        guard let delay = prepared.literalDelay else { return nil }
        let event = SCXMLEvent(name, type: .external, sendID: id, originType: SCXMLExecutor.scxmlProcessor)
        return .declaredEntry(
            { scope in try SCXMLExecutor.runBlock(of: prepared, in: &scope) }, send: event, after: delay, id: id)
    }

    /// The exit actions of an `<onexit>` block of `<cancel>`s whose `sendid`s are written out: one
    /// each, with what it does as data (a cancel cannot fail); `nil` for any other block.
    func declaredCancels(_ actions: [SCXMLAction]) -> [Element]? {
        guard !actions.isEmpty else { return nil }
        var elements: [Element] = []
        for action in actions {
            guard case .cancel(let id?, nil) = action.kind else { return nil }
            elements.append(.declaredExit({ scope in scope.cancel(id: id) }, cancel: id))
        }
        return elements
    }

    func actionClosure(_ actions: [SCXMLAction]) -> StatechartAction<String, SCXMLEvent, SCXMLContext>? {
        // Another tool's markup (Qt Creator's layout in a transition) runs nothing: a block of only
        // that gets no action, so that its transition costs what a bare one costs.
        let runs = actions.contains { action in
            if case .foreign(let element) = action.kind { return element.namespace == SCXMLExtensions.namespace }
            return true
        }
        guard runs else { return nil }
        let prepared = PreparedAction.block(actions)
        // A block of one `<send>` or one `<cancel>` (a state's timeout, its cancellation) runs
        // it without the loop over the block's actions.
        if prepared.count == 1 {
            switch prepared[0] {
            case .send(let send): return { scope in try SCXMLExecutor.runBlock(of: send, in: &scope) }
            case .cancel(let sendID): return { scope in scope.cancel(id: sendID) }
            case .action: break
            }
        }
        return { scope in try SCXMLExecutor.runBlock(prepared, in: &scope) }
    }
}
