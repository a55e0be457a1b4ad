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
public final class StatechartSystem: Sendable {
    private let members = Locked<[String: SystemMailbox]>([:])
    /// Delayed sends waiting on a sender's clock.
    private let delayed = DelayedPosts()

    /// An empty system.
    public init() {}

    /// The ids of the machines in the system, sorted.
    public var ids: [String] { members.withLock { $0.keys.sorted() } }

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
/// arrives at an empty mailbox, and ends when it has emptied it.
///
/// Not generic: the member's joining, inlined where the machine's types are known, gives it
/// closures specialised for them, so that a delivery runs no generic code.
@usableFromInline
final class SystemMailbox: Sendable {
    private let contents = Locked(MailQueue())
    private let isMember: @Sendable () -> Bool
    private let takes: @Sendable (SystemEvent) -> Bool
    private let receive: @Sendable (SystemEvent) async -> Void

    /// A mailbox of a member that is alive while `alive` says so, takes the events `accepts`
    /// accepts, and processes each with `receive`, where it lives.
    @usableFromInline
    init(
        alive: @escaping @Sendable () -> Bool, accepts: @escaping @Sendable (SystemEvent) -> Bool,
        receive: @escaping @Sendable (SystemEvent) async -> Void
    ) {
        isMember = alive
        takes = accepts
        self.receive = receive
    }

    /// Whether the member's machine is still alive.
    var isAlive: Bool { isMember() }

    /// Whether the member takes events of this one's type.
    func accepts(_ event: SystemEvent) -> Bool { takes(event) }

    /// Queues the event; whether the member took it.
    func post(_ event: SystemEvent) -> Bool {
        guard takes(event), isMember() else { return false }
        let startReader = contents.withLock { contents in
            guard !contents.closed else { return false as Bool? }
            contents.events.append(event)
            defer { contents.reading = true }
            return !contents.reading
        }
        guard let startReader else { return false }
        if startReader { Task { await self.read() } }
        return true
    }

    /// Hands the events to the member, in order, until the mailbox is empty.
    private func read() async {
        while let event = contents.withLock({ $0.next() }) {
            guard isMember() else { return }
            await receive(event)
        }
    }

    /// Stops taking events: the member left the system.
    func close() {
        contents.withLock { contents in
            contents.closed = true
            contents.events.removeAll()
        }
    }
}

/// The events of a mailbox not handed to its member yet.
struct MailQueue {
    var events: [SystemEvent] = []
    var head = 0
    /// Whether a task is handing them to the member.
    var reading = false
    var closed = false

    /// The next event; `nil`, and no task reading, once empty.
    mutating func next() -> SystemEvent? {
        guard head < events.count else {
            events.removeAll(keepingCapacity: true)
            head = 0
            reading = false
            return nil
        }
        defer { head += 1 }
        return events[head]
    }
}

/// What a member of a system keeps: the system and its id there, and its mailbox.
@usableFromInline
final class SystemMembership: Sendable {
    @usableFromInline let system: StatechartSystem
    @usableFromInline let id: String
    let mailbox: SystemMailbox

    @usableFromInline
    init(system: StatechartSystem, id: String, mailbox: SystemMailbox) {
        self.system = system
        self.id = id
        self.mailbox = mailbox
    }

    /// Leaves the system.
    func leave() {
        system.remove(id, mailbox: mailbox)
        mailbox.close()
    }
}
