import Statecharts

/// Runs SCXML executable content against a machine's ``Scope``.
///
/// An element that fails throws an ``SCXMLEvaluationError`` that names it; the machine then raises
/// `error.execution` and skips the rest of the block, as SCXML specifies. A `<send>` to a target
/// that exists in form but cannot be reached raises `error.communication` instead, and the block
/// goes on. What crosses the session's edge leaves through the scope as an effect: events sent to
/// the session itself or to others (``SCXMLSession`` is the external queue of every session), and
/// `<log>` records.
enum SCXMLExecutor {
    typealias SCXMLScope = Scope<String, SCXMLEvent, SCXMLContext>

    static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    // MARK: - Blocks

    static func run(_ actions: [SCXMLAction], in scope: inout SCXMLScope) throws {
        for action in actions { try run(action, in: &scope) }
    }

    /// Runs a block of the chart (entry, exit, a transition's actions), prepared when the chart
    /// was built. When the cascade went past a limit, the block stops quietly: the session is
    /// ending.
    static func runBlock(_ actions: [PreparedAction], in scope: inout SCXMLScope) throws {
        try runningBlock {
            for action in actions {
                switch action {
                case .send(let prepared):
                    try naming("send", at: prepared.location) { try send(prepared, in: &scope) }
                case .cancel(let sendID):
                    // Nothing to evaluate: it cannot fail.
                    scope.cancel(id: sendID)
                case .action(let action):
                    try run(action, in: &scope)
                }
            }
        }
    }

    /// Runs a block of the chart that is one `<send>`, as ``runBlock(_:in:)`` runs it.
    static func runBlock(of prepared: PreparedSend, in scope: inout SCXMLScope) throws {
        try runningBlock {
            try naming("send", at: prepared.location) { try send(prepared, in: &scope) }
        }
    }

    /// Runs `body`, a block of the chart: when the cascade went past a limit, the block stops
    /// quietly, since the session is ending.
    @inline(__always)
    static func runningBlock(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SCXMLEvaluationError where error.stopsCascade {
            return
        }
    }

    static func run(_ action: SCXMLAction, in scope: inout SCXMLScope) throws {
        try naming(action.tagName, at: action.location) { try perform(action, in: &scope) }
    }

    /// Runs `body`, the element `tagName` written at `location`: what it throws names the element
    /// (an ``SCXMLEvaluationError`` that names none is given `tagName`; another error becomes one).
    @inline(__always)
    static func naming(
        _ tagName: @autoclosure () -> String, at location: SourcePosition, _ body: () throws -> Void
    ) throws {
        do {
            try body()
        } catch var error as SCXMLEvaluationError {
            if error.element == nil { error.element = tagName() }
            throw error
        } catch {
            throw SCXMLEvaluationError("\(error)", at: location, element: tagName())
        }
    }

    private static func perform(_ action: SCXMLAction, in scope: inout SCXMLScope) throws {
        switch action.kind {
        case .raise(let event):
            scope.raise(SCXMLEvent(event, type: .internal))
        case .send(let send):
            try self.send(send, at: action.location, in: &scope)
        case .cancel(let sendID, let expression):
            guard let id = try sendID ?? expression.map({ try value($0, in: &scope).description }) else { return }
            scope.cancel(id: id)
        case .log(let label, let expression):
            let value = try expression.map { try self.value($0, in: &scope) }
            scope.log(MachineLog(label: label, message: value?.description ?? "", location: action.location))
        case .if(let branches):
            for branch in branches {
                let taken = try branch.condition.map { try condition($0, in: &scope) } ?? true
                if taken {
                    try run(branch.actions, in: &scope)
                    break
                }
            }
        case .foreach(let array, let item, let index, let actions):
            let items = try withModel(&scope) { model, isActive in try model.items(of: array, isActive: isActive) }
            for (position, element) in items.enumerated() {
                try withModel(&scope) { model, _ in
                    try model.store(element, in: item, at: action.location)
                    if let index { try model.store(.number(Double(position)), in: index, at: action.location) }
                }
                try run(actions, in: &scope)
            }
        case .assign(let location, let expression, let content):
            try withModel(&scope) { model, isActive in
                try model.assign(to: location, expression: expression, content: content, isActive: isActive)
            }
        case .script(let script):
            try withModel(&scope) { model, isActive in try model.run(script, isActive: isActive) }
        case .foreign(let element):
            // A named action runs the session's code for it; any other element of another
            // namespace is ignored, as engines ignore what they do not know.
            try namedAction(element, in: scope)
        }
    }

