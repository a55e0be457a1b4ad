/// An event as the machine queues it: the user's event, or one the engine raises, with the index
/// of its kind computed once, when it is queued.
///
/// A user's event is stored inline; the rare extra data of the events the engine raises (done
/// data, a thrown error) is boxed, so that copying and destroying an ordinary event is cheap.
@usableFromInline
struct Signal<Event> {
    /// The kind index; -1 for a user event whose kind the chart does not know.
    @usableFromInline var kind: Int32
    /// The event, when it is of the user's type.
    @usableFromInline var event: Event?
    /// For `done.state.*` and `error.execution`: their data.
    @usableFromInline var attachment: SignalAttachment?

    @inlinable
    init(kind: Int32, event: Event?, attachment: SignalAttachment? = nil) {
        self.kind = kind
        self.event = event
        self.attachment = attachment
    }

    /// An event of the user's type.
    @inlinable
    static func event(_ event: Event, kind: Int32) -> Signal { Signal(kind: kind, event: event) }

    /// `done.state.ID`, with the done data of the final state that completed it.
    @inlinable
    static func done(kind: Int32, data: (any Sendable)?) -> Signal {
        Signal(kind: kind, event: nil, attachment: data.map { SignalAttachment(doneData: $0) })
    }

    /// `error.execution` or `error.communication`, with what failed and what it threw.
    @inlinable
    static func failure(_ failure: ExecutionFailure, kind: Int32) -> Signal {
        Signal(kind: kind, event: nil, attachment: SignalAttachment(error: failure.error ?? failure, failure: failure))
    }

    /// A timeout of the state that armed it.
    @inlinable
    static func timeout(kind: Int32) -> Signal { Signal(kind: kind, event: nil) }

    @inlinable var doneData: (any Sendable)? { attachment?.doneData }
    @inlinable var error: (any Error)? { attachment?.error }
    @inlinable var failure: ExecutionFailure? { attachment?.failure }
}

/// The data of an event the engine raises.
@usableFromInline
final class SignalAttachment: Sendable {
    @usableFromInline let doneData: (any Sendable)?
    @usableFromInline let error: (any Error)?
    @usableFromInline let failure: ExecutionFailure?

    @usableFromInline
    init(doneData: (any Sendable)? = nil, error: (any Error)? = nil, failure: ExecutionFailure? = nil) {
        self.doneData = doneData
        self.error = error
        self.failure = failure
    }
}

/// A timer waiting for its deadline: a state's timeout or a delayed event.
///
/// A timeout is plain integers; a delayed event keeps its event and identifier in a box, so that
/// arming, moving and cancelling timers copies no more than a few words.
@usableFromInline
struct PendingTimer<Event> {
    /// Nanoseconds of machine time.
    @usableFromInline var deadline: Int64
    /// Breaks ties between equal deadlines: earlier arming fires first.
    @usableFromInline var serial: UInt64
    /// For a timeout: the state that armed it; -1 for a delayed event.
    @usableFromInline var owner: Int32
    /// For a timeout: the event kind it raises.
    @usableFromInline var kind: Int32
    /// For a delayed event: the event and the identifier it can be cancelled by.
    @usableFromInline var delayed: DelayedEvent<Event>?

    @inlinable
    init(deadline: Int64, serial: UInt64, owner: Int32, kind: Int32, delayed: DelayedEvent<Event>?) {
        self.deadline = deadline
        self.serial = serial
        self.owner = owner
        self.kind = kind
        self.delayed = delayed
    }

    /// No timer: what an empty slot of a ``TimerQueue`` holds.
    @inlinable
    static var none: PendingTimer {
        PendingTimer(deadline: .max, serial: 0, owner: .min, kind: 0, delayed: nil)
    }

    /// Whether this is ``none``.
    @inlinable
    var isNone: Bool { owner == .min }

    /// The event the timer delivers.
    @inlinable
    var signal: Signal<Event> { delayed?.signal ?? .timeout(kind: kind) }

    /// The identifier of a delayed event.
    @inlinable
    var id: String? { delayed?.id }

    @inlinable
    func precedes(_ other: PendingTimer) -> Bool {
        (deadline, serial) < (other.deadline, other.serial)
    }
}

/// A delayed event's event and identifier.
@usableFromInline
final class DelayedEvent<Event> {
    @usableFromInline let signal: Signal<Event>
    @usableFromInline let id: String?

    @usableFromInline
    init(signal: Signal<Event>, id: String?) {
        self.signal = signal
        self.id = id
    }
}

extension Signal: Sendable where Event: Sendable {}

extension PendingTimer: Sendable where Event: Sendable {}

extension DelayedEvent: Sendable where Event: Sendable {}
