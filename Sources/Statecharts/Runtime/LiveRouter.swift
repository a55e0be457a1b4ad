/// Where a live machine's effects go (``StatechartActor``, ``IsolatedStatechart``): invocations
/// run as tasks, events go to the machine's parent (`#_parent`), its invoked children (`#_NAME`)
/// or the members of its ``StatechartSystem`` (by id), and logs go to its inspection hook.
///
/// The router of the machine's ``MachineHost``, used on the machine's actor only; what it starts
/// and arms lives in the machine's attachments, made on first use.
@usableFromInline
struct LiveRouter<State: Hashable, Event: StatechartEvent, Context>: EffectRouter where Event.Kind: Hashable {
    /// What few live machines use: the inspection hook, tasks, streams, family and system.
    @usableFromInline var attachments: LiveAttachments<State, Event, Context>?
    /// The wheel the machine's time follows: delayed sends wait on it.
    @usableFromInline let wheel: TimerWheel
    /// The machine's owner, which starts the tasks of invocations: set when the owner is made.
    /// Not counted: the owner holds the router, and cancels the tasks before it goes.
    @usableFromInline unowned(unsafe) var owner: (any LiveOwner<State, Event, Context>)?

    @inlinable
    init(wheel: TimerWheel, inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?) {
        self.wheel = wheel
        if let inspect { attachments = LiveAttachments(inspect: inspect) }
    }

    /// The attachments, made on first use.
    @inlinable
    mutating func mutableAttachments() -> LiveAttachments<State, Event, Context> {
        if let attachments { return attachments }
        let created = LiveAttachments<State, Event, Context>(inspect: nil)
        attachments = created
        return created
    }

    @inlinable
    mutating func startInvocation(_ start: InvocationStart<State, Event, Context>) {
        let attachments = mutableAttachments()
        attachments.inspect?(.invocationStarted(start.id, name: start.name, state: start.state))
        guard let owner else { return }
        attachments.tasks[start.id] = owner.startTask(.invocation(start))
    }

    @inlinable
    mutating func cancelInvocation(_ id: InvocationID) {
        guard let attachments else { return }
        attachments.inspect?(.invocationCancelled(id))
        attachments.tasks.removeValue(forKey: id)?.cancel()
        attachments.children?.remove(invocation: id)
    }

    /// Delivers `outgoing`, or says nobody takes it: the live machine then processes
    /// `error.communication` as soon as the step's effects are routed (``MachineHost/settleLive()``).
    @inlinable
    mutating func send(_ outgoing: OutgoingEvent<Event>) -> SendRouting {
        let attachments = mutableAttachments()
        let routing = destination(of: outgoing, attachments: attachments)
        if case .undelivered(let reason) = routing { attachments.inspect?(.undelivered(outgoing, reason: reason)) }
        return routing
    }

    /// Where `outgoing` goes: its parent, a child, a member of its system, or nobody.
    @usableFromInline
    func destination(
        of outgoing: OutgoingEvent<Event>, attachments: LiveAttachments<State, Event, Context>
    ) -> SendRouting {
        if let type = outgoing.type, !Self.isSCXMLProcessor(type) {
            return sendThroughProcessor(outgoing, type: type, membership: attachments.membership)
        }
        if outgoing.target.utf8.first == UInt8(ascii: "#"), outgoing.target.hasPrefix("#_") {
            if deliverInFamily(outgoing, attachments: attachments) { return .delivered }
            return .undelivered(
                reason: outgoing.target == "#_parent"
                    ? "the machine was not invoked by a live machine"
                    : "no running child machine was invoked as '\(outgoing.target.dropFirst(2))'")
        }
        guard let membership = attachments.membership else {
            return .undelivered(
                reason: "a live machine delivers no events outside itself unless it has joined a StatechartSystem")
        }
        if deliver(outgoing, in: membership) { return .delivered }
        return .undelivered(
            reason: "no machine of the system has the id '\(outgoing.target)' and takes events of this type")
    }

