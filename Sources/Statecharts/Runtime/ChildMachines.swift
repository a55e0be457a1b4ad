// Charts that invoke charts: the parts that connect a child machine to the live machine that
// invoked it (``Invoke/init(_:chart:file:line:column:context:onDone:)``).
//
// The child is a ``StatechartActor`` on its parent's ``TimerWheel``, run by the invocation's task:
// - its `scope.send(event, to: "#_parent")` goes, in order, through that task, which hands each
//   event to the parent where it lives; the parent processes it as an event from outside while
//   the invocation runs, and drops it once the invocation's state has been exited;
// - the parent's `scope.send(event, to: "#_NAME")` reaches the running child invoked as `NAME`,
//   on the child's actor, in order (``InvokedChildren``);
// - when the child reaches a top-level final state, the task ends with the event `onDone` makes,
//   after every event the child sent before it;
// - when the parent has joined a ``StatechartSystem``, the child sends to its members by id and
//   through its event I/O processors as the parent does (it is not itself addressable by id);
// - exiting the invoking state cancels the task, which releases the child: its timers and its
//   own invocations stop with it.

/// What a live runtime gives the task of a child machine: its clock, the registry its parent
/// addresses children by, and the way back to the parent.
struct ChildLink<Event>: Sendable {
    /// The parent's wheel: the child runs on the same clock.
    let wheel: TimerWheel
    /// Where the parent's sends to the child wait for it.
    let slot: ChildSlot
    /// The parent, which takes what the child sends to `#_parent` where it lives.
    let parent: WeakChildReceiver<Event>
    /// The invocation that runs the child.
    let invocation: InvocationID
    /// The parent's place in a ``StatechartSystem``, when it has joined one: the child then sends
    /// to the system's members and event I/O processors as its parent does.
    let membership: SystemMembership?

    /// Hands an event the child sent to `#_parent` to the parent, and returns once the parent has
    /// processed it.
    func deliver(_ event: sending Event) async {
        await parent.receiveFromChild(event, invocation: invocation)
    }

    /// Runs `work` with this link as the task's.
    func run<Result>(_ work: () async -> Result) async -> Result {
        await ChildLinks.$current.withValue(self, operation: work)
    }
}

/// A live machine as the parent of child machines: it takes what they send to `#_parent`. Held
/// weakly by what implements it, so that a running child keeps no parent alive.
protocol ChildEventReceiver<Event>: AnyObject, Sendable {
    associatedtype Event
    /// Processes `event`, which the child run by `invocation` sent, where the parent lives.
    func receiveFromChild(_ event: sending Event, invocation: InvocationID) async
}

/// A parent held weakly: a running child keeps its parent from being released no longer than
/// the parent keeps it.
final class WeakChildReceiver<Event>: ChildEventReceiver, Sendable {
    private weak let parent: (any ChildEventReceiver<Event>)?

    init(_ parent: any ChildEventReceiver<Event>) { self.parent = parent }

    func receiveFromChild(_ event: sending Event, invocation: InvocationID) async {
        await parent?.receiveFromChild(event, invocation: invocation)
    }
}

/// Where the task of a child machine finds its ``ChildLink``.
enum ChildLinks {
    /// The link of the task that runs now, when a live runtime started it for a child machine.
    @TaskLocal static var current: (any Sendable)?
}

/// The child machines a live machine has invoked and that are running, by the name they were
/// invoked as: where `scope.send(event, to: "#_NAME")` goes.
///
/// A child is registered when its invocation starts, on the parent's actor, so that what the
/// parent sends it in the same step waits for it; it is removed when its invocation ends or is
/// cancelled. Read and written by the parent's steps and by the children's tasks: behind a lock.
@usableFromInline
final class InvokedChildren: Sendable {
    private let entries = Locked<[String: (invocation: InvocationID, mailbox: SystemMailbox, slot: ChildSlot)]>([:])

    init() {}

    /// Registers the child the invocation `invocation` is starting as `name` (the latest child of
    /// a name is the one the name reaches), taking events of type `Event`; returns its slot, which
    /// the child attaches to once it has started.
    func open<Event>(_ name: String, invocation: InvocationID, events: Event.Type) -> ChildSlot {
        let slot = ChildSlot()
        let mailbox = SystemMailbox(
            alive: { slot.isOpen }, accepts: { $0.value is Event }, receive: { await slot.receive($0) })
        let replaced = entries.withLock { entries in
            defer { entries[name] = (invocation, mailbox, slot) }
            return entries[name]
        }
        replaced?.mailbox.close()
        return slot
    }

    /// Removes the child of `invocation`: its invocation ended or was cancelled. What was sent to
    /// it and not delivered yet is dropped.
    @usableFromInline
    func remove(invocation: InvocationID) {
        let removed = entries.withLock { entries in
            guard let name = entries.first(where: { $0.value.invocation == invocation })?.key else {
                return nil as (invocation: InvocationID, mailbox: SystemMailbox, slot: ChildSlot)?
            }
            return entries.removeValue(forKey: name)
        }
        removed?.mailbox.close()
        removed?.slot.close()
    }

