import Foundation
import Statecharts

extension SCXMLSession {
    /// An invoked session.
    struct Child: Sendable {
        var machine: Machine
        var chart: SCXMLChart
        /// The session that invoked it.
        var parent: String
        /// The parent machine's identifier of the invocation.
        var invocation: InvocationID
        /// The `<invoke>`'s identifier in the parent (SCXML's `invokeid`).
        var invokeID: String
        /// The document it runs, as the parent named it.
        var source: SCXMLInvocationSource
        /// The file of the document that invoked it, which a relative `src` is read from.
        var invokingDocument: String
    }

    struct ChartKey: Hashable, Sendable {
        var invokingDocument: String
        var source: SCXMLInvocationSource
    }

    /// What waits to be delivered, in order.
    enum Pending: Sendable {
        /// Something for a session's machine.
        case input(Input, session: String)
        /// The place of an event sent through an event I/O processor to a session of this
        /// process, until the processor reports its arrival.
        case awaiting(ticket: UInt64)
    }

    /// What a session's machine is given from outside its own steps.
    enum Input: Sendable {
        /// An event, from a session of this process or through an event I/O processor.
        case event(SCXMLEvent)
        /// An event the session sent that could not be delivered: it gets `error.communication`.
        case undelivered(OutgoingEvent<SCXMLEvent>, reason: String)
        /// The outcome of an invocation that could not start.
        case outcome(InvocationOutcome<SCXMLEvent>, invocation: InvocationID)

        /// Gives it to `machine`; whether a transition handled it.
        func give(to machine: inout Machine) throws(MachineError<String, SCXMLEvent>) -> Bool {
            switch self {
            case .event(let event): try machine.send(event)
            case .undelivered(let outgoing, let reason): try machine.reportUndelivered(outgoing, reason: reason)
            case .outcome(let outcome, let invocation): try machine.deliver(outcome, from: invocation)
            }
        }

        /// Gives it to `machine`, telling `recorder` what happens; whether a transition handled it.
        func give(
            to machine: inout Machine, recorder: inout MachineRecorder<String, SCXMLEvent>
        ) throws(MachineError<String, SCXMLEvent>) -> Bool {
            switch self {
            case .event(let event): try machine.send(event, observer: &recorder)
            case .undelivered(let outgoing, let reason):
                try machine.reportUndelivered(outgoing, reason: reason, observer: &recorder)
            case .outcome(let outcome, let invocation):
                try machine.deliver(outcome, from: invocation, observer: &recorder)
            }
        }
    }

    /// An event sent with a delay, to another session or through an event I/O processor.
    struct DelayedDelivery: Sendable, Hashable, Codable {
        var deadline: Duration
        var sequence: Int
        /// The sending session.
        var source: String
        var event: SCXMLEvent
        var target: String
        var type: String?
        var sendID: String?
        var location: SourcePosition?

        var outgoing: OutgoingEvent<SCXMLEvent> {
            OutgoingEvent(event, target: target, type: type, id: sendID, location: location)
        }
    }

    /// A send under way at an event I/O processor.
    struct InFlightSend: Sendable {
        var outgoing: OutgoingEvent<SCXMLEvent>
        /// The sending session.
        var source: String
    }

    // MARK: - The loop

    /// Takes what session `id` asked for and delivers everything that follows.
    mutating func settle(after id: String) throws(MachineError<String, SCXMLEvent>) {
        collect(from: id)
        try pump()
    }

    /// Delivers pending events until none can be, then fires the timers due now of sessions that
    /// paused for their effects, and again, until nothing is left to do at this instant.
    mutating func pump() throws(MachineError<String, SCXMLEvent>) {
        while true {
            try drain()
            guard try fireDueTimers() else { return }
        }
    }

