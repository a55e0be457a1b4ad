import Foundation

/// Blocking work (a child process, a socket, seconds of computation) run on a thread of its own,
/// for the package's tool and tests.
///
/// On Linux, Swift's cooperative pool and `DispatchQueue.global()` are the same threads, as many
/// as the machine has cores. Work that blocks one of them (waiting for a process, reading a pipe,
/// computing for seconds) holds up every task of the process: on two cores, two such pieces of
/// work stop every timer, stream and actor until they end, and a chart on the real clock then
/// sees its timeouts fire before the events that were due long before them. A thread of its own
/// leaves the pool to the tasks, and the system's scheduler shares the cores between them.
package enum OwnThread {
    /// The stack of each thread: the size of a main thread's, for recursive parsers and deep charts.
    package static let stackSize = 8 << 20

    /// Runs `body` on a new thread and returns what it returns, without holding a thread of the
    /// pool while it runs.
    package static func run<Value: Sendable>(
        _ body: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body`, which cannot throw, on a new thread and returns what it returns.
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: body()) }
        }
    }

    /// Starts `body` on a new thread; ``Started/join()`` waits for it to end.
    @discardableResult
    package static func start(_ body: @escaping @Sendable () -> Void) -> Started {
        let started = Started()
        let thread = Thread {
            body()
            started.ended.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        return started
    }

    /// A thread started by ``OwnThread/start(_:)``.
    package final class Started: Sendable {
        fileprivate let ended = DispatchSemaphore(value: 0)

        /// Blocks the calling thread until the thread's work has ended. Call it once.
        package func join() { ended.wait() }
    }
}

/// A task executor with a thread of its own: a serial Dispatch queue, which Dispatch gives a
/// thread outside the pool that Swift's tasks share. Task executors need macOS 15 and iOS 18.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
package final class OwnThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor whose thread is named `label` in a debugger.
    package init(label: String) { queue = DispatchQueue(label: label) }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
