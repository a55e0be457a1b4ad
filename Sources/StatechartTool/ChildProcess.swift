import Foundation

/// A program the tool runs (Graphviz's `dot`, a differential oracle), fed and read without
/// deadlock and judged by how it ended.
///
/// Its input is written and its two outputs are read on threads of their own, so that a child
/// that writes much on one pipe while the tool waits on another cannot stall either. The tool
/// ignores SIGPIPE (``ignoreBrokenPipes()``), so that a child that exits before it has read all
/// its input ends the write with an error instead of killing the tool; that child is then reported
/// by its status.
struct ChildProcess {
    /// What the child wrote, and how it ended.
    struct Result {
        var output: Data
        var errors: Data
        var status: Int32
        var killedBySignal: Bool

        /// `exited with status 2` or `was killed by signal 9`.
        var ending: String {
            killedBySignal ? "was killed by signal \(status)" : "exited with status \(status)"
        }

        /// The last line the child wrote on standard error (printed through the tool's printable
        /// path, as every message is).
        var lastError: String {
            String(decoding: errors, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        }
    }

    /// Why the child could not be started.
    struct LaunchError: Error {
        var message: String
    }

    let executable: URL
    let arguments: [String]

    /// Runs the child with `input` on its standard input, stopping it after `timeout` when one is
    /// given, and returns once it has ended and both outputs are read.
    func run(input: Data? = nil, timeout: Duration? = nil) throws(LaunchError) -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
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
        let group = DispatchGroup()
        let output = Collected()
        let errors = Collected()
        DispatchQueue.global().async(group: group) {
            output.set(outputPipe.fileHandleForReading.readDataToEndOfFile())
        }
        DispatchQueue.global().async(group: group) {
            errors.set(errorPipe.fileHandleForReading.readDataToEndOfFile())
        }
        if let input {
            let writer = inputPipe.fileHandleForWriting
            DispatchQueue.global().async(group: group) {
                // A child that exits early closes its end: the write fails (EPIPE), and the
                // child's status says why.
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
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
        group.wait()
        return Result(
            output: output.value, errors: errors.value, status: process.terminationStatus,
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }

    /// Makes a write to a pipe whose reader has gone fail with EPIPE instead of killing the tool
    /// with SIGPIPE: `statechart graph … | head -1`, or a `dot` that exits early.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Data written by one thread and read after the group is done.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        func set(_ value: Data) { lock.withLock { data = value } }
        var value: Data { lock.withLock { data } }
    }
}
