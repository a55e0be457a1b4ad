import Foundation
import Statecharts

extension SessionEffectRouter {
    /// Changes a child's machine in place: one lookup, and no copy of the machine.
    mutating func updateChild(_ id: String, _ body: (inout Machine) -> Void) {
        guard let index = children.index(forKey: id) else { return }
        body(&children.values[index].machine)
    }

    /// Runs a child's machine; what it throws is a problem of the session (a child's failure does
    /// not stop its parent).
    mutating func runChild(
        _ id: String, _ body: (inout Machine) throws(MachineError<String, SCXMLEvent>) -> Void
    ) {
        guard let index = children.index(forKey: id) else { return }
        do {
            try body(&children.values[index].machine)
        } catch {
            problems.append(
                SCXMLDiagnostic(
                    .error, "the invoked session \(id) failed: \(error)",
                    at: children.values[index].chart.document.location, kind: .document))
        }
    }

    /// Routes what child session `id` asked for, as the host routes the top machine's effects:
    /// starts and cancels its children, routes its events, collects its logs; reports it to its
    /// parent when it has finished.
    mutating func collectChild(_ id: String) {
        var effects: [MachineEffect<String, SCXMLEvent, SCXMLContext>] = []
        updateChild(id) { effects = $0.takeEffects() }
        let routing = source
        source = id
        for effect in effects { route(effect) }
        source = routing
        guard let child = children[id], child.machine.status == .finished else { return }
        let done = SCXMLEvent(
            "done.invoke.\(child.invokeID)", data: child.machine.result as? SCXMLValue, type: .external,
            origin: "#_scxml_\(id)", originType: SCXMLExecutor.scxmlProcessor, invokeID: child.invokeID)
        enqueue(done, to: child.parent, from: id)
        remove(id)
    }

    /// Starts the child session of an invocation. A document that cannot be read or built reports
    /// `error.execution` to the parent, with the document's first problem, and no child starts.
    mutating func startChild(_ invocation: SCXMLInvocation, parent: String) {
        let invoking = children[parent]?.chart ?? chart
        if let violation = invocationLimit(for: invocation, parent: parent) {
            problems.append(SCXMLDiagnostic(.error, violation.summary, at: invocation.location, kind: .document))
            let failure = ExecutionFailure(
                .invoke, state: invocation.state, location: invocation.location, reason: "\(violation)",
                error: SCXMLEvaluationError("\(violation)", at: invocation.location, element: "invoke"))
            pending.append(.input(.outcome(.failure(failure), invocation: invocation.id), session: parent))
            return
        }
        let childChart: SCXMLChart
        do {
            childChart = try self.chart(for: invocation.source, invokedFrom: invoking, at: invocation.location)
        } catch {
            problems += error.errors
            let reason = error.errors.first.map { "the invoked document cannot be run: \($0)" } ?? "\(error)"
            let failure = ExecutionFailure(
                .invoke, state: invocation.state, location: invocation.location, reason: reason,
                error: SCXMLEvaluationError(reason, at: invocation.location, element: "invoke"))
            pending.append(.input(.outcome(.failure(failure), invocation: invocation.id), session: parent))
            return
        }
        let info = info(id: invocation.childSessionID, name: childChart.document.name)
        var context = SCXMLContext(model: childChart.dataModel.init(session: info), info: info)
        context.parent = SCXMLParentLink(sessionID: parent, invokeID: invocation.invokeID)
        context.parameters = invocation.parameters
        var child = childChart.statechart.makeMachine(context: context)
        configure(&child)
        try? child.advance(to: now)
        children[invocation.childSessionID] = SCXMLSession.Child(
            machine: child, chart: childChart, parent: parent, invocation: invocation.id, invokeID: invocation.invokeID,
            source: invocation.source, invokingDocument: invoking.document.location.file)
        childOrder.append(invocation.childSessionID)
        runChild(invocation.childSessionID) { machine throws(MachineError<String, SCXMLEvent>) in try machine.start() }
        collectChild(invocation.childSessionID)
    }

    /// The limit an invocation would go past: the depth of invocations or the number of sessions.
    func invocationLimit(for invocation: SCXMLInvocation, parent: String) -> LimitViolation? {
        var depth = 1
        var ancestor = parent
        while let next = children[ancestor]?.parent {
            depth += 1
            ancestor = next
        }
        if depth > options.limits.invocationDepth {
            return options.limits.violation(
                .invocationDepth, element: "invoke", location: invocation.location, session: parent,
                detail: "the invoked session would be \(depth) levels deep")
        }
        if children.count + works.count + 1 >= options.limits.sessions {
            return options.limits.violation(
                .sessions, element: "invoke", location: invocation.location, session: parent,
                detail: "\(children.count + works.count + 1) sessions and Swift invocations are running")
        }
        return nil
    }

    /// Stops a child session, its own children, and the delayed events they sent.
    mutating func remove(_ id: String) {
        guard children.removeValue(forKey: id) != nil else { return }
        closeAtProcessors(id)
        childOrder.removeAll { $0 == id }
        delayed.removeAll { $0.source == id }
        for work in works.filter({ $0.value.parent == id }).map(\.key) { stopWork(work) }
        for grandchild in children.filter({ $0.value.parent == id }).map(\.key) { remove(grandchild) }
    }

    /// The chart of an invoked document, read once per invoking document and source: a document
    /// that cannot be read or built is not read again either, however often a state that invokes
    /// it is re-entered.
    mutating func chart(
        for source: SCXMLInvocationSource, invokedFrom invoking: SCXMLChart, at location: SourcePosition
    ) throws(SCXMLError) -> SCXMLChart {
        let documentFile = invoking.document.location.file
        let key = SCXMLSession.ChartKey(invokingDocument: documentFile, source: source)
        if let cached = charts[key] { return try cached.get() }
        let loaded = Result { () throws(SCXMLError) -> SCXMLChart in
            try loadChart(for: source, documentFile: documentFile, at: location)
        }
        charts[key] = loaded
        return try loaded.get()
    }

    /// Reads and builds the chart of an invoked document.
    func loadChart(
        for source: SCXMLInvocationSource, documentFile: String, at location: SourcePosition
    ) throws(SCXMLError) -> SCXMLChart {
        switch source {
        case .text(let text):
            return try SCXMLChart.load(text, file: documentFile, dataModels: dataModels)
        case .file(let path):
            var resolver = SourceResolver(documentFile: documentFile, maximumSize: options.limits.documentSize)
            guard let text = resolver.read(path, at: location, severity: .error) else {
                throw SCXMLError(diagnostics: resolver.diagnostics)
            }
            let folder = URL(fileURLWithPath: documentFile).deletingLastPathComponent()
            let file = folder.appendingPathComponent(path.hasPrefix("file:") ? String(path.dropFirst(5)) : path)
            return try SCXMLChart.load(text, file: file.standardizedFileURL.path, dataModels: dataModels)
        }
    }
}
