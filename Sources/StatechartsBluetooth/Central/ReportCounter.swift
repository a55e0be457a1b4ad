import Statecharts

/// Counts reports across tasks: those a central gave a subscriber, those a connection handled.
package final class ReportCounter: Sendable {
    /// Behind a lock rather than in an `Atomic`, which needs macOS 15 and iOS 18.
    private let count = Locked(0)

    /// A counter at zero.
    package init() {}

    /// Counts one.
    package func increment() { count.withLock { $0 += 1 } }

    /// The count.
    package var value: Int { count.withLock { $0 } }
}
