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

        /// Gives it to the machine of `host`, which settles: whether a transition handled it.
        func give(
            to host: inout MachineHost<SessionEffectRouter, ManualClock>
        ) throws(MachineError<String, SCXMLEvent>) -> Bool {
            switch self {
            case .event(let event): return try host.send(event)
            case .undelivered(let outgoing, let reason):
                try host.reportUndelivered(outgoing, reason: reason)
                return false
            case .outcome(let outcome, let invocation): return try host.deliver(outcome, from: invocation)
            }
        }

        /// Gives it to the machine of `host`, which settles, telling `recorder` what happens:
        /// whether a transition handled it.
        func give(
            to host: inout MachineHost<SessionEffectRouter, ManualClock>,
            recorder: inout MachineRecorder<String, SCXMLEvent>
        ) throws(MachineError<String, SCXMLEvent>) -> Bool {
            switch self {
            case .event(let event): return try host.send(event, observer: &recorder)
            case .undelivered(let outgoing, let reason):
                try host.reportUndelivered(outgoing, reason: reason, observer: &recorder)
                return false
            case .outcome(let outcome, let invocation):
                return try host.deliver(outcome, from: invocation, observer: &recorder)
            }
        }

        /// Gives it to a child session's `machine`, whose effects the caller routes.
        func give(to machine: inout Machine) throws(MachineError<String, SCXMLEvent>) {
            switch self {
            case .event(let event): try machine.send(event)
            case .undelivered(let outgoing, let reason): try machine.reportUndelivered(outgoing, reason: reason)
            case .outcome(let outcome, let invocation): try machine.deliver(outcome, from: invocation)
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

    /// Delivers pending events until none can be, then fires the timers due now of sessions that
    /// paused for their effects, and again, until nothing is left to do at this instant.
    ///
    /// Each round asks first, inline, whether anything is pending and whether any timer is due:
    /// a call that sent nothing and armed nothing due returns without calling either.
    @inline(__always)
    mutating func pump() throws(MachineError<String, SCXMLEvent>) {
        while true {
            if host.router.pendingHead < host.router.pending.count { try drain() }
            guard mayHaveTimersDue, try fireDueTimers() else { return }
        }
    }

    /// Whether ``fireDueTimers()`` may find a timer due now: the top machine has one, or there
    /// are children to ask.
    @inline(__always)
    var mayHaveTimersDue: Bool { !host.router.childOrder.isEmpty || topMachineHasTimerDue }

    /// Whether the top machine is running and has a timer due now.
    @inline(__always)
    var topMachineHasTimerDue: Bool { machine.status == .running && machine.hasTimerDue(by: host.router.now) }

    /// Delivers pending events in order; stops at the place of an event still on its way.
    mutating func drain() throws(MachineError<String, SCXMLEvent>) {
        while host.router.pendingHead < host.router.pending.count {
            let item = host.router.pending[host.router.pendingHead]
            if case .awaiting = item { return }
            host.router.pendingHead += 1
            if host.router.pendingHead == host.router.pending.count {
                host.router.pending.removeAll(keepingCapacity: true)
                host.router.pendingHead = 0
            }
            if case .input(let input, let session) = item { _ = try give(input, to: session) }
        }
    }

    /// Fires, for the top session and then each child in the order they started, the timers due
    /// now that a machine paused before. Returns whether any session had one.
    mutating func fireDueTimers() throws(MachineError<String, SCXMLEvent>) -> Bool {
        let now = host.router.now
        if topMachineHasTimerDue {
            try countCascadeStep()
            defer { afterRouting() }
            if options.recordsMicrosteps {
                try host.advance(to: now, observer: &recorder)
            } else {
                try host.advance(to: now)
            }
            return true
        }
        for id in host.router.childOrder {
            guard let child = host.router.children[id], child.machine.status == .running,
                child.machine.hasTimerDue(by: now)
            else { continue }
            try countCascadeStep()
            onChild(id) { machine throws(MachineError<String, SCXMLEvent>) in try machine.advance(to: now) }
            return true
        }
        return false
    }

    // MARK: - Delivering

    /// Gives a session's machine what came for it and does what that asked for; whether a
    /// transition handled it. A session that is not running takes nothing.
    mutating func give(_ input: Input, to id: String) throws(MachineError<String, SCXMLEvent>) -> Bool {
        try countCascadeStep()
        if id == sessionID {
            guard machine.status == .running else { return false }
            defer { afterRouting() }
            return options.recordsMicrosteps
                ? try input.give(to: &host, recorder: &recorder) : try input.give(to: &host)
        }
        guard host.router.children[id]?.machine.status == .running else { return false }
        onChild(id) { machine throws(MachineError<String, SCXMLEvent>) in try input.give(to: &machine) }
        return false
    }

    /// Runs a child session's machine and routes what it asked for, then does what the routing
    /// leaves to the session. What the machine throws is a problem of the session.
    mutating func onChild(_ id: String, _ body: (inout Machine) throws(MachineError<String, SCXMLEvent>) -> Void) {
        host.router.runChild(id, body)
        host.router.collectChild(id)
        afterRouting()
    }

    /// What the router leaves to the session after routing, since it cannot see the top machine:
    /// drops the events children sent to the top session through an invocation the top machine no
    /// longer runs (nothing a cancelled child sent is processed), and closes every session when the
    /// top one has finished.
    ///
    /// Asks inline whether there is anything to do, which after most steps there is not.
    @inline(__always)
    mutating func afterRouting() {
        if !host.router.unverifiedEvents.isEmpty || machine.status == .finished { verifyRouting() }
    }

    /// ``afterRouting()``'s work, out of line.
    @inline(never)
    mutating func verifyRouting() {
        if !host.router.unverifiedEvents.isEmpty {
            for (place, invocation) in host.router.unverifiedEvents.reversed() where !machine.isRunning(invocation) {
                host.router.pending.remove(at: place)
            }
            host.router.unverifiedEvents.removeAll()
        }
        if machine.status == .finished { host.router.close() }
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
}
