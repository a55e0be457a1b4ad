/// Live machines that send each other events by id: a registry the app holds.
///
/// A live machine (``StatechartActor``, ``IsolatedStatechart``) that has joined a system under an
/// id reaches every other member with `scope.send(event, to: "id")` from its actions. The event is
/// delivered on the target's own actor, after the events sent to it before, and processed there as
/// an event sent to it from outside; a delayed send waits on the sender's clock, and
/// `scope.cancel` withdraws it while it waits. Only a send that no member answers (no member with
/// that id, or one whose events are of another type) is reported back to the sender as
/// `error.communication`, as before.
///
/// ```swift
/// let system = StatechartSystem()
/// let ping = StatechartActor(pingChart, context: Rally())
/// let pong = StatechartActor(pongChart, context: Rally())
/// try await ping.join(system, as: "ping")
/// try await pong.join(system, as: "pong")
/// ```
///
/// A member is held weakly: releasing a machine removes it. Events sent to a member arrive in the
/// order they were sent by any one sender; what its `send` throws (an event it rejects, a limit)
/// goes to its inspection hook, not back to the sender.
///
/// A system given event I/O processors (``LiveEventProcessor``) takes its members' sends with a
/// `type` to them: `scope.send(event, to: url, type: "basichttp")` reaches an HTTP endpoint
/// through StatechartsHTTP's processor.
public final class StatechartSystem: Sendable {
    private let members = Locked<[String: SystemMailbox]>([:])
    /// Delayed sends waiting on a sender's clock.
    private let delayed = DelayedPosts()
    /// The event I/O processors, by each of their types.
    private let processorsByType: [String: any LiveEventProcessor]

    /// A system without members, whose members send through `processors`.
    ///
    /// - Parameter processors: The event I/O processors the members' sends with a `type` go to.
    ///   When two name the same type, the first given takes it.
    public init(processors: [any LiveEventProcessor] = []) {
        var byType: [String: any LiveEventProcessor] = [:]
        for processor in processors {
            for type in processor.types where byType[type] == nil { byType[type] = processor }
        }
        processorsByType = byType
    }

    /// The ids of the machines in the system, sorted.
    public var ids: [String] { members.withLock { $0.keys.sorted() } }

    /// The `type` values the system's event I/O processors take, sorted.
    public var processorTypes: [String] { processorsByType.keys.sorted() }

    /// The processor of this `type`.
    @usableFromInline
    func processor(ofType type: String) -> (any LiveEventProcessor)? { processorsByType[type] }

    /// Adds a mailbox under `id`.
    @usableFromInline
    func add(_ mailbox: SystemMailbox, as id: String) throws(StatechartSystemError) {
        guard !id.isEmpty else { throw .invalidID(id) }
        let added = members.withLock { members in
            if let present = members[id], present.isAlive { return false }
            members[id] = mailbox
            return true
        }
        guard added else { throw .idTaken(id) }
    }

    /// Removes the member `id` when it is `mailbox`.
    func remove(_ id: String, mailbox: SystemMailbox) {
        members.withLock { members in
            if let present = members[id], present === mailbox { members[id] = nil }
        }
    }

    /// Delivers `event` to the member `target` now; whether a member took it.
    @usableFromInline
    func deliver(_ event: SystemEvent, to target: String) -> Bool {
        guard let mailbox = members.withLock({ $0[target] }) else { return false }
        return mailbox.post(event)
    }

    /// Delivers `event` to `target` after `delay` on `wheel`'s clock, unless cancelled by the
    /// sender's `id` first; whether a member with that id takes events of its type now.
    @usableFromInline
    func deliver(
        _ event: SystemEvent, to target: String, after delay: Duration, on wheel: TimerWheel, from sender: String,
        id: String?
    ) -> Bool {
        guard let mailbox = members.withLock({ $0[target] }), mailbox.accepts(event) else { return false }
        delayed.add(after: delay, on: wheel, id: id, sender: sender) { [weak self] in
            _ = self?.deliver(event, to: target)
        }
        return true
    }

    /// Hands `message` to `processor` for the member `sender`: now, or after `delay` on `wheel`'s
    /// clock unless the sender cancels it by `id` first. What the processor cannot deliver comes
    /// back to the sender as `outgoing`'s `error.communication`.
    @usableFromInline
    func send(
        _ message: ProcessorMessage, outgoing: SystemEvent, through processor: any LiveEventProcessor,
        from sender: SystemMembership, after delay: Duration, on wheel: TimerWheel
    ) {
        let outbox = sender.outbox(for: processor)
        guard delay > .zero else { return outbox.post(message, outgoing: outgoing) }
        delayed.add(after: delay, on: wheel, id: message.sendID, sender: sender.id) {
            outbox.post(message, outgoing: outgoing)
        }
    }

    /// Withdraws the delayed sends of `sender` with `id`; how many.
    @discardableResult @usableFromInline
    func cancelDelayed(id: String, from sender: String) -> Int {
        delayed.cancel(id: id, sender: sender)
    }
}

/// Why a machine cannot join a ``StatechartSystem``.
public enum StatechartSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another live machine of the system has this id.
    case idTaken(String)
    /// The id is empty.
    case invalidID(String)
    /// The machine is a member of a system already, under this id.
    case alreadyJoined(String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .idTaken(let id): "another machine of the system has the id '\(id)'"
        case .invalidID(let id): "'\(id)' is not an id: an id is a non-empty string"
        case .alreadyJoined(let id): "the machine has joined a system already, as '\(id)'"
        }
    }
}

