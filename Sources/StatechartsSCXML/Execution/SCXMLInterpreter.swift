import Foundation
import Statecharts

/// Runs an SCXML session together with the sessions it invokes, on one virtual clock: SCXML's
/// `<invoke>` of SCXML documents and its event I/O processor between sessions.
///
/// A bare machine from ``SCXMLChart/makeMachine(sessionID:unhandledEvents:log:scriptTimeLimit:)``
/// runs one session. The interpreter adds what crosses sessions: it starts a child session for
/// each `<invoke>` when its state has been entered (the document comes from `src`, `srcexpr` or
/// `<content>`, with `<param>` and `namelist` values for its `<data>`), delivers the events the
/// sessions send each other (`#_parent`, `#_INVOKEID`, `#_scxml_SESSIONID`, delayed or not),
/// forwards events to children with `autoforward`, sends `done.invoke.ID` when a child finishes,
/// and cancels a child, its timers and its own children when its state is exited. Events from a
/// cancelled child are never processed.
///
/// Sessions run one at a time, each event to completion, in the order the events were sent, so
/// a run is deterministic.
///
/// ```swift
/// let chart = try SCXMLChart.load(contentsOf: url, dataModels: dataModels)
/// var interpreter = SCXMLInterpreter(chart: chart)
/// try interpreter.start()
/// try interpreter.send("go")
/// try interpreter.advance(by: .seconds(1))
/// print(interpreter.machine.activeStates)
/// ```
public struct SCXMLInterpreter: Sendable {
    /// A machine of one session.
    public typealias Machine = StateMachine<String, SCXMLEvent, SCXMLSession>

    /// The session the interpreter was made for.
    public private(set) var machine: Machine
    /// The invoked sessions now running, by session identifier.
    private var children: [String: Child] = [:]
    /// Children in the order they started, so that timers due at the same instant fire in that order.
    private var childOrder: [String] = []
    /// Events to deliver now, in the order they were sent.
    private var pending: [Delivery] = []
    private var pendingHead = 0
    /// Events sent to other sessions with a delay, by deadline.
    private var delayed: [DelayedDelivery] = []
    private var sequence = 0
    /// Charts of invoked documents, by the invoking document and source: the same relative `src`
    /// names different files in different folders.
    private var charts: [ChartKey: SCXMLChart] = [:]
    private let chart: SCXMLChart
    private let dataModels: [any SCXMLDataModel.Type]
    private let log: (@Sendable (SCXMLLogRecord) -> Void)?
    private let scriptTimeLimit: Duration?
    /// The time of every session, measured from the start.
    public private(set) var now: Duration = .zero
    /// Why invoked documents could not be started: each such `<invoke>` raised `error.execution`
    /// in its session, and its document's problems are here, oldest first.
    public private(set) var problems: [SCXMLDiagnostic] = []

    struct Child: Sendable {
        var machine: Machine
        var chart: SCXMLChart
        var parent: String
        var invocation: InvocationID
    }

    struct ChartKey: Hashable, Sendable {
        var invokingDocument: String
        var source: SCXMLInvocationSource
    }

    struct Delivery: Sendable {
        var event: SCXMLEvent
        var target: String
        var source: String
    }

    struct DelayedDelivery: Sendable {
        var deadline: Duration
        var sequence: Int
        var delivery: Delivery
        var sendID: String?
    }

    /// An interpreter for a session of `chart`.
    ///
    /// - Parameters:
    ///   - chart: The document's chart.
    ///   - sessionID: The session identifier (SCXML's `_sessionid`); a new UUID by default.
    ///     Invoked sessions get this identifier with a number after it.
    ///   - unhandledEvents: What the top session does with an event no transition handles.
    ///   - log: Where every session's `<log>` elements write; `nil` to discard them.
    ///   - scriptTimeLimit: How long one script may run in any session; `nil` for no limit.
    ///   - dataModels: The data models invoked documents may use; by default, the chart's own
    ///     and the built-in ones.
    public init(
        chart: SCXMLChart, sessionID: String = UUID().uuidString, unhandledEvents: UnhandledEventPolicy = .ignore,
        log: (@Sendable (SCXMLLogRecord) -> Void)? = nil, scriptTimeLimit: Duration? = .seconds(1),
        dataModels: [any SCXMLDataModel.Type]? = nil
    ) {
        self.chart = chart
        self.log = log
        self.scriptTimeLimit = scriptTimeLimit
        self.dataModels = dataModels ?? (SCXMLDocument.builtInDataModels + [chart.dataModel])
        machine = chart.makeMachine(
            sessionID: sessionID, unhandledEvents: unhandledEvents, log: log, scriptTimeLimit: scriptTimeLimit)
    }

    /// The identifier of the top session.
    public var sessionID: String { machine.context.info.id }

