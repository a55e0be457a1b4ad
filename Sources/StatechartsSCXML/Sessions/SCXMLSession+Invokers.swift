import Statecharts

extension SCXMLSession {
    /// A Swift invocation running: its task, and where its events go.
    struct RunningWork: Sendable {
        var task: Task<Void, Never>
        /// The session that invoked it.
        var parent: String
        /// The invocation, as its `<invoke>` described it.
        var described: SCXMLInvocation
    }

    /// After a restore: starts again, from the beginning, the Swift work of the invocations the
    /// archived sessions were running. An archive holds no task.
    mutating func restartWorks() {
        var sessions = [(sessionID, machine)]
        sessions += host.router.childOrder.compactMap { id in host.router.children[id].map { (id, $0.machine) } }
        for (id, machine) in sessions {
            for invocation in machine.context.invocations where invocation.invokerType != nil {
                guard machine.isRunning(invocation.id), host.router.works[invocation.childSessionID] == nil else {
                    continue
                }
                host.router.startWork(invocation, parent: id)
            }
        }
    }
}

extension SessionEffectRouter {
    /// Starts the Swift work of an invocation in a task of its own. A type the session has no
    /// invoker for, or one past the limit of sessions, reports `error.execution` to the parent.
    mutating func startWork(_ invocation: SCXMLInvocation, parent: String) {
        guard let type = invocation.invokerType, let invoker = options.invokers[type] else {
            fail(invocation, parent: parent, reason: "the session has no invoker for '\(invocation.invokerType ?? "")'")
            return
        }
        if let violation = invocationLimit(for: invocation, parent: parent) {
            problems.append(SCXMLDiagnostic(.error, violation.summary, at: invocation.location, kind: .document))
            fail(invocation, parent: parent, reason: "\(violation)")
            return
        }
        let workID = invocation.childSessionID
        let inbox = inbox
        let request = invocation.request(sessionID: parent) { event in inbox.post(.event(event), from: workID) }
        let task = Task {
            do {
                let result = try await invoker.work(request)
                inbox.post(.done(result), from: workID)
            } catch {
                inbox.post(.failed("\(error)"), from: workID)
            }
        }
        works[workID] = SCXMLSession.RunningWork(task: task, parent: parent, described: invocation)
    }

    /// Cancels a Swift invocation: nothing it sends or returns from now on is delivered.
    mutating func stopWork(_ id: String) {
        works.removeValue(forKey: id)?.task.cancel()
    }

    /// Reports to `parent` that an invocation could not run: `error.execution` there.
    mutating func fail(_ invocation: SCXMLInvocation, parent: String, reason: String) {
        let failure = ExecutionFailure(
            .invoke, state: invocation.state, location: invocation.location, reason: reason,
            error: SCXMLEvaluationError(reason, at: invocation.location, element: "invoke"))
        pending.append(.input(.outcome(.failure(failure), invocation: invocation.id), session: parent))
    }

    /// Puts what a Swift invocation brought where it belongs: its events, in order, to the session
    /// that invoked it, `done.invoke.ID` when it returned, `error.execution` when it threw. What a
    /// cancelled invocation brings is dropped.
    mutating func accept(_ arrival: InvokerInbox.Arrival, from workID: String) {
        guard let work = works[workID] else { return }
        switch arrival {
        case .event(let event):
            pending.append(.input(.event(work.described.eventFromWork(event)), session: work.parent))
        case .done(let data):
            works[workID] = nil
            pending.append(.input(.event(work.described.doneEvent(data: data)), session: work.parent))
        case .failed(let reason):
            works[workID] = nil
            let invocation = work.described
            let message = "the invoked work '\(invocation.invokeID)' failed: \(reason)"
            let failure = ExecutionFailure(
                .invoke, state: invocation.state, location: invocation.location, reason: message,
                error: SCXMLEvaluationError(message, at: invocation.location, element: "invoke"))
            pending.append(.input(.outcome(.failure(failure), invocation: invocation.id), session: work.parent))
        }
    }
}
