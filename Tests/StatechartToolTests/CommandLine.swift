import Foundation
import Statecharts
import StatechartsTesting
import Testing

/// Runs the built `statechart` binary, as a user would.
enum CommandLine {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let fixtures = packageRoot.appendingPathComponent("Tests/StatechartToolTests/Fixtures")

    /// The binary `swift build` and `swift test` make, in the bin path of the build that runs
    /// these tests.
    static var binary: URL? { BuiltProducts.executable(named: "statechart") }

    static let missing: Comment = "the statechart binary is not built; run swift build"

    /// Thrown when the binary has not been built.
    struct MissingBinary: Error, CustomStringConvertible {
        var description: String { "the statechart binary is not built; run swift build" }
    }

    /// A new, empty temporary folder.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `statechart ARGUMENTS` in `directory`, with `input` on standard input. The process is
    /// waited for on a Dispatch thread, not on the cooperative pool (two threads on two cores),
    /// which the suite's tests on the real clock need meanwhile; and no more processes run at once
    /// than the machine has cores, so that a document's time limits are not spent waiting for a
    /// core.
    static func run(_ arguments: [String], in directory: URL? = nil, input: String? = nil) async throws -> Output {
        await processes.acquire()
        defer { processes.release() }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments, in: directory, input: input) })
            }
        }
    }

    /// The processes that may run at once.
    static let processes = Slots(ProcessInfo.processInfo.activeProcessorCount)

    /// A counting semaphore whose waiters wait without holding a thread.
    final class Slots: Sendable {
        private let state: Locked<(free: Int, waiters: [CheckedContinuation<Void, Never>])>

        init(_ count: Int) { state = Locked((max(count, 1), [])) }

        /// Takes a slot, waiting for one to be released when none is free.
        func acquire() async {
            await withCheckedContinuation { continuation in
                let granted = state.withLock { state in
                    guard state.free > 0 else {
                        state.waiters.append(continuation)
                        return false
                    }
                    state.free -= 1
                    return true
                }
                if granted { continuation.resume() }
            }
        }

        /// Gives the slot to the first waiter, or frees it.
        func release() {
            let next = state.withLock { state in
                guard !state.waiters.isEmpty else {
                    state.free += 1
                    return nil as CheckedContinuation<Void, Never>?
                }
                return state.waiters.removeFirst()
            }
            next?.resume()
        }
    }

    /// ``run(_:in:input:)``, on the calling thread.
    static func runBlocking(_ arguments: [String], in directory: URL?, input: String?) throws -> Output {
        guard let executable = binary else { throw MissingBinary() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