/// An event between members of a system. Members hold events of `Sendable` types only (joining
/// asks for it), so the box that carries one across actors shares nothing.
@usableFromInline
struct SystemEvent: @unchecked Sendable {
    @usableFromInline let value: Any

    @inlinable
    init(value: Any) { self.value = value }
}

/// Where a system delivers the events of one member: the events for it, in the order they came,
/// which one task at a time hands to the member where it lives. The task is started when an event
/// arrives at an empty mailbox, and ends when it has emptied it. The reports of its own sends that
/// an event I/O processor could not deliver come back the same way, in order with the events.
///
/// Not generic: the member's joining, inlined where the machine's types are known, gives it
/// closures specialised for them, so that a delivery runs no generic code.
@usableFromInline
final class SystemMailbox: Sendable {
    private let contents = Locked(MailQueue())
    private let isMember: @Sendable () -> Bool
    private let takes: @Sendable (SystemEvent) -> Bool
    private let receive: @Sendable (SystemEvent) async -> Void
    private let undelivered: (@Sendable (SystemEvent, String) async -> Void)?

    /// A mailbox of a member that is alive while `alive` says so, takes the events `accepts`
    /// accepts, and processes each with `receive`, where it lives; `undelivered` processes the
    /// report of a send of its own that a processor could not deliver (the boxed `OutgoingEvent`
    /// and the reason), when the member can send through processors.
    @usableFromInline
    init(
        alive: @escaping @Sendable () -> Bool, accepts: @escaping @Sendable (SystemEvent) -> Bool,
        receive: @escaping @Sendable (SystemEvent) async -> Void,
        undelivered: (@Sendable (SystemEvent, String) async -> Void)? = nil
    ) {
        isMember = alive
        takes = accepts
        self.receive = receive
        self.undelivered = undelivered
    }

    /// Whether the member's machine is still alive.
    var isAlive: Bool { isMember() }

    /// Whether the member takes events of this one's type.
    func accepts(_ event: SystemEvent) -> Bool { takes(event) }

    /// Queues the event; whether the member took it.
    func post(_ event: SystemEvent) -> Bool {
        guard takes(event), isMember() else { return false }
        return enqueue(.event(event))
    }

    /// Queues the report that a send of the member's own (`outgoing`, a boxed `OutgoingEvent` of
    /// its event type) could not be delivered; whether the member is there to take it.
    @discardableResult
    func postUndelivered(_ outgoing: SystemEvent, reason: String) -> Bool {
        guard undelivered != nil, isMember() else { return false }
        return enqueue(.undelivered(outgoing, reason: reason))
    }

    private func enqueue(_ item: MailItem) -> Bool {
        let startReader = contents.withLock { contents in
            guard !contents.closed else { return false as Bool? }
            contents.items.append(item)
            defer { contents.reading = true }
            return !contents.reading
        }
        guard let startReader else { return false }
        if startReader { Task { await self.read() } }
        return true
    }

    /// Hands the events to the member, in order, until the mailbox is empty.
    private func read() async {
        while let item = contents.withLock({ $0.next() }) {
            guard isMember() else { return }
            switch item {
            case .event(let event): await receive(event)
            case .undelivered(let outgoing, let reason): await undelivered?(outgoing, reason)
            }
        }
    }

    /// Stops taking events: the member left the system.
    func close() {
        contents.withLock { contents in
            contents.closed = true
            contents.items.removeAll()
        }
    }
}

/// What waits in a mailbox: an event for the member, or the report of a send of its own that
/// could not be delivered.
enum MailItem {
    case event(SystemEvent)
    case undelivered(SystemEvent, reason: String)
}

/// The items of a mailbox not handed to its member yet.
struct MailQueue {
    var items: [MailItem] = []
    var head = 0
    /// Whether a task is handing them to the member.
    var reading = false
    var closed = false

    /// The next item; `nil`, and no task reading, once empty.
    mutating func next() -> MailItem? {
        guard head < items.count else {
            items.removeAll(keepingCapacity: true)
            head = 0
            reading = false
            return nil
        }
        defer { head += 1 }
        return items[head]
    }
}

/// What a member of a system keeps: the system and its id there, and its mailbox.
@usableFromInline
final class SystemMembership: Sendable {
    @usableFromInline let system: StatechartSystem
    @usableFromInline let id: String
    let mailbox: SystemMailbox
    /// Its sends through each event I/O processor, in order.
    private let outboxes = Locked<[ObjectIdentifier: ProcessorOutbox]>([:])

    @usableFromInline
    init(system: StatechartSystem, id: String, mailbox: SystemMailbox) {
        self.system = system
        self.id = id
        self.mailbox = mailbox
    }

    /// The member's outbox at `processor`, made on first use.
    func outbox(for processor: any LiveEventProcessor) -> ProcessorOutbox {
        outboxes.withLock { outboxes in
            if let outbox = outboxes[ObjectIdentifier(processor)] { return outbox }
            let outbox = ProcessorOutbox(processor: processor, sender: mailbox)
            outboxes[ObjectIdentifier(processor)] = outbox
            return outbox
        }
    }

    /// Leaves the system.
    func leave() {
        system.remove(id, mailbox: mailbox)
        mailbox.close()
    }
}