    /// Whether `type` names SCXML's own event I/O processor, the default (SCXML 1.0, section C.1):
    /// a send with it goes where one without a type goes.
    @usableFromInline
    static func isSCXMLProcessor(_ type: String) -> Bool {
        OutgoingEvent<Event>.isSCXMLProcessor(type)
    }

    /// Hands `outgoing` to the system's event I/O processor of `type`; nobody takes it when the
    /// machine is in no system, or the system has no such processor.
    @usableFromInline
    func sendThroughProcessor(
        _ outgoing: OutgoingEvent<Event>, type: String, membership: SystemMembership?
    ) -> SendRouting {
        guard let membership else {
            return .undelivered(
                reason:
                    "a live machine sends through an event I/O processor ('\(type)') only as a member of a StatechartSystem that has one"
            )
        }
        guard let processor = membership.system.processor(ofType: type) else {
            let known = membership.system.processorTypes
            return .undelivered(
                reason: "the system has no event I/O processor of the type '\(type)'"
                    + (known.isEmpty ? "" : " (it has \(known.map { "'\($0)'" }.joined(separator: ", ")))"))
        }
        // A machine joins a system only with events of a `Sendable` type.
        let message = ProcessorMessage(
            boxed: SystemEvent(value: outgoing.event), name: Event.name(of: outgoing.event.kind),
            target: outgoing.target, type: type,
            sender: membership.id, sendID: outgoing.id)
        membership.system.send(
            message, outgoing: SystemEvent(value: outgoing), through: processor, from: membership,
            after: outgoing.delay, on: wheel)
        return .delivered
    }

    @inlinable
    mutating func cancelSend(id: String) {
        guard let attachments else { return }
        if let membership = attachments.membership { membership.system.cancelDelayed(id: id, from: membership.id) }
        attachments.delayedPosts?.cancel(id: id)
    }

    @inlinable
    mutating func log(_ record: MachineLog) { attachments?.inspect?(.log(record)) }

    /// Hands an event sent to `#_parent` or to `#_NAME` to the parent that invoked this machine,
    /// or to the running child invoked as `NAME`: now, or after its delay on the machine's clock;
    /// whether one is there to take it.
    func deliverInFamily(_ outgoing: OutgoingEvent<Event>, attachments: LiveAttachments<State, Event, Context>) -> Bool
    {
        // A machine talks to its parent or children only with events of a `Sendable` type (the
        // child's ``Invoke`` asks for it).
        let event = SystemEvent(value: outgoing.event)
        let post: @Sendable () -> Bool
        if outgoing.target == "#_parent" {
            guard let parent = attachments.parent, parent.reachesParent else { return false }
            post = { parent.send(event.value) }
        } else {
            let name = String(outgoing.target.dropFirst(2))
            guard let children = attachments.children, children.contains(name) else { return false }
            post = { children.post(event, to: name) }
        }
        guard outgoing.delay > .zero else { return post() }
        attachments.mutableDelayedPosts().add(after: outgoing.delay, on: wheel, id: outgoing.id) { _ = post() }
        return true
    }

    /// Hands an event sent out to the machine's system: now, or after its delay on the machine's
    /// clock; whether a member takes it.
    func deliver(_ outgoing: OutgoingEvent<Event>, in membership: SystemMembership) -> Bool {
        // A machine joins a system only with events of a `Sendable` type.
        let event = SystemEvent(value: outgoing.event)
        guard outgoing.delay > .zero else { return membership.system.deliver(event, to: outgoing.target) }
        return membership.system.deliver(
            event, to: outgoing.target, after: outgoing.delay, on: wheel, from: membership.id, id: outgoing.id)
    }
}

/// What holds a live machine's host and starts its invocations' tasks: ``StatechartActor`` and
/// ``IsolatedStatechart``.
@usableFromInline
protocol LiveOwner<State, Event, Context>: AnyObject {
    associatedtype State: Hashable
    associatedtype Event: StatechartEvent where Event.Kind: Hashable
    associatedtype Context

    /// Runs an invocation's work in a task, and brings its outcome back to the machine.
    func startTask(_ job: LiveJob<State, Event, Context>) -> Task<Void, Never>
}
