/// A delayed send written as data, as the quick step reads it from its chart: the event, its kind
/// in the chart, the delay in nanoseconds (more than zero) and the identifier to cancel it by.
@usableFromInline
struct DeclaredSend<Event> {
    @usableFromInline let event: Event
    @usableFromInline let kind: Int32
    @usableFromInline let delay: Int64
    @usableFromInline let id: String?

    init(event: Event, kind: Int32, delay: Int64, id: String?) {
        self.event = event
        self.kind = kind
        self.delay = delay
        self.id = id
    }
}

extension DeclaredSend: Sendable where Event: Sendable {}
