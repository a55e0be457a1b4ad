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
/// Its thread runs at a lower priority than the pool's (``OwnThreadExecutor``): however many such
/// tests run at once, they take only the time the pool's threads leave, so they cannot crowd out
/// the wall-clock limits of the tests on the pool (a script's time, a connection's timeout).
package struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Held until the test and its child tasks are done: released, its thread ends.
        let executor = OwnThreadExecutor(label: test.name)
        try await withTaskExecutorPreference(executor) { try await function() }
        withExtendedLifetime(executor) {}
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test on a thread of its own, off Swift's pool: ``OwnThreadTrait``.
    package static var ownThread: Self { OwnThreadTrait() }
}
