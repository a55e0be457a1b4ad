extension StatechartActor {
    /// Joins `system` under `id`: from now on, the other members reach this machine with
    /// `scope.send(event, to: id)`, and this machine's own sends to a member's id reach that
    /// member. Releasing the machine leaves the system.
    ///
    /// - Throws: ``StatechartSystemError/idTaken(_:)`` when another live member has the id;
    ///   ``StatechartSystemError/alreadyJoined(_:)`` the second time.
    public func join(_ system: StatechartSystem, as id: String) throws(StatechartSystemError) {
        if let membership = live.attachments?.membership { throw .alreadyJoined(membership.id) }
        let mailbox = systemMailbox()
        try system.add(mailbox, as: id)
        live.mutableAttachments().membership = SystemMembership(system: system, id: id, mailbox: mailbox)
    }

    /// Enters `system` as a child machine of one of its members: it sends to the members and
    /// through the event I/O processors, with `id` as its sender's id, but no member reaches it by
    /// id.
    func enter(_ system: StatechartSystem, as id: String) {
        guard live.attachments?.membership == nil else { return }
        live.mutableAttachments().membership = SystemMembership(system: system, id: id, mailbox: systemMailbox())
    }

    /// The machine's mailbox in a system. A delivery reaches the machine through the chart's
    /// specialised handler (see ``LiveHooks``), as a timer does: its step runs specialised for the
    /// chart's types.
    private func systemMailbox() -> SystemMailbox {
        SystemMailbox(
            alive: { [weak self] in self != nil },
            accepts: { $0.value is Event },
            receive: { [weak self] event in
                guard let self, let typed = event.value as? Event else { return }
                await self.receiveFromSystem(typed)
            },
            undelivered: { [weak self] outgoing, reason in
                guard let self, let typed = outgoing.value as? OutgoingEvent<Event> else { return }
                await self.undeliveredThroughProcessor(typed, reason: reason)
            })
    }

}

extension IsolatedStatechart where Event: Sendable {
    /// Joins `system` under `id`: from now on, the other members reach this machine with
    /// `scope.send(event, to: id)`, on this machine's actor, and this machine's own sends to a
    /// member's id reach that member. Releasing the machine leaves the system.
    ///
    /// - Parameters:
    ///   - system: The system.
    ///   - id: The machine's id there.
    ///   - caller: The caller's actor, which must be the machine's.
    /// - Throws: ``StatechartSystemError/idTaken(_:)`` when another live member has the id;
    ///   ``StatechartSystemError/alreadyJoined(_:)`` the second time.
    public func join(
        _ system: StatechartSystem, as id: String, isolation caller: isolated (any Actor)? = #isolation
    ) throws(StatechartSystemError) {
        check(caller)
        if let membership = live.attachments?.membership { throw .alreadyJoined(membership.id) }
        let mailbox = SystemMailbox(for: IsolatedMember(machine: self))
        try system.add(mailbox, as: id)
        live.mutableAttachments().membership = SystemMembership(system: system, id: id, mailbox: mailbox)
    }
}

/// A member of a system reached through a protocol: its machine's types stay out of the closures
/// of its mailbox, which cross actors.
protocol SystemReceiver<Event>: AnyObject, Sendable {
    associatedtype Event: Sendable
    /// Whether the machine is still alive.
    var isAlive: Bool { get }
    /// Processes an event from another member, where the machine lives.
    func receive(_ event: Event) async
    /// Processes `error.communication` for a send of the machine's own that an event I/O processor
    /// could not deliver, where the machine lives.
    func undelivered(_ outgoing: OutgoingEvent<Event>, reason: String) async
}

extension SystemMailbox {
    /// The mailbox of `receiver`.
    convenience init<Event>(for receiver: any SystemReceiver<Event>) {
        self.init(
            alive: { receiver.isAlive },
            accepts: { $0.value is Event },
            receive: { event in
                guard let typed = event.value as? Event else { return }
                await receiver.receive(typed)
            },
            undelivered: { outgoing, reason in
                guard let typed = outgoing.value as? OutgoingEvent<Event> else { return }
                await receiver.undelivered(typed, reason: reason)
            })
    }
}

/// An `IsolatedStatechart` as a member of a system, held weakly: events are handed to it on its
/// actor.
final class IsolatedMember<State: Hashable, Event: StatechartEvent & Sendable, Context>: SystemReceiver,
    @unchecked Sendable
where Event.Kind: Hashable {
    // A weak reference is read atomically from any thread; the machine itself is used only on its
    // actor, where `receive` goes.
    private weak let machine: IsolatedStatechart<State, Event, Context>?
    private let isolation: any Actor

    init(machine: IsolatedStatechart<State, Event, Context>) {
        self.machine = machine
        isolation = machine.isolation
    }

    var isAlive: Bool { machine != nil }

    func receive(_ event: Event) async {
        await receive(event, isolation: isolation)
    }

    private func receive(_ event: Event, isolation: isolated any Actor) {
        machine?.receiveFromSystem(event, isolation: isolation)
    }

    func undelivered(_ outgoing: OutgoingEvent<Event>, reason: String) async {
        await undelivered(outgoing, reason: reason, isolation: isolation)
    }

    private func undelivered(_ outgoing: OutgoingEvent<Event>, reason: String, isolation: isolated any Actor) {
        machine?.undeliveredThroughProcessor(outgoing, reason: reason, isolation: isolation)
    }
}
