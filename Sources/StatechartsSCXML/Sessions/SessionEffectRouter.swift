import Statecharts

/// Where the effects of one of a session's machines go: into the session that runs them all.
///
/// An `<invoke>` starts a child session or a Swift invoker's work; exiting its state removes
/// either; a `<send>` is routed by the session (to a session of this process, now or later, or
/// through an event I/O processor); `<cancel>` withdraws the source's delayed sends; `<log>`
/// records are collected in the step and given to ``SCXMLSession/Options/log``.
///
/// Holds the session by pointer for the length of one ``SCXMLSession/collect(from:)``, which
/// makes it and routes that machine's effects through it, and touches the session only through it.
struct SessionEffectRouter: EffectRouter {
    typealias State = String
    typealias Event = SCXMLEvent
    typealias Context = SCXMLContext

    /// The session, for the length of the routing.
    let session: UnsafeMutablePointer<SCXMLSession>
    /// The session identifier of the machine whose effects these are.
    let source: String

    mutating func startInvocation(_ start: InvocationStart<String, SCXMLEvent, SCXMLContext>) {
        guard let invocation = start.descriptor as? SCXMLInvocation else {
            let failure = ExecutionFailure(
                .invoke, state: start.state, location: start.location,
                reason: "an SCXML session starts <invoke> of SCXML documents only")
            session.pointee.pending.append(.input(.outcome(.failure(failure), invocation: start.id), session: source))
            return
        }
        if invocation.invokerType != nil {
            session.pointee.startWork(invocation, parent: source)
        } else {
            session.pointee.startChild(invocation, parent: source)
        }
    }

    mutating func cancelInvocation(_ invocation: InvocationID) {
        let source = source
        if let child = session.pointee.children.first(where: {
            $0.value.parent == source && $0.value.invocation == invocation
        })?.key {
            session.pointee.remove(child)
        }
        if let work = session.pointee.works.first(where: {
            $0.value.parent == source && $0.value.described.id == invocation
        })?.key {
            session.pointee.stopWork(work)
        }
    }

    mutating func send(_ outgoing: OutgoingEvent<SCXMLEvent>) -> SendRouting {
        // The session routes every send itself, and reports what nobody takes into its own queue.
        session.pointee.route(outgoing, from: source)
        return .delivered
    }

    mutating func cancelSend(id: String) {
        let source = source
        session.pointee.delayed.removeAll { $0.source == source && $0.sendID == id }
    }

    mutating func log(_ record: MachineLog) {
        let log = SCXMLLogRecord(
            sessionID: source, label: record.label, message: record.message, location: record.location)
        session.pointee.step.logs.append(log)
        session.pointee.options.log?(log)
    }
}
