import Foundation
import Statecharts

extension SCXMLSession {
    /// Whether events are on their way through the event I/O processors or from Swift invocations:
    /// sends under way, events that arrived and wait to be received, an event whose place among
    /// the pending ones waits for its arrival, or Swift work running (``Options/invokers``).
    /// ``settle(upTo:)`` waits for them.
    public var isAwaitingEvents: Bool {
        hasAwaitedPlaces || !host.router.works.isEmpty || host.router.inbox.hasArrivals
            || options.eventProcessors.contains { $0.isBusy }
    }

    var hasAwaitedPlaces: Bool {
        host.router.pending[host.router.pendingHead...].contains {
            if case .awaiting = $0 { return true } else { return false }
        }
    }

    /// Waits until an event I/O processor has something for the session, or none has anything
    /// under way, or `timeout` has passed; then ``receiveEvents()`` takes it.
    public func waitForEventProcessors(upTo timeout: Duration) async {
        let start = ContinuousClock.now
        let inbox = host.router.inbox
        if !host.router.works.isEmpty && !inbox.hasArrivals {
            await inbox.waitForArrivals(
                upTo: options.eventProcessors.contains { $0.isBusy } ? .milliseconds(1) : timeout)
        }
        for processor in options.eventProcessors where processor.isBusy {
            let left = timeout - (ContinuousClock.now - start)
            guard left > .zero else { return }
            await processor.waitForArrivals(upTo: left)
        }
    }

    /// Takes what the event I/O processors brought (events that arrived, sends that failed) and
    /// processes it to completion, in order: an event sent to a session of this process takes the
    /// place it was sent in.
    ///
    /// Each arrival is a cascade of its own, with the limits of ``SCXMLLimits`` whole (script time,
    /// microsteps): events from outside are untrusted, and a neighbour that floods the session
    /// with them spends the budget of each event, not one budget that all share, which would end
    /// the session for everyone once spent. The processor bounds how many may wait
    /// (`maximumWaitingArrivals`), and refuses more.
    ///
    /// - Throws: What the top machine throws while processing; the arrivals after the one that
    ///   threw are kept, in order, for the next call.
    @discardableResult
    public mutating func receiveEvents() throws(MachineError<String, SCXMLEvent>) -> SCXMLStep {
        var arrivals: [Arrival] = host.router.inbox.take().map { .work($0.arrival, from: $0.work) }
        for processor in options.eventProcessors { arrivals += processor.takeArrivals().map { .processor($0) } }
        guard !arrivals.isEmpty else {
            return try runCascade { session throws(MachineError<String, SCXMLEvent>) in try session.pump() }
        }
        var result = SCXMLStep()
        for (position, arrival) in arrivals.enumerated() {
            do {
                result.merge(
                    try runCascade { session throws(MachineError<String, SCXMLEvent>) in
                        session.host.router.accept(arrival)
                        try session.pump()
                    })
            } catch {
                for later in arrivals[(position + 1)...] { host.router.accept(later) }
                throw error
            }
        }
        return result
    }

    /// What ``receiveEvents()`` takes: from an event I/O processor or a Swift invocation.
    enum Arrival {
        case processor(SCXMLArrival)
        case work(InvokerInbox.Arrival, from: String)
    }

    /// Waits for the events on their way through the event I/O processors and processes them, until
    /// none is on its way or `limit` has passed; an event sent to a session of this process that has
    /// not arrived by then is given up (and reported in ``problems``), so that the events after it
    /// are delivered.
    ///
    /// Call it after each call that may have sent events through a processor, before moving time
    /// on: a document's timers run on the virtual clock, which does not wait for the network.
    ///
    /// - Returns: What the events that arrived did.
    /// - Throws: What the top machine throws while processing.
    @discardableResult
    public mutating func settle(
        upTo limit: Duration = .seconds(5)
    ) async throws(MachineError<String, SCXMLEvent>)
        -> SCXMLStep
    {
        var result = SCXMLStep()
        let start = ContinuousClock.now
        while isAwaitingEvents {
            let left = limit - (ContinuousClock.now - start)
            guard left > .zero else { break }
            await waitForEventProcessors(upTo: left)
            result.merge(try receiveEvents())
        }
        if hasAwaitedPlaces {
            result.merge(
                try runCascade { session throws(MachineError<String, SCXMLEvent>) in
                    session.host.router.giveUpAwaitedPlaces(after: limit)
                    try session.pump()
                })
        }
        return result
    }
}

extension SessionEffectRouter {
    /// Puts what an event I/O processor or a Swift invocation brought where it belongs.
    mutating func accept(_ arrival: SCXMLSession.Arrival) {
        switch arrival {
        case .processor(let arrival): accept(arrival)
        case .work(let arrival, let work): accept(arrival, from: work)
        }
    }

    /// Puts what a processor reported where it belongs.
    mutating func accept(_ arrival: SCXMLArrival) {
        switch arrival {
        case .event(let event, let session, let ticket):
            if let ticket { inFlight[ticket] = nil }
            fill(ticket, with: .input(.event(event), session: session))
        case .delivered(let ticket):
            inFlight[ticket] = nil
        case .failed(let ticket, let reason):
            guard let send = inFlight.removeValue(forKey: ticket) else { return }
            fill(ticket, with: .input(.undelivered(send.outgoing, reason: reason), session: send.source))
        }
    }

    /// Puts `item` in the place kept for `ticket`, or after the pending events when none was kept.
    mutating func fill(_ ticket: UInt64?, with item: SCXMLSession.Pending) {
        if let ticket,
            let index = pending[pendingHead...].firstIndex(where: {
                if case .awaiting(ticket) = $0 { return true } else { return false }
            })
        {
            pending[index] = item
        } else {
            pending.append(item)
        }
    }

    /// Drops the places of events that did not arrive in time.
    mutating func giveUpAwaitedPlaces(after limit: Duration) {
        var kept: [SCXMLSession.Pending] = []
        for item in pending[pendingHead...] {
            guard case .awaiting(let ticket) = item else {
                kept.append(item)
                continue
            }
            if let send = inFlight.removeValue(forKey: ticket) {
                problems.append(
                    SCXMLDiagnostic(
                        .warning,
                        "the event '\(send.outgoing.event.name)' sent to \(send.outgoing.target) did not arrive within \(limit); the events after it were delivered without it",
                        at: send.outgoing.location ?? chart.document.location, kind: .document))
            }
        }
        pending = kept
        pendingHead = 0
    }
}
