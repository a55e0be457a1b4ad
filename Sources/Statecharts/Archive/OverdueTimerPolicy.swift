/// What a machine restored from a ``MachineArchive`` does with the timers whose deadline passed
/// while it was stored; see ``StateMachine/resume(after:overdueTimers:)``.
public enum OverdueTimerPolicy: String, Sendable, Hashable, Codable {
    /// Fire them, each at its own deadline and in deadline order, as if the machine had run all
    /// along: a connection attempt that timed out while the app was suspended has timed out.
    case fire
    /// Drop them: the machine goes on from where it was stored, without the timeouts and delayed
    /// events that fell due meanwhile.
    case drop
}