    /// Hands `event` to the running child invoked as `name`; whether one took it.
    func post(_ event: SystemEvent, to name: String) -> Bool {
        guard let mailbox = entries.withLock({ $0[name]?.mailbox }) else { return false }
        return mailbox.post(event)
    }

    /// Whether a running child is invoked as `name`.
    func contains(_ name: String) -> Bool { entries.withLock { $0[name] != nil } }
}

/// Where the events for one child wait until it has started, then go to it, in order.
final class ChildSlot: Sendable {
    private struct Contents {
        var receiver: (@Sendable (SystemEvent) async -> Void)?
        var waiters: [CheckedContinuation<(@Sendable (SystemEvent) async -> Void)?, Never>] = []
        var closed = false
    }
    private let contents = Locked(Contents())

    /// Whether the child is still expected or running.
    var isOpen: Bool { !contents.withLock(\.closed) }

    /// The child has started: events go to `receiver` from now on.
    func attach(_ receiver: @escaping @Sendable (SystemEvent) async -> Void) {
        let waiters = contents.withLock { contents in
            guard !contents.closed else {
                return [CheckedContinuation<(@Sendable (SystemEvent) async -> Void)?, Never>]()
            }
            contents.receiver = receiver
            defer { contents.waiters.removeAll() }
            return contents.waiters
        }
        for waiter in waiters { waiter.resume(returning: receiver) }
    }

    /// The child is gone: events still waiting are dropped.
    func close() {
        let waiters = contents.withLock { contents in
            contents.closed = true
            contents.receiver = nil
            defer { contents.waiters.removeAll() }
            return contents.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Hands `event` to the child, once it has started; drops it if the child is gone first.
    func receive(_ event: SystemEvent) async {
        let receiver = await withCheckedContinuation { continuation in
            let ready: (@Sendable (SystemEvent) async -> Void)?? = contents.withLock { contents in
                if contents.closed { return .some(nil) }
                if let receiver = contents.receiver { return .some(receiver) }
                contents.waiters.append(continuation)
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
        await receiver?(event)
    }
}

/// What a child machine tells the task that runs it.
enum ChildMessage<Event> {
    /// An event the child sent to `#_parent`.
    case event(Event)
    /// The child reached a top-level final state.
    case finished
}

extension ChildMessage: Sendable where Event: Sendable {}

/// A child machine's end of its link: where its sends to `#_parent` and its finishing go.
@usableFromInline
final class ParentChannel: Sendable {
    /// Takes a `ChildMessage` of the child's events (kept untyped, so that the live core stays
    /// free of the child's types): the continuation of the task's stream.
    private let yield: @Sendable (Any) -> Void
    private let end: @Sendable () -> Void
    /// Whether a live parent is at the other end; without one (the work run by hand), sends to
    /// `#_parent` reach nobody.
    let reachesParent: Bool
    private let finished = Locked(false)

    init<Event: Sendable>(_ continuation: AsyncStream<ChildMessage<Event>>.Continuation, reachesParent: Bool) {
        yield = { value in
            if let event = value as? Event { continuation.yield(.event(event)) }
        }
        end = { continuation.yield(.finished) }
        self.reachesParent = reachesParent
    }

    /// Sends `event` to the parent; whether it went.
    func send<Event>(_ event: Event) -> Bool {
        guard reachesParent, !finished.withLock({ $0 }) else { return false }
        yield(event)
        return true
    }

    /// Tells the task that the child finished, once.
    @usableFromInline
    func finish() {
        let first = finished.withLock { finished in
            defer { finished = true }
            return !finished
        }
        if first { end() }
    }
}

/// Runs a child machine of `chart` for the invocation of the task that calls it, until it
/// finishes (then returns what `onDone` makes of its context) or the task is cancelled.
func runChildMachine<ChildState, Event, ChildContext>(
    _ chart: Statechart<ChildState, Event, ChildContext>, context: ChildContext, name: String,
    onDone: (@Sendable (ChildContext) -> Event?)?
) async throws -> Event?
where
    ChildState: Hashable & Sendable, Event: StatechartEvent & Sendable, Event.Kind: Hashable & Sendable,
    ChildContext: Sendable
{
    let link = ChildLinks.current as? ChildLink<Event>
    let (messages, continuation) = AsyncStream<ChildMessage<Event>>.makeStream()
    let child = StatechartActor(chart, context: context, timers: link?.wheel ?? .continuous)
    await child.connect(to: ParentChannel(continuation, reachesParent: link != nil))
    if let membership = link?.membership {
        // Not addressable by id: the system's members reach the child through its parent.
        await child.enter(membership.system, as: "\(membership.id)/\(name)")
    }
    defer { link?.slot.close() }
    try await child.start()
    link?.slot.attach { [weak child] event in
        guard let child, let typed = event.value as? Event else { return }
        await child.receiveFromSystem(typed)
    }
    for await message in messages {
        switch message {
        case .event(let event):
            await link?.deliver(event)
        case .finished:
            return onDone?(await child.snapshot.context)
        }
    }
    // The stream ends early only when the task is cancelled: the invoking state was exited.
    throw CancellationError()
}