    // MARK: - The data model

    /// Runs `body` on the session's model, which can ask which states are active.
    static func withModel<Result>(
        _ scope: inout SCXMLScope, _ body: (inout any SCXMLDataModel, (String) -> Bool) throws -> Result
    ) throws -> Result {
        var model = scope.context.model
        defer { scope.context.model = model }
        return try body(&model) { state in scope.isActive(state) }
    }

    static func condition(_ expression: SCXMLExpression, in scope: inout SCXMLScope) throws -> Bool {
        do {
            return try withModel(&scope) { model, isActive in try model.condition(expression, isActive: isActive) }
        } catch let error as SCXMLEvaluationError where error.stopsCascade {
            return false
        }
    }

    /// A condition evaluated by a guard, which cannot change the session. False, quietly, once
    /// the cascade went past a limit.
    static func condition(_ expression: SCXMLExpression, in scope: borrowing SCXMLScope) throws -> Bool {
        var model = scope.context.model
        do {
            return try model.condition(expression) { state in scope.isActive(state) }
        } catch let error as SCXMLEvaluationError where error.stopsCascade {
            return false
        }
    }

    static func value(_ expression: SCXMLExpression, in scope: inout SCXMLScope) throws -> SCXMLValue {
        try withModel(&scope) { model, isActive in try model.value(expression, isActive: isActive) }
    }

    // MARK: - Data

    /// Initialises `<data>` elements; one that fails is declared empty and raises
    /// `error.execution`, and the others are still initialised.
    static func initialize(_ data: [SCXMLData], in scope: inout SCXMLScope) {
        for item in data {
            do {
                if let passed = scope.context.parameters[item.id] {
                    // A value the invoking session passed replaces the document's.
                    try withModel(&scope) { model, _ in try model.store(passed, in: item.id, at: item.location) }
                    continue
                }
                try withModel(&scope) { model, isActive in try model.initialize(item, isActive: isActive) }
            } catch {
                _ = try? withModel(&scope) { model, _ in try model.declare(item) }
                let evaluation = error as? SCXMLEvaluationError
                scope.raise(
                    SCXMLEvent(
                        "error.execution",
                        data: SCXMLErrorData.value(
                            element: evaluation?.element ?? "data", at: evaluation?.location ?? item.location,
                            reason: evaluation?.message ?? "\(error)"),
                        type: .platform))
            }
        }
    }

    /// The value of a `<donedata>`.
    static func doneData(_ doneData: SCXMLDoneData, in scope: borrowing SCXMLScope) throws -> SCXMLValue {
        var model = scope.context.model
        if let content = doneData.content {
            if let expression = content.expression {
                return try model.value(expression) { scope.isActive($0) }
            }
            guard let inline = content.inline else { return .string("") }
            return try model.value(of: inline, at: content.location)
        }
        var values: [String: SCXMLValue] = [:]
        for param in doneData.params {
            values[param.name] = try paramValue(param, model: &model) { scope.isActive($0) }
        }
        return .object(values)
    }

    static func paramValue(
        _ param: SCXMLParam, model: inout any SCXMLDataModel, isActive: (String) -> Bool
    ) throws -> SCXMLValue {
        if let expression = param.expression { return try model.value(expression, isActive: isActive) }
        if let location = param.dataLocation { return try model.load(location.text, at: location.location) }
        return try model.load(param.name, at: param.location)
    }

    // MARK: - Send