    /// The identifiers of the invoked sessions now running, in the order they started.
    public var childSessionIDs: [String] { childOrder }

    /// The active states of a running invoked session; `nil` when there is none with that identifier.
    public func activeStates(ofSession id: String) -> [String]? { children[id]?.machine.activeStates }

    /// The earliest instant at which a timer of any session falls due.
    public var nextDeadline: Duration? {
        var deadlines = [machine.nextDeadline, delayed.first?.deadline].compactMap { $0 }
        deadlines += children.values.compactMap { $0.machine.nextDeadline }
        return deadlines.min()
    }

    // MARK: - Running

    /// Starts the top session and the sessions it invokes.
    ///
    /// - Throws: What the top machine's `start()` throws.
    public mutating func start() throws(MachineError<String, SCXMLEvent>) {
        try machine.start()
        try settle(after: sessionID)
    }

    /// Sends an external event to the top session and processes everything it causes in every
    /// session.
    ///
    /// - Throws: What the top machine's `send(_:)` throws.
    public mutating func send(_ event: SCXMLEvent) throws(MachineError<String, SCXMLEvent>) {
        try machine.send(event)
        try settle(after: sessionID)
    }

    /// Moves every session's time forward by `duration`, firing timers and delayed events in order.
    ///
    /// - Throws: What the top machine throws while processing them.
    public mutating func advance(by duration: Duration) throws(MachineError<String, SCXMLEvent>) {
        try advance(to: now + duration)
    }

    /// Moves every session's time to `instant`, firing timers and delayed events in order.
    ///
    /// - Throws: What the top machine throws while processing them.
    public mutating func advance(to instant: Duration) throws(MachineError<String, SCXMLEvent>) {
        while let deadline = nextDeadline, deadline <= instant, machine.status == .running {
            now = max(now, deadline)
            try machine.advance(to: now)
            try settle(after: sessionID)
            for id in childOrder {
                _ = try? children[id]?.machine.advance(to: now)
                try settle(after: id)
            }
            while let first = delayed.first, first.deadline <= now {
                delayed.removeFirst()
                if isDeliverable(first.delivery) { pending.append(first.delivery) }
            }
            try drain()
        }
        now = max(now, instant)
        try machine.advance(to: now)
        for id in childOrder { _ = try? children[id]?.machine.advance(to: now) }
    }

    /// Replaces the top machine, for example by one restored from its archive, while no invoked
    /// session runs and no delayed event is on its way between sessions.
    ///
    /// - Returns: Whether the machine was replaced.
    package mutating func replaceMachine(_ transform: (Machine) throws -> Machine) rethrows -> Bool {
        guard children.isEmpty, delayed.isEmpty, pendingHead == pending.count else { return false }
        machine = try transform(machine)
        return true
    }

    // MARK: - Routing

    /// Takes what session `id` asked for (invocations, messages) and delivers everything that follows.
    private mutating func settle(after id: String) throws(MachineError<String, SCXMLEvent>) {
        collect(from: id)
        try drain()
    }