    /// Delivers pending events in order; stops at the place of an event still on its way.
    mutating func drain() throws(MachineError<String, SCXMLEvent>) {
        while pendingHead < pending.count {
            if case .awaiting = pending[pendingHead] { return }
            let item = pending[pendingHead]
            pendingHead += 1
            if pendingHead == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
            }
            if case .input(let input, let session) = item { _ = try give(input, to: session) }
        }
    }

    /// Fires, for the top session and then each child in the order they started, the timers due
    /// now that a machine paused before. Returns whether any session had one.
    mutating func fireDueTimers() throws(MachineError<String, SCXMLEvent>) -> Bool {
        if machine.status == .running, let deadline = machine.nextDeadline, deadline <= now {
            try countCascadeStep()
            try advanceTop(to: now)
            collect(from: sessionID)
            return true
        }
        for id in childOrder {
            guard let child = children[id], child.machine.status == .running,
                let deadline = child.machine.nextDeadline, deadline <= now
            else { continue }
            try countCascadeStep()
            let instant = now
            runChild(id) { machine throws(MachineError<String, SCXMLEvent>) in try machine.advance(to: instant) }
            collect(from: id)
            return true
        }
        return false
    }

    /// Moves the delayed events due now to the pending ones, in order.
    mutating func releaseDelayedDeliveries() {
        while let first = delayed.popFirst(dueAt: now) {
            dispatch(first.outgoing, from: first.source)
        }
    }

    // MARK: - Delivering

    /// Gives a session's machine what came for it and does what that asked for; whether a
    /// transition handled it. A session that is not running takes nothing.
    mutating func give(_ input: Input, to id: String) throws(MachineError<String, SCXMLEvent>) -> Bool {
        try countCascadeStep()
        var handled = false
        if id == sessionID {
            guard machine.status == .running else { return false }
            handled =
                options.recordsMicrosteps
                ? try input.give(to: &machine, recorder: &recorder) : try input.give(to: &machine)
        } else {
            guard children[id]?.machine.status == .running else { return false }
            runChild(id) { machine throws(MachineError<String, SCXMLEvent>) in _ = try input.give(to: &machine) }
        }
        collect(from: id)
        return handled
    }

    /// Counts one delivery or timer firing of the current cascade, and throws past the limit
    /// (`SCXMLLimits.microsteps`), as a machine does when one event's steps do not end; the public
    /// call then abandons the cascade. Throws too when a session went past a limit that ends it.
    mutating func countCascadeStep() throws(MachineError<String, SCXMLEvent>) {
        if let violation = SCXMLCascade.current?.violation { throw .limitExceeded(violation) }
        cascade += 1
        let limit = options.limits.microsteps
        guard cascade > limit else { return }
        throw .microstepLimitExceeded(limit: limit, configuration: machine.activeStates)
    }

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

    // MARK: - Effects

    /// Does what session `id` asked for: starts and cancels children, routes its events, collects
    /// its logs; reports it to its parent when it has finished.
    mutating func collect(from id: String) {
        let effects: [MachineEffect<String, SCXMLEvent, SCXMLContext>]
        if id == sessionID {
            effects = machine.takeEffects()
        } else {
            var taken: [MachineEffect<String, SCXMLEvent, SCXMLContext>] = []
            updateChild(id) { taken = $0.takeEffects() }
            effects = taken
        }
        withUnsafeMutablePointer(to: &self) { session in
            var router = SessionEffectRouter(session: session, source: id)
            for effect in effects { router.route(effect) }
        }
        if id == sessionID {
            if machine.status == .finished { close() }
        } else if let child = children[id], child.machine.status == .finished {
            let done = SCXMLEvent(
                "done.invoke.\(child.invokeID)", data: child.machine.result as? SCXMLValue, type: .external,
                origin: "#_scxml_\(id)", originType: SCXMLExecutor.scxmlProcessor, invokeID: child.invokeID)
            enqueue(done, to: child.parent, from: id)
            remove(id)
        }
    }

    /// Sends an event where its target says: to a session of this process, later if delayed, or
    /// through an event I/O processor.
    mutating func route(_ outgoing: OutgoingEvent<SCXMLEvent>, from source: String) {
        if outgoing.delay > .zero {
            guard delayed.count < options.limits.pendingTimers else {
                let violation = options.limits.violation(
                    .pendingTimers, element: "send", location: outgoing.location, session: source,
                    detail:
                        "the event '\(outgoing.event.name)' cannot wait: \(delayed.count) delayed events are pending")
                problems.append(
                    SCXMLDiagnostic(
                        .error, violation.summary, at: outgoing.location ?? chart.document.location, kind: .document))
                pending.append(.input(.undelivered(outgoing, reason: "\(violation)"), session: source))
                return
            }
            sequence += 1
            let item = DelayedDelivery(
                deadline: now + outgoing.delay, sequence: sequence, source: source, event: outgoing.event,
                target: outgoing.target, type: outgoing.type, sendID: outgoing.id, location: outgoing.location)
            delayed.insert(item)
            return
        }
        dispatch(outgoing, from: source)
    }

    /// Sends an event now.
    mutating func dispatch(_ outgoing: OutgoingEvent<SCXMLEvent>, from source: String) {
        if outgoing.type.map(SCXMLSend.scxmlProcessorTypes.contains) ?? true {
            guard outgoing.target.hasPrefix("#_scxml_") else {
                let reason = "the SCXML event I/O processor has no target '\(outgoing.target)'"
                pending.append(.input(.undelivered(outgoing, reason: reason), session: source))
                return
            }
            enqueue(outgoing.event, to: String(outgoing.target.dropFirst("#_scxml_".count)), from: source)
            return
        }
        guard let type = outgoing.type,
            let processor = options.eventProcessors.first(where: { $0.types.contains(type) })
        else {
            let reason = "the session has no event I/O processor '\(outgoing.type ?? "")'"
            pending.append(.input(.undelivered(outgoing, reason: reason), session: source))
            return
        }
        let ticket = nextTicket
        nextTicket += 1
        inFlight[ticket] = InFlightSend(outgoing: outgoing, source: source)
        if processor.send(outgoing.event, to: outgoing.target, from: source, ticket: ticket) {
            pending.append(.awaiting(ticket: ticket))
        }
    }

    /// Queues an event for a session of this process, unless it comes from a child whose
    /// invocation has ended (its state was exited): nothing a cancelled child sent is processed.
    mutating func enqueue(_ event: SCXMLEvent, to target: String, from source: String) {
        if let child = children[source], child.parent == target {
            let stillInvoked =
                target == sessionID
                ? machine.isRunning(child.invocation) : children[target]?.machine.isRunning(child.invocation) == true
            guard stillInvoked else { return }
        }
        pending.append(.input(.event(event), session: target))
    }

    // MARK: - Children

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
        children[invocation.childSessionID] = Child(
            machine: child, chart: childChart, parent: parent, invocation: invocation.id, invokeID: invocation.invokeID,
            source: invocation.source, invokingDocument: invoking.document.location.file)
        childOrder.append(invocation.childSessionID)
        runChild(invocation.childSessionID) { machine throws(MachineError<String, SCXMLEvent>) in try machine.start() }
        collect(from: invocation.childSessionID)
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
        let key = ChartKey(invokingDocument: documentFile, source: source)
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