    /// A `<send>` of a block: one whose attributes are all written out and that sends its
    /// session a delayed event with no data sends the event this session made for it the first
    /// time; any other goes through ``send(_:at:in:)``.
    static func send(_ prepared: PreparedSend, in scope: inout SCXMLScope) throws {
        guard let delay = prepared.literalDelay, let name = prepared.send.event else {
            return try send(prepared.send, at: prepared.location, in: &scope)
        }
        let id = prepared.send.id
        let sendID = id ?? scope.context.makeSendID()
        try checkPendingTimers(name, at: prepared.location, sendID: id, in: scope)
        if let kept = scope.context.preparedEvent(of: prepared) {
            scope.send(kept.event, kind: kept.kind, after: delay, id: sendID)
            return
        }
        let event = SCXMLEvent(
            name, type: .external, sendID: id, origin: scope.context.info.scxmlLocation, originType: scxmlProcessor)
        let kind = scope.kindIndex(of: event)
        scope.context.keep(event, kind: kind, sentBy: prepared)
        scope.send(event, kind: kind, after: delay, id: sendID)
    }

    /// Throws when the session has as many timers pending as its limits allow: the event `name`
    /// cannot wait.
    static func checkPendingTimers(
        _ name: String, at location: SourcePosition, sendID: String?, in scope: borrowing SCXMLScope
    ) throws {
        // The running session's limits; the machine's own when it runs outside one (a restored
        // session keeps the limits of its options, not of its archive).
        let limits = SCXMLCascade.current?.limits ?? scope.context.info.limits
        guard scope.pendingTimerCount < limits.pendingTimers else {
            let violation = limits.violation(
                .pendingTimers, element: "send", location: location, session: scope.context.info.id,
                detail: "the event '\(name)' cannot wait: \(scope.pendingTimerCount) timers are pending")
            throw SCXMLEvaluationError("\(violation)", at: location, sendID: sendID, element: "send")
        }
    }

    static func send(_ send: SCXMLSend, at location: SourcePosition, in scope: inout SCXMLScope) throws {
        let name = try send.event ?? send.eventExpression.map { try value($0, in: &scope).description }
        let target = try send.target ?? send.targetExpression.map { try value($0, in: &scope).description }
        let type = try send.type ?? send.typeExpression.map { try value($0, in: &scope).description }
        let sendID = send.id ?? scope.context.makeSendID()
        if let idLocation = send.idLocation {
            try withModel(&scope) { model, _ in
                try model.store(.string(sendID), in: idLocation.text, at: idLocation.location)
            }
        }
        // The identifier the event carries: the one the document gave or asked for, else none.
        let eventSendID = send.id != nil || send.idLocation != nil ? sendID : nil
        // The session's information is read in place, not copied: most sends name no type.
        var processor: SCXMLProcessorEntry?
        if let type, !SCXMLSend.scxmlProcessorTypes.contains(type) {
            processor = scope.context.info.processor(named: type)
        }
        if let type, !SCXMLSend.scxmlProcessorTypes.contains(type), processor == nil {
            let available = scope.context.info.eventProcessors.compactMap(\.types.first)
            let others = available.isEmpty ? "" : " or \(available.joined(separator: ", "))"
            throw SCXMLEvaluationError(
                "the event I/O processor '\(type)' is not available in this session; it has SCXML's\(others)",
                at: location, sendID: eventSendID)
        }
        var delay = send.delay ?? .zero
        if let expression = send.delayExpression {
            let text = try value(expression, in: &scope).description
            guard let parsed = SCXMLTime.duration(text) else {
                throw SCXMLEvaluationError(
                    "the delay '\(text)' is not a time such as '1s' or '200ms'", at: expression.location)
            }
            delay = parsed
        }
        if let processor, let type {
            try sendThrough(
                processor, type: type, send, name: name, target: target, delay: delay, sendID: sendID,
                eventSendID: eventSendID, at: location, in: &scope)
            return
        }
        let data = try eventData(send, at: location, in: &scope)
        guard let name else {
            throw SCXMLEvaluationError("the <send> has no event name", at: location)
        }
        let ownTarget = scope.context.info.scxmlLocation
        var event = SCXMLEvent(
            name, data: data, type: .external, sendID: eventSendID, origin: ownTarget, originType: scxmlProcessor)
        switch target {
        case nil, "", ownTarget?:
            if delay > .zero {
                // A timer of the machine: archived with it, cancelled by <cancel>.
                try checkPendingTimers(name, at: location, sendID: eventSendID, in: scope)
                scope.send(event, after: delay, id: sendID)
            } else {
                // Through the session, which keeps one external queue for every sender.
                scope.send(
                    OutgoingEvent(event, target: ownTarget, type: scxmlProcessor, id: sendID, location: location))
            }
        case "#_internal":
            if delay > .zero {
                throw SCXMLEvaluationError(
                    "a <send> to '#_internal' cannot be delayed", at: location, sendID: eventSendID)
            }
            event.type = .internal
            scope.raise(event)
        case let other?:
            guard other.hasPrefix("#_") else {
                throw SCXMLEvaluationError(
                    "the target '\(other)' is not one the SCXML event I/O processor accepts (#_internal, #_scxml_SESSION, #_parent, #_INVOKEID)",
                    at: location, sendID: sendID)
            }
            guard let session = scope.context.reachableSession(other) else {
                // A valid form, but no session to reach.
                raiseCommunicationError(
                    "no session that this one can reach is '\(other)'", at: location, sendID: sendID, in: &scope)
                return
            }
            if let parent = scope.context.parent, session == parent.sessionID { event.invokeID = parent.invokeID }
            scope.send(
                OutgoingEvent(
                    event, target: "#_scxml_\(session)", type: scxmlProcessor, delay: delay, id: sendID,
                    location: location))
        }
    }

