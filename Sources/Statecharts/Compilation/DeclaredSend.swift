/// A delayed send written as data, as the quick step reads it from its chart: the event, its kind
/// in the chart, the delay in nanoseconds (more than zero) and, in place of the identifier to
/// cancel it by, the owner its timer is armed with (``PendingTimer/owner``).
///
/// A literal identifier is interned when the chart is compiled: each distinct identifier of the
/// chart's sends written as data gets a number, and its timers carry that number instead of the
/// string (see ``ChartStorage/declaredIdentifiers``). Arming one then copies no string, and a
/// cancel written as data finds it by comparing two integers.
@usableFromInline
struct DeclaredSend<Event> {
    @usableFromInline let event: Event
    @usableFromInline let kind: Int32
    @usableFromInline let delay: Int64
    /// ``DeclaredIdentifier/owner(ofNumber:)`` of the identifier's number, or -1 for a send without an
    /// identifier.
    @usableFromInline let owner: Int32

    init(event: Event, kind: Int32, delay: Int64, owner: Int32) {
        self.event = event
        self.kind = kind
        self.delay = delay
        self.owner = owner
    }
}

extension DeclaredSend: Sendable where Event: Sendable {}
