import Foundation
import StatechartsTesting

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
    /// run or does not exit with 0. It is waited for on a thread of its own (``OwnThread``), not
    /// on the pool the rest of the suite's tasks need meanwhile.
    static func run(_ name: String, _ arguments: [String], input: Data? = nil) async throws -> Data {
        guard let executable = find(name) else { throw Failure(description: "\(name) is not installed") }
        let result = try await ChildProcess(executable: URL(fileURLWithPath: executable), arguments: arguments)
            .run(input: input)
        guard result.status == 0, !result.killedBySignal else {
            throw Failure(description: "\(name) \(result.ending): \(result.errorText.prefix(2000))")
        }
        return result.output
    }
}
