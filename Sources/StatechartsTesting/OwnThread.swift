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

/// A task executor with a thread of its own, at a lower priority than Swift's pool: the jobs of
/// one test that computes for seconds.
///
/// Its thread runs the jobs in order and ends once the executor is released and no job is left.
/// On Linux its nice value is 10, a per-thread attribute there, so that when the cores are busy
/// the pool's threads (and the timers, streams and actors of the tests on them) come first; the
/// executor's work takes what they leave. Elsewhere its quality of service is `utility`.
package final class OwnThreadExecutor: TaskExecutor {
    private let jobs = JobQueue()

    /// An executor whose thread is named `label` in a debugger.
    package init(label: String) {
        let jobs = jobs
        let thread = Thread { jobs.run() }
        thread.name = label
        thread.stackSize = OwnThread.stackSize
        #if !canImport(Glibc)
        thread.qualityOfService = .utility
        #endif
        thread.start()
    }

    deinit { jobs.close() }

    package func enqueue(_ job: consuming ExecutorJob) {
        jobs.push(UnownedJob(job), on: asUnownedTaskExecutor())
    }

    /// The jobs waiting for the thread, and whether more can come.
    private final class JobQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var waiting: [(job: UnownedJob, executor: UnownedTaskExecutor)] = []
        private var closed = false

        func push(_ job: UnownedJob, on executor: UnownedTaskExecutor) {
            condition.withLock {
                waiting.append((job, executor))
                condition.signal()
            }
        }

        func close() {
            condition.withLock {
                closed = true
                condition.signal()
            }
        }

        /// The thread's loop: runs each job as it comes, until closed and empty.
        func run() {
            #if canImport(Glibc)
            // Linux: `who` 0 is the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            while true {
                let next: (job: UnownedJob, executor: UnownedTaskExecutor)? = condition.withLock {
                    while waiting.isEmpty && !closed { condition.wait() }
                    return waiting.isEmpty ? nil : waiting.removeFirst()
                }
                guard let next else { return }
                next.job.runSynchronously(on: next.executor)
            }
        }
    }
}
