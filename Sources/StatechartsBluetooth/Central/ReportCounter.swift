import Synchronization

/// Counts reports across tasks: those a central gave a subscriber, those a connection handled.
package final class ReportCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// A counter at zero.
    package init() {}

    /// Counts one.
    package func increment() { count.add(1, ordering: .sequentiallyConsistent) }

    /// The count.
    package var value: Int { count.load(ordering: .sequentiallyConsistent) }
}
