#if Store
/// The kinds of ``DurableEffect``, each of which may have its own ``RetryPolicy``.
public enum EffectKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// An event sent outside the fleet.
    case send
    /// A log record.
    case log
    /// An invocation to start.
    case startInvocation
    /// An invocation to stop.
    case cancelInvocation
    /// An invocation's work, run by the fleet's workers as an activity (``DurableActivity``).
    case activity
}
#endif
