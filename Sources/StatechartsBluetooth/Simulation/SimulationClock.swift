/// The clock a ``SimulatedCentral`` runs on, whatever its type: sleeping, and the time since the
/// central was made.
struct SimulationClock: Sendable {
    /// Sleeps for a duration on the clock.
    let sleep: @Sendable (Duration) async throws -> Void
    /// The time on the clock since it was wrapped.
    let elapsed: @Sendable () -> Duration

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        sleep = { try await clock.sleep(for: $0) }
        elapsed = { start.duration(to: clock.now) }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