    /// Raises `error.communication` for a `<send>` that cannot reach its target, with the
    /// element, its position and `reason` as the event's data.
    static func raiseCommunicationError(
        _ reason: String, at location: SourcePosition, sendID: String, in scope: inout SCXMLScope
    ) {
        scope.raise(
            SCXMLEvent(
                "error.communication", data: SCXMLErrorData.value(element: "send", at: location, reason: reason),
                type: .platform, sendID: sendID))
    }

    /// A `<send>` through an event I/O processor of the session other than SCXML's (its Basic HTTP
    /// one): the event leaves the machine for the session, which hands it to the processor. An
    /// event without a name is named by the receiver (`HTTP.POST`); inline content or `expr`
    /// content travels as the event's `raw` text.
    static func sendThrough(
        _ processor: SCXMLProcessorEntry, type: String, _ send: SCXMLSend, name: String?, target: String?,
        delay: Duration, sendID: String, eventSendID: String?, at location: SourcePosition, in scope: inout SCXMLScope
    ) throws {
        guard let target, !target.isEmpty else {
            raiseCommunicationError(
                "a <send> of type '\(type)' needs a target", at: location, sendID: sendID, in: &scope)
            return
        }
        let data: SCXMLValue?
        var raw: String?
        if let content = send.content {
            let value: SCXMLValue
            if let expression = content.expression {
                value = try self.value(expression, in: &scope)
            } else {
                value = .string(content.inline?.string ?? "")
            }
            raw = value.description
            data = value
        } else {
            data = try eventData(send, at: location, in: &scope)
        }
        let event = SCXMLEvent(
            name ?? "", data: data, type: .external, sendID: eventSendID, origin: processor.location,
            originType: processor.types.first, raw: raw)
        scope.send(OutgoingEvent(event, target: target, type: type, delay: delay, id: sendID, location: location))
    }

    static func eventData(
        _ send: SCXMLSend, at location: SourcePosition, in scope: inout SCXMLScope
    ) throws -> SCXMLValue? {
        if let content = send.content {
            if let expression = content.expression { return try value(expression, in: &scope) }
            guard let inline = content.inline else { return nil }
            return try withModel(&scope) { model, _ in try model.value(of: inline, at: content.location) }
        }
        guard !send.namelist.isEmpty || !send.params.isEmpty else { return nil }
        return try withModel(&scope) { model, isActive in
            var values: [String: SCXMLValue] = [:]
            for name in send.namelist {
                values[name] = try model.load(name, at: location)
            }
            for param in send.params {
                values[param.name] = try paramValue(param, model: &model, isActive: isActive)
            }
            return .object(values)
        }
    }
}

