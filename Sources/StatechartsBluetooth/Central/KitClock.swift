/// The clock the kit's waits run on, whatever its type: a wait is timed from when it is asked
/// for, not from when the task that waits first runs, so that on a test clock a delay or a
/// timeout ends at a known instant however the tasks are scheduled.
struct KitClock: Sendable {
    /// Fixes the deadline `duration` from now and gives the wait until it.
    let deadline: @Sendable (Duration) -> @Sendable () async throws -> Void
    /// The time on the clock since it was wrapped.
    let elapsed: @Sendable () -> Duration

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        deadline = { duration in
            let instant = clock.now.advanced(by: duration)
            return { try await clock.sleep(until: instant, tolerance: nil) }
        }
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
