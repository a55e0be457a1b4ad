import Statecharts

/// Runs SCXML executable content against a machine's ``Scope``.
///
/// An element that fails throws; the machine then raises `error.execution` and skips the rest of
/// the block, as SCXML specifies. A `<send>` to a target that exists in form but cannot be reached
/// raises `error.communication` instead, and the block goes on.
enum SCXMLExecutor {
    typealias SCXMLScope = Scope<String, SCXMLEvent, SCXMLSession>

    static let scxmlProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    // MARK: - Blocks

    static func run(_ actions: [SCXMLAction], in scope: inout SCXMLScope) throws {
        for action in actions { try run(action, in: &scope) }
    }

    static func run(_ action: SCXMLAction, in scope: inout SCXMLScope) throws {
        switch action.kind {
        case .raise(let event):
            scope.raise(SCXMLEvent(event, type: .internal))
        case .send(let send):
            try self.send(send, at: action.location, in: &scope)
        case .cancel(let sendID, let expression):
            if let sendID {
                scope.cancel(id: sendID)
            } else if let expression {
                scope.cancel(id: try value(expression, in: &scope).description)
            }
        case .log(let label, let expression):
            let value = try expression.map { try self.value($0, in: &scope) }
            scope.context.log?(SCXMLLogRecord(label: label, value: value, location: action.location))
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
        try withModel(&scope) { model, isActive in try model.condition(expression, isActive: isActive) }
    }

    /// A condition evaluated by a guard, which cannot change the session.
    static func condition(_ expression: SCXMLExpression, in scope: borrowing SCXMLScope) throws -> Bool {
        var model = scope.context.model
        return try model.condition(expression) { state in scope.isActive(state) }
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
                try withModel(&scope) { model, isActive in try model.initialize(item, isActive: isActive) }
            } catch {
                _ = try? withModel(&scope) { model, _ in try model.declare(item) }
                scope.raise(SCXMLEvent("error.execution", type: .platform))
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
            return .string(content.inline?.string ?? "")
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

    static func send(_ send: SCXMLSend, at location: SourcePosition, in scope: inout SCXMLScope) throws {
        let name = try send.event ?? send.eventExpression.map { try value($0, in: &scope).description }
        let target = try send.target ?? send.targetExpression.map { try value($0, in: &scope).description }
        let type = try send.type ?? send.typeExpression.map { try value($0, in: &scope).description }
        if let type, !SCXMLSend.scxmlProcessorTypes.contains(type) {
            throw SCXMLEvaluationError(
                "the event I/O processor '\(type)' is not supported; only SCXML's is", at: location)
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
        let sendID = send.id ?? scope.context.makeSendID()
        if let idLocation = send.idLocation {
            try withModel(&scope) { model, _ in
                try model.store(.string(sendID), in: idLocation.text, at: idLocation.location)
            }
        }
        let data = try eventData(send, at: location, in: &scope)
        guard let name else {
            throw SCXMLEvaluationError("the <send> has no event name", at: location)
        }
        let ownTarget = "#_scxml_\(scope.context.info.id)"
        switch target {
        case nil, "", ownTarget?:
            let event = SCXMLEvent(
                name, data: data, type: .external, sendID: sendID, origin: ownTarget, originType: scxmlProcessor)
            scope.send(event, after: delay, id: sendID)
        case "#_internal":
            if delay > .zero {
                throw SCXMLEvaluationError("a <send> to '#_internal' cannot be delayed", at: location)
            }
            scope.raise(
                SCXMLEvent(
                    name, data: data, type: .internal, sendID: sendID, origin: ownTarget, originType: scxmlProcessor))
        case let other? where other.hasPrefix("#_"):
            // #_parent, #_scxml_<another session>, #_<invoke id>: a valid form, but no session to reach.
            scope.raise(SCXMLEvent("error.communication", type: .platform, sendID: sendID))
        case let other?:
            throw SCXMLEvaluationError(
                "the target '\(other)' is not one the SCXML event I/O processor accepts (#_internal, #_scxml_SESSION, #_parent, #_INVOKE)",
                at: location)
        }
    }

    static func eventData(
        _ send: SCXMLSend, at location: SourcePosition, in scope: inout SCXMLScope
    ) throws -> SCXMLValue? {
        if let content = send.content {
            if let expression = content.expression { return try value(expression, in: &scope) }
            return content.inline.map { .string($0.string) }
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
