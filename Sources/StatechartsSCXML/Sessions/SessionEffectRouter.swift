import Foundation
import Statecharts

/// The router of an ``SCXMLSession``'s host: everything of a session but its top machine, and
/// where the effects of every session's machine go.
///
/// The top machine is the host's (`MachineHost<SessionEffectRouter, ManualClock>`), and its effects
/// reach this router as any host's effects reach its router. The router holds what they act on:
/// the sessions the document invoked (each a machine whose effects it routes the same way, under
/// that session's identifier), the external queue every session shares, the events sent with a
/// delay between sessions, the Swift invocations and the sends under way at the event I/O
/// processors. So:
/// - an `<invoke>` starts a child session or a Swift invoker's work; exiting its state removes
///   either;
/// - a `<send>` is routed to a session of this process, now or later, or through an event I/O
///   processor; what nobody takes comes back to its sender as `error.communication`, through the
///   queue, in order with the rest;
/// - `<cancel>` withdraws the source's delayed sends;
/// - `<log>` records are collected in the step and given to ``SCXMLSession/Options/log``.
///
/// What it cannot see is the top machine. The one question it would ask of it, whether an event
/// from a child still comes from a running invocation (nothing a cancelled child sent is
/// processed), it leaves to the session, which answers it right after the routing, before any
/// machine steps again (``unverifiedEvents``).
struct SessionEffectRouter: EffectRouter {
    typealias State = String
    typealias Event = SCXMLEvent
    typealias Context = SCXMLContext
    typealias Machine = SCXMLSession.Machine

    /// The document's chart.
    let chart: SCXMLChart
    /// How the session runs.
    let options: SCXMLSession.Options
    let dataModels: [any SCXMLDataModel.Type]
    /// The top session's identifier.
    let topID: String
    /// The session whose machine's effects are being routed: the top one, but while a child's are.
    var source: String

    /// The invoked sessions now running, by session identifier.
    var children: [String: SCXMLSession.Child] = [:]
    /// Children in the order they started: their timers fire in this order at one instant.
    var childOrder: [String] = []
    /// Events to deliver, in the order they were sent.
    var pending: [SCXMLSession.Pending] = []
    var pendingHead = 0
    /// The places in ``pending`` of events a child sent to the top session during the routing now
    /// under way, with the invocation each came from: the session drops those whose invocation the
    /// top machine no longer runs.
    var unverifiedEvents: [(place: Int, invocation: InvocationID)] = []
    /// Events sent with a delay to another session or through an event I/O processor, by deadline.
    var delayed = DelayedQueue()
    var sequence = 0
    /// The Swift invocations running (``SCXMLSession/Options/invokers``), by the session identifier
    /// each was given.
    var works: [String: SCXMLSession.RunningWork] = [:]
    /// What they bring back.
    let inbox = InvokerInbox()
    /// The sends under way at the event I/O processors, by ticket.
    var inFlight: [UInt64: SCXMLSession.InFlightSend] = [:]
    var nextTicket: UInt64 = 1
    /// Charts of invoked documents, or why they could not be read or built, by the invoking
    /// document and source: the same relative `src` names different files in different folders.
    var charts: [SCXMLSession.ChartKey: Result<SCXMLChart, SCXMLError>] = [:]
    /// What the current call did, returned by it.
    var step = SCXMLStep()
    /// The time of every session, measured from the start.
    var now: Duration = .zero
    /// What went wrong outside the top session (``SCXMLSession/problems``).
    var problems: [SCXMLDiagnostic] = []

    init(chart: SCXMLChart, options: SCXMLSession.Options, dataModels: [any SCXMLDataModel.Type]) {
        self.chart = chart
        self.options = options
        self.dataModels = dataModels
        topID = options.sessionID
        source = options.sessionID
    }

    // MARK: - Effects

    mutating func startInvocation(_ start: InvocationStart<String, SCXMLEvent, SCXMLContext>) {
        guard let invocation = start.descriptor as? SCXMLInvocation else {
            let failure = ExecutionFailure(
                .invoke, state: start.state, location: start.location,
                reason: "an SCXML session starts <invoke> of SCXML documents only")
            pending.append(.input(.outcome(.failure(failure), invocation: start.id), session: source))
            return
        }
        if invocation.invokerType != nil {
            startWork(invocation, parent: source)
        } else {
            startChild(invocation, parent: source)
        }
    }

    mutating func cancelInvocation(_ invocation: InvocationID) {
        let source = source
        if let child = children.first(where: { $0.value.parent == source && $0.value.invocation == invocation })?.key {
            remove(child)
        }
        if let work = works.first(where: { $0.value.parent == source && $0.value.described.id == invocation })?.key {
            stopWork(work)
        }
    }

    mutating func send(_ outgoing: OutgoingEvent<SCXMLEvent>) -> SendRouting {
        // The router routes every send itself, and reports what nobody takes through the queue.
        route(outgoing, from: source)
        return .delivered
    }

    mutating func cancelSend(id: String) {
        let source = source
        delayed.removeAll { $0.source == source && $0.sendID == id }
    }

    mutating func log(_ record: MachineLog) {
        let log = SCXMLLogRecord(
            sessionID: source, label: record.label, message: record.message, location: record.location)
        step.logs.append(log)
        options.log?(log)
    }

    // MARK: - Sends

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
            let item = SCXMLSession.DelayedDelivery(
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
        inFlight[ticket] = SCXMLSession.InFlightSend(outgoing: outgoing, source: source)
        if processor.send(outgoing.event, to: outgoing.target, from: source, ticket: ticket) {
            pending.append(.awaiting(ticket: ticket))
        }
    }

    /// Queues an event for a session of this process, unless it comes from a child whose
    /// invocation has ended (its state was exited): nothing a cancelled child sent is processed.
    /// For an event to the top session, the session answers that right after the routing
    /// (``unverifiedEvents``).
    mutating func enqueue(_ event: SCXMLEvent, to target: String, from source: String) {
        if let child = children[source], child.parent == target {
            if target == topID {
                unverifiedEvents.append((pending.count, child.invocation))
            } else if children[target]?.machine.isRunning(child.invocation) != true {
                return
            }
        }
        pending.append(.input(.event(event), session: target))
    }

    /// Moves the delayed events due now to the pending ones, in order.
    mutating func releaseDelayedDeliveries() {
        while let first = delayed.popFirst(dueAt: now) {
            dispatch(first.outgoing, from: first.source)
        }
    }

    // MARK: - Session options

    /// Applies the options that concern one session's machine.
    func configure(_ machine: inout Machine) {
        machine.pausesAtEffects = true
        machine.microstepLimit = options.limits.microsteps
        machine.prepareDeclaredSends(pendingTimers: options.limits.pendingTimers)
    }

    /// The session information of session `id` of document `name`.
    func info(id: String, name: String?) -> SCXMLSessionInfo {
        SCXMLSessionInfo(
            id: id, name: name, limits: options.limits,
            eventProcessors: SCXMLSession.open(id, at: options.eventProcessors),
            invokerTypes: options.invokers.keys.sorted())
    }

    /// Closes a session at every processor.
    func closeAtProcessors(_ id: String) {
        for processor in options.eventProcessors { processor.close(session: id) }
    }

    /// Ends every session but the top machine, which is not the router's: the Swift invocations,
    /// the children and the delayed events, and every session at the event I/O processors.
    mutating func close() {
        for work in works.values { work.task.cancel() }
        works.removeAll()
        for id in childOrder { closeAtProcessors(id) }
        children.removeAll()
        childOrder.removeAll()
        delayed.removeAll()
        closeAtProcessors(topID)
    }
}
