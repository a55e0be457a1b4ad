#if Store
/// What came of one attempt to deliver an outbox entry.
public struct EffectOutcome: Sendable, Hashable {
    /// The entry.
    public var key: EffectKey
    /// The attempt it was (the entry's ``OutboxEntry/attempts`` when it was claimed): a result for
    /// an attempt that is no longer the latest (its lease ran out and another worker claimed the
    /// entry) changes nothing but a delivery.
    public var attempt: Int
    /// What to do with the entry.
    public var result: Result

    /// What to do with an entry after an attempt.
    public enum Result: Sendable, Hashable {
        /// It was delivered: remove it.
        case delivered
        /// It failed: try again at this time (nanoseconds since 1970).
        case retry(at: Int64, error: String)
        /// It failed and its policy is exhausted: keep it as a dead letter.
        case deadLetter(error: String)
    }

    /// An outcome from its parts.
    public init(key: EffectKey, attempt: Int, result: Result) {
        self.key = key
        self.attempt = attempt
        self.result = result
    }
}
#endif
