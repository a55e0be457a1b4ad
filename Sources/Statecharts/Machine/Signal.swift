/// An event as the machine queues it: the user's event, or one the engine raises, with the index
/// of its kind computed once, when it is queued.
@usableFromInline
struct Signal<Event: StatechartEvent>: Sendable {
    @usableFromInline
    enum Payload: Sendable {
        /// An event of the user's type.
        case event(Event)
        /// `done.state.ID`, with the done data of the final state that completed it.
        case done((any Sendable)?)
        /// `error.execution`, with what an action or guard threw.
        case error(any Error)
        /// A timeout of the state that armed it.
        case timeout
    }

    /// The kind index; -1 for a user event whose kind the chart does not know.
    @usableFromInline var kind: Int32
    @usableFromInline var payload: Payload

    @inlinable
    init(kind: Int32, payload: Payload) {
        self.kind = kind
        self.payload = payload
    }

    @inlinable
    var event: Event? {
        if case .event(let event) = payload { return event }
        return nil
    }
}

/// A timer waiting for its deadline: a state's timeout or a delayed event.
@usableFromInline
struct PendingTimer<Event: StatechartEvent>: Sendable {
    /// Nanoseconds of machine time.
    @usableFromInline var deadline: Int64
    /// Breaks ties between equal deadlines: earlier arming fires first.
    @usableFromInline var serial: UInt64
    /// For a timeout: the state that armed it; -1 for a delayed event.
    @usableFromInline var owner: Int32
    /// For a delayed event: the identifier it can be cancelled by.
    @usableFromInline var id: String?
    @usableFromInline var signal: Signal<Event>

    @inlinable
    func precedes(_ other: PendingTimer) -> Bool {
        (deadline, serial) < (other.deadline, other.serial)
    }
}
