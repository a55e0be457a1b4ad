import Foundation

/// A program of the machine's (Graphviz's `dot`, `swiftc`) that a test reads its output back with.
enum ExternalTool {
    /// The program's path: `name` itself when it holds a slash, else the first on `PATH`.
    static func find(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the program with `input`, and returns its standard output; throws when it cannot be
    /// run or does not exit with 0. It is waited for on a Dispatch thread, not on the cooperative
    /// pool (two threads on two cores), which the rest of the suite needs meanwhile.
    static func run(_ name: String, _ arguments: [String], input: Data? = nil) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(name, arguments, input: input) })
            }
        }
    }

    /// ``run(_:_:input:)``, on the calling thread. Its outputs are read while it runs, so that
    /// neither fills.
    static func runBlocking(_ name: String, _ arguments: [String], input: Data? = nil) throws -> Data {
        guard let executable = find(name) else { throw Failure(description: "\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        let feed = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : feed
        try process.run()
        let collected = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            collected.setOutput(output.fileHandleForReading.readDataToEndOfFile())
        }
        DispatchQueue.global().async(group: group) {
            collected.setErrors(errors.fileHandleForReading.readDataToEndOfFile())
        }
        if let input {
            try? feed.fileHandleForWriting.write(contentsOf: input)
            try? feed.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: collected.errors.prefix(2000), as: UTF8.self)
            throw Failure(description: "\(name) exited with \(process.terminationStatus): \(message)")
        }
        return collected.output
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var storedOutput = Data()
        private var storedErrors = Data()
        func setOutput(_ data: Data) { lock.withLock { storedOutput = data } }
        func setErrors(_ data: Data) { lock.withLock { storedErrors = data } }
        var output: Data { lock.withLock { storedOutput } }
        var errors: Data { lock.withLock { storedErrors } }
    }
}