    /// Delivers pending events until there are none.
    private mutating func drain() throws(MachineError<String, SCXMLEvent>) {
        while pendingHead < pending.count {
            let delivery = pending[pendingHead]
            pendingHead += 1
            if pendingHead == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
            }
            if delivery.target == sessionID {
                guard machine.status == .running else { continue }
                try machine.send(delivery.event)
            } else {
                guard children[delivery.target]?.machine.status == .running else { continue }
                _ = try? children[delivery.target]?.machine.send(delivery.event)
            }
            collect(from: delivery.target)
        }
    }

    /// Whether an event may be queued for its target now: one from a child to its parent only
    /// while the parent's invocation of it is running (its state was not exited). An event
    /// queued before that is still processed, as in SCXML's external queue.
    private func isDeliverable(_ delivery: Delivery) -> Bool {
        guard let parent = parentID(of: delivery.source), parent == delivery.target else { return true }
        return session(parent)?.invocations.contains { $0.childSessionID == delivery.source } ?? false
    }

    private func parentID(of id: String) -> String? {
        if id == sessionID { return nil }
        return children[id]?.parent
    }

    private func session(_ id: String) -> SCXMLSession? {
        id == sessionID ? machine.context : children[id]?.machine.context
    }

    private mutating func updateSession<Result>(_ id: String, _ body: (inout Machine) -> Result) -> Result? {
        if id == sessionID { return body(&machine) }
        // Taken out while it changes, so that the machine is not shared and not copied.
        guard var child = children.removeValue(forKey: id) else { return nil }
        defer { children[id] = child }
        return body(&child.machine)
    }

    /// Starts and cancels the children session `id` asked for, queues its messages, and reports
    /// a finished child to its parent.
    private mutating func collect(from id: String) {
        let requests: [InvocationRequest<String, SCXMLEvent, SCXMLSession>] =
            updateSession(id) { $0.takeInvocationRequests() } ?? []
        for request in requests {
            switch request {
            case .start(let start):
                guard let invocation = start.context.invocations.first(where: { $0.id == start.id }) else { continue }
                startChild(invocation, parent: id)
            case .cancel(let invocation):
                if let child = children.first(where: { $0.value.parent == id && $0.value.invocation == invocation })?
                    .key
                {
                    remove(child)
                }
            }
        }
        let messages: [SCXMLMessage] =
            updateSession(id) { machine in
                machine.updateContext { context in
                    defer { context.outbox.removeAll() }
                    return context.outbox
                }
            } ?? []
        for message in messages {
            switch message {
            case .send(let event, let target, let delay, let sendID):
                let delivery = Delivery(event: event, target: target, source: id)
                if delay > .zero {
                    sequence += 1
                    let item = DelayedDelivery(
                        deadline: now + delay, sequence: sequence, delivery: delivery, sendID: sendID)
                    let index = delayed.firstIndex { ($0.deadline, $0.sequence) > (item.deadline, item.sequence) }
                    delayed.insert(item, at: index ?? delayed.endIndex)
                } else if isDeliverable(delivery) {
                    pending.append(delivery)
                }
            case .cancel(let sendID):
                delayed.removeAll { $0.delivery.source == id && $0.sendID == sendID }
            }
        }
        if let child = children[id], child.machine.status == .finished {
            let invokeID = child.machine.context.parent?.invokeID ?? ""
            let done = SCXMLEvent(
                "done.invoke.\(invokeID)", data: child.machine.result as? SCXMLValue, type: .external,
                origin: "#_scxml_\(id)", originType: SCXMLExecutor.scxmlProcessor, invokeID: invokeID)
            let delivery = Delivery(event: done, target: child.parent, source: id)
            if isDeliverable(delivery) { pending.append(delivery) }
            remove(id)
        }
    }

    /// Starts the child session of an invocation. A document that cannot be read or built
    /// reports `error.execution` to the parent, and no child starts.
    private mutating func startChild(_ invocation: SCXMLInvocation, parent: String) {
        let childChart: SCXMLChart
        do {
            childChart = try chart(for: invocation.source, invokedFrom: parent, at: invocation.location)
        } catch {
            problems += error.errors
            let failure = SCXMLEvent("error.execution", type: .platform, invokeID: invocation.invokeID)
            pending.append(Delivery(event: failure, target: parent, source: parent))
            return
        }
        let info = SCXMLSessionInfo(
            id: invocation.childSessionID, name: childChart.document.name, scriptTimeLimit: scriptTimeLimit)
        var session = SCXMLSession(model: childChart.dataModel.init(session: info), info: info, log: log)
        session.parent = SCXMLParentLink(sessionID: parent, invokeID: invocation.invokeID)
        session.parameters = invocation.parameters
        var child = childChart.statechart.makeMachine(context: session)
        try? child.advance(to: now)
        children[invocation.childSessionID] = Child(
            machine: child, chart: childChart, parent: parent, invocation: invocation.id)
        childOrder.append(invocation.childSessionID)
        _ = try? children[invocation.childSessionID]?.machine.start()
        collect(from: invocation.childSessionID)
    }

    /// Stops a child session, its own children, and the delayed events they sent.
    private mutating func remove(_ id: String) {
        guard children.removeValue(forKey: id) != nil else { return }
        childOrder.removeAll { $0 == id }
        delayed.removeAll { $0.delivery.source == id }
        for grandchild in children.filter({ $0.value.parent == id }).map(\.key) { remove(grandchild) }
    }

    /// The chart of an invoked document, read once.
    private mutating func chart(
        for source: SCXMLInvocationSource, invokedFrom parent: String, at location: SourcePosition
    ) throws(SCXMLError) -> SCXMLChart {
        let invoking = children[parent]?.chart ?? chart
        let documentFile = invoking.document.location.file
        let key = ChartKey(invokingDocument: documentFile, source: source)
        if let cached = charts[key] { return cached }
        let loaded: SCXMLChart
        switch source {
        case .text(let text):
            loaded = try SCXMLChart.load(text, file: documentFile, dataModels: dataModels)
        case .file(let path):
            var resolver = SourceResolver(documentFile: documentFile)
            guard let text = resolver.read(path, at: location, severity: .error) else {
                throw SCXMLError(diagnostics: resolver.diagnostics)
            }
            let folder = URL(fileURLWithPath: documentFile).deletingLastPathComponent()
            let file = folder.appendingPathComponent(path.hasPrefix("file:") ? String(path.dropFirst(5)) : path)
            loaded = try SCXMLChart.load(text, file: file.standardizedFileURL.path, dataModels: dataModels)
        }
        charts[key] = loaded
        return loaded
    }
}
