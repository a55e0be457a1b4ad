import Foundation
import Testing

/// A trait that runs each test of a suite, or a test, on a thread of its own: for tests that
/// compute for seconds without waiting (random charts, property checks, large documents).
///
/// The test's task prefers an ``OwnThreadExecutor`` (`withTaskExecutorPreference`), so its
/// nonisolated code, and that of the tasks it starts, runs there instead of on Swift's pool,
/// which has as many threads as the machine has cores. Left on the pool, two such tests on two
/// cores stop every other test's timers, streams and actors for as long as they compute, and a
/// test on the real clock then fails for want of a thread, not for a fault of its own. Code
/// isolated to an actor still runs on that actor's executor.
///
/// No more such tests run at once than the machine has cores; the others wait for a slot without
/// holding a thread. More would crowd out the pool's own threads on the cores, and the wall-clock
/// limits of the tests on the pool (a script's time, a connection's timeout) with them. A test's
/// time limit counts its wait for a slot. (A lower priority for these threads, instead of slots,
/// was tried: under the thread sanitizer the tests on the pool then ran out of time, most likely
/// waiting on locks that the low-priority threads held.)
package struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.slots.holding {
            // Task executors need macOS 15 and iOS 18; before, the test runs on the pool.
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                try await withTaskExecutorPreference(OwnThreadExecutor(label: test.name)) { try await function() }
            } else {
                try await function()
            }
        }
    }

    /// The tests that may run at once on threads of their own.
    static let slots = Slots(ProcessInfo.processInfo.activeProcessorCount)
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test on a thread of its own, off Swift's pool: ``OwnThreadTrait``.
    package static var ownThread: Self { OwnThreadTrait() }
}
