#if Store
/// What a worker asks a store for when it delivers effects.
public struct EffectClaimRequest: Sendable {
    /// The time, in nanoseconds since 1970: entries due by then are claimed.
    public var now: Int64
    /// At most this many entries.
    public var limit: Int
    /// How long a worker holds an entry of each kind (its ``OutboxEntry/kind``) before another
    /// may claim it again, in nanoseconds.
    public var lease: @Sendable (String) -> Int64

    /// A request from its parts.
    public init(now: Int64, limit: Int, lease: @escaping @Sendable (String) -> Int64) {
        self.now = now
        self.limit = limit
        self.lease = lease
    }
}
#endif
