#if Store
/// An effect of a durable machine's step, kept in the store's outbox from the transaction that
/// applied the step until a worker has delivered it.
///
/// A store keeps effects as text, as it keeps events: ``DurableMachines`` encodes and decodes
/// them. An entry is due at ``dueAt``; a worker that claims it moves ``dueAt`` past the end of its
/// lease, so that the entry is claimed again, by any worker, if the one that holds it dies.
public struct OutboxEntry: Sendable, Hashable {
    /// Which machine's step asked for it, and where in the step: stable across every retry.
    public var key: EffectKey
    /// What kind of effect it is (an ``EffectKind``'s raw value, or `fleetSend` for a delayed
    /// send to another machine of the fleet).
    public var kind: String
    /// The identifier the sending step gave a delayed send, which a later step may cancel it by;
    /// for an activity (kind ``activityKind``), its invocation's number, by which exiting its
    /// state cancels it.
    public var sendID: String?
    /// The effect, as JSON.
    public var payload: String
    /// When it is next to be delivered, in nanoseconds since 1970.
    public var dueAt: Int64
    /// How many times a worker has claimed it.
    public var attempts: Int
    /// Why the last attempt failed.
    public var lastError: String?
    /// Whether it exhausted its retry policy: a dead letter, left for an operator to retry.
    public var isDeadLetter: Bool

    /// An entry from its parts.
    public init(
        key: EffectKey, kind: String, sendID: String? = nil, payload: String, dueAt: Int64, attempts: Int = 0,
        lastError: String? = nil, isDeadLetter: Bool = false
    ) {
        self.key = key
        self.kind = kind
        self.sendID = sendID
        self.payload = payload
        self.dueAt = dueAt
        self.attempts = attempts
        self.lastError = lastError
        self.isDeadLetter = isDeadLetter
    }

    /// The kind of an activity: an invocation's work, run by the fleet's workers.
    public static var activityKind: String { EffectKind.activity.rawValue }
}
#endif