extension SCXMLExecutor {
    // MARK: - Invoke

    /// The values of `type` that name an SCXML session.
    static let scxmlInvokeTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml", "scxml",
    ]

    /// Starts an `<invoke>` (SCXML's `invoke()`), at the end of the step that entered its state:
    /// evaluates its attributes and parameters in this session, records the invocation as running
    /// and returns what the child needs, which leaves the machine as the invocation's description
    /// for ``SCXMLSession`` to start it. A failure raises `error.execution` and the child does not
    /// start.
    static func startInvocation(
        _ invoke: SCXMLInvoke, state: String, id: InvocationID, in scope: inout SCXMLScope
    ) throws -> SCXMLInvocation {
        do {
            return try describeInvocation(invoke, state: state, id: id, in: &scope)
        } catch var error as SCXMLEvaluationError {
            if error.element == nil { error.element = "invoke" }
            throw error
        } catch {
            throw SCXMLEvaluationError("\(error)", at: invoke.location, element: "invoke")
        }
    }

    private static func describeInvocation(
        _ invoke: SCXMLInvoke, state: String, id: InvocationID, in scope: inout SCXMLScope
    ) throws -> SCXMLInvocation {
        let type = try invoke.type ?? invoke.typeExpression.map { try value($0, in: &scope).description }
        var invokerType: String?
        if let type, !scxmlInvokeTypes.contains(type) {
            guard scope.context.info.invokerTypes.contains(type) else {
                throw SCXMLEvaluationError(
                    "the invoke type '\(type)' is not supported; the session runs SCXML documents and the types it has invokers for",
                    at: invoke.location)
            }
            invokerType = type
        }
        scope.context.invocationCounter += 1
        let number = scope.context.invocationCounter
        let invokeID = invoke.id ?? "\(state).\(scope.context.info.id).\(number)"
        if let idLocation = invoke.idLocation {
            try withModel(&scope) { model, _ in
                try model.store(.string(invokeID), in: idLocation.text, at: idLocation.location)
            }
        }
        let source: SCXMLInvocationSource
        if let content = invoke.content {
            if let expression = content.expression {
                source = .text(try value(expression, in: &scope).description)
            } else {
                source = .text(content.inline?.string ?? "")
            }
        } else if let file = try invoke.source ?? invoke.sourceExpression.map({ try value($0, in: &scope).description })
        {
            source = .file(file)
        } else if invokerType != nil {
            // Swift work needs no document.
            source = .text("")
        } else {
            throw SCXMLEvaluationError("the <invoke> has neither 'src', 'srcexpr' nor <content>", at: invoke.location)
        }
        let parameters = try withModel(&scope) { model, isActive in
            var values: [String: SCXMLValue] = [:]
            for name in invoke.namelist { values[name] = try model.load(name, at: invoke.location) }
            for param in invoke.params { values[param.name] = try paramValue(param, model: &model, isActive: isActive) }
            return values
        }
        let invocation = SCXMLInvocation(
            id: id, invokeID: invokeID, state: state, childSessionID: "\(scope.context.info.id).\(number)",
            autoforward: invoke.autoforward, source: source, parameters: parameters, location: invoke.location,
            invokerType: invokerType)
        scope.context.invocations.append(invocation)
        return invocation
    }

    /// Before an external event: runs the `<finalize>` of the invocation that sent it, and
    /// forwards the event to the child when the invocation has `autoforward`.
    static func beforeExternalEvent(
        _ finalize: [SCXMLAction], id: InvocationID, in scope: inout SCXMLScope
    ) throws {
        guard let invocation = scope.context.invocations.first(where: { $0.id == id }), let event = scope.event else {
            return
        }
        if invocation.autoforward {
            scope.send(
                OutgoingEvent(
                    event, target: "#_scxml_\(invocation.childSessionID)", type: scxmlProcessor,
                    location: invocation.location))
        }
        if event.invokeID == invocation.invokeID { try run(finalize, in: &scope) }
    }
}
