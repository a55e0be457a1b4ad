#if Store
/// One attempt to deliver an effect, as the fleet's delivery handler receives it.
public struct EffectDelivery<State, Event, Context>: Sendable
where State: Codable & Sendable, Event: Codable & Sendable, Context: Codable & Sendable {
    /// The effect's identity: the same on every attempt, so that the receiver can recognize a
    /// delivery it has already done (use ``EffectKey/description`` as an idempotency key).
    public var key: EffectKey
    /// The machine whose step asked for it.
    public var machine: String { key.machine }
    /// Which attempt this is, from 1.
    public var attempt: Int
    /// What to do.
    public var effect: DurableEffect<State, Event, Context>

    /// A delivery from its parts.
    public init(key: EffectKey, attempt: Int, effect: DurableEffect<State, Event, Context>) {
        self.key = key
        self.attempt = attempt
        self.effect = effect
    }
}
#endif
