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
/// A timeout is plain integers. A delayed event keeps its event, the rare data of an event the
/// engine raises, and its identifier inline, so that sending one allocates nothing (a box would
/// cost an allocation, and the lookup of its generic type's metadata, for every send).
@usableFromInline
struct PendingTimer<Event> {
    /// Nanoseconds of machine time.
    @usableFromInline var deadline: Int64
    /// Breaks ties between equal deadlines: earlier arming fires first.
    @usableFromInline var serial: UInt64
    /// For a timeout: the state that armed it (zero or more). For a delayed event: -1, or, for a
    /// send written as data with an identifier, the number its chart interned the identifier as
    /// (``DeclaredIdentifier/owner(ofNumber:)``), with no ``id`` string. `Int32.min` in
    /// ``none``.
    @usableFromInline var owner: Int32
    /// The event kind it delivers: a timeout's kind, or the delayed event's (-1 for a user's
    /// event whose kind the chart does not know).
    @usableFromInline var kind: Int32
    /// For a delayed event of the user's type: the event, unless ``declaredEvent`` says where it is.
    @usableFromInline var event: Event?
    /// For a send written as data of a machine that holds its own events for them
    /// (`StateMachine.prepareDeclaredSends(timerLimit:rewrite:)`): the position of its event among
    /// them, and ``event`` is `nil`, so that arming and cancelling it copies and releases no event.
    /// -1 for every other timer. Read through `StateMachine.signal(of:)`.
    @usableFromInline var declaredEvent: Int32
    /// For a delayed event the engine raised: its data.
    @usableFromInline var attachment: SignalAttachment?
    /// For a delayed event whose ``owner`` is -1: the identifier it can be cancelled by.
    @usableFromInline var id: String?

    /// A state's timeout.
    @inlinable
    init(deadline: Int64, serial: UInt64, owner: Int32, kind: Int32) {
        self.deadline = deadline
        self.serial = serial
        self.owner = owner
        self.kind = kind
        self.event = nil
        self.declaredEvent = -1
        self.attachment = nil
        self.id = nil
    }

    /// A delayed event: `signal`, cancelled by `id`.
    @inlinable
    init(deadline: Int64, serial: UInt64, delivering signal: Signal<Event>, id: String?) {
        self.deadline = deadline
        self.serial = serial
        self.owner = -1
        self.kind = signal.kind
        self.event = signal.event
        self.declaredEvent = -1
        self.attachment = signal.attachment
        self.id = id
    }

    /// A delayed event sent as data, whose identifier the chart interned as `owner`
    /// (``DeclaredIdentifier/owner(ofNumber:)``).
    @inlinable
    init(deadline: Int64, serial: UInt64, owner: Int32, kind: Int32, event: Event) {
        self.deadline = deadline
        self.serial = serial
        self.owner = owner
        self.kind = kind
        self.event = event
        self.declaredEvent = -1
        self.attachment = nil
        self.id = nil
    }

    /// No timer: what an empty slot of a ``TimerQueue`` holds.
    @inlinable
    static var none: PendingTimer {
        PendingTimer(deadline: .max, serial: 0, owner: .min, kind: 0)
    }

    /// Whether this is ``none``.
    @inlinable
    var isNone: Bool { owner == .min }

    /// Whether this is a delayed event (otherwise a state's timeout, or ``none``).
    @inlinable
    var isDelayedEvent: Bool { owner < 0 && owner != .min }

    /// Whether this is a delayed event that a cancel of the identifier `id` removes, where `owner`
    /// is the owner of the sends written as data with `id` (-1 when there are none): one with
    /// that owner, or one with owner -1 and the string `id`.
    @inlinable
    func isCancelled(byID id: String, owner: Int32) -> Bool {
        self.owner == -1 ? self.id == id : self.owner == owner
    }

    /// The event the timer delivers, for a timer whose event is not among its machine's own
    /// (``declaredEvent`` is -1): `StateMachine.signal(of:)` reads any timer's.
    @inlinable
    var signal: Signal<Event> {
        isDelayedEvent ? Signal(kind: kind, event: event, attachment: attachment) : .timeout(kind: kind)
    }

    @inlinable
    func precedes(_ other: PendingTimer) -> Bool {
        (deadline, serial) < (other.deadline, other.serial)
    }
}

extension Signal: Sendable where Event: Sendable {}

extension PendingTimer: Sendable where Event: Sendable {}
