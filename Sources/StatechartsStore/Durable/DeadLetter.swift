#if Store
/// A dead letter: an effect that exhausted its retry policy, with why its last attempt failed.
public struct DeadLetter<State, Event, Context>: Sendable
where State: Codable & Sendable, Event: Codable & Sendable, Context: Codable & Sendable {
    /// The effect's identity; ``DurableMachines/retryDeadLetter(_:)`` takes it.
    public var key: EffectKey
    /// How many attempts were made.
    public var attempts: Int
    /// Why the last one failed.
    public var error: String
    /// The effect, or `nil` when it no longer decodes with the fleet's types (see ``payload``).
    public var effect: DurableEffect<State, Event, Context>?
    /// The effect as the outbox keeps it (JSON).
    public var payload: String
}
#endif
