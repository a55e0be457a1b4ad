/// Why a live machine's owner was called back: its timer fell due, or an invocation ended.
@usableFromInline
enum LiveWakeUp<Event: StatechartEvent> {
    /// An event from another member of the machine's system.
    case received(Event)
    /// An event a child machine sent to `#_parent`, while the invocation that runs it is running.
    case fromChild(Event, InvocationID)
    case timer
    case outcome(InvocationOutcome<Event>, from: InvocationID)
    case undelivered(OutgoingEvent<Event>, reason: String)
}

/// Work a live machine hands to a task of its own: an invocation's work.
@usableFromInline
enum LiveJob<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    case invocation(InvocationStart<State, Event, Context>)
}

extension LiveJob: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
