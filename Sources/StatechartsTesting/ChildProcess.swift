import Foundation

/// A program the tool or a test runs (Graphviz's `dot`, a differential oracle, `swiftc`, the
/// built `statechart`), fed and read without deadlock and judged by how it ended.
///
/// Its input is written and its two outputs are read on threads of their own (``OwnThread``, not
/// Dispatch's pool, which Swift's tasks share), so that a child that writes much on one pipe while
/// the caller waits on another cannot stall either. The tool ignores SIGPIPE
/// (``ignoreBrokenPipes()``), so that a child that exits before it has read all its input ends the
/// write with an error instead of killing the tool; that child is then reported by its status.
package struct ChildProcess: Sendable {
    /// What the child wrote, and how it ended.
    package struct Result: Sendable {
        package var output: Data
        package var errors: Data
        package var status: Int32
        package var killedBySignal: Bool

        /// What the child wrote on standard output, as text.
        package var outputText: String { String(decoding: output, as: UTF8.self) }
        /// What the child wrote on standard error, as text.
        package var errorText: String { String(decoding: errors, as: UTF8.self) }

        /// `exited with status 2` or `was killed by signal 9`.
        package var ending: String {
            killedBySignal ? "was killed by signal \(status)" : "exited with status \(status)"
        }

        /// The last line the child wrote on standard error (printed through the tool's printable
        /// path, as every message is).
        package var lastError: String {
            String(decoding: errors, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        }
    }

    /// Why the child could not be started.
    package struct LaunchError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    package let executable: URL
    package let arguments: [String]
    /// The folder the child starts in: the caller's when `nil`.
    package let workingDirectory: URL?

    /// A child that runs `executable` with `arguments` in `workingDirectory`.
    package init(executable: URL, arguments: [String], workingDirectory: URL? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.workingDirectory = workingDirectory
    }

    /// ``run(input:timeout:)`` on a thread of its own: the caller's task waits without holding a
    /// thread of the pool.
    package func run(input: Data? = nil, timeout: Duration? = nil) async throws(LaunchError) -> Result {
        let outcome = await OwnThread.run { () -> Swift.Result<Result, LaunchError> in
            do throws(LaunchError) {
                return .success(try run(input: input, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Runs the child with `input` on its standard input, stopping it after `timeout` when one is
    /// given, and returns once it has ended and both outputs are read. It blocks the calling thread.
    package func run(input: Data? = nil, timeout: Duration? = nil) throws(LaunchError) -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        do {
            try process.run()
        } catch {
            throw LaunchError(message: "cannot run \(executable.path): \(error.localizedDescription)")
        }
        let output = Collected()
        let errors = Collected()
        var threads = [
            OwnThread.start { output.set(outputPipe.fileHandleForReading.readDataToEndOfFile()) },
            OwnThread.start { errors.set(errorPipe.fileHandleForReading.readDataToEndOfFile()) },
        ]
        if let input {
            let writer = inputPipe.fileHandleForWriting
            threads.append(
                OwnThread.start {
                    // A child that exits early closes its end: the write fails (EPIPE), and the
                    // child's status says why.
                    try? writer.write(contentsOf: input)
                    try? writer.close()
                })
        }
        var watchdog: DispatchWorkItem?
        if let timeout {
            let item = DispatchWorkItem { [process] in
                if process.isRunning { process.terminate() }
            }
            let (seconds, attoseconds) = timeout.components
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)),
                execute: item)
            watchdog = item
        }
        process.waitUntilExit()
        watchdog?.cancel()
        for thread in threads { thread.join() }
        return Result(
            output: output.value, errors: errors.value, status: process.terminationStatus,
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }

    /// Makes a write to a pipe whose reader has gone fail with EPIPE instead of killing the tool
    /// with SIGPIPE: `statechart graph … | head -1`, or a `dot` that exits early.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Data written by one thread and read after it has ended.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        func set(_ value: Data) { lock.withLock { data = value } }
        var value: Data { lock.withLock { data } }
    }
}
