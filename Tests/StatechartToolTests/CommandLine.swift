#if Tools
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

    static let missing: Comment = "the statechart binary is not built; run swift build --enable-all-traits"

    /// Thrown when the binary has not been built.
    struct MissingBinary: Error, CustomStringConvertible {
        var description: String { "the statechart binary is not built; run swift build --enable-all-traits" }
    }

    /// A new, empty temporary folder.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A document with three problems, on lines 2, 3 and 4: transitions to the states `nowhere`,
    /// `elsewhere` and `away`, which it does not have.
    static let threeProblems = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><transition event="go" target="nowhere"/></state>
          <state id="b"><transition event="go" target="elsewhere"/></state>
          <state id="c"><transition event="go" target="away"/></state>
        </scxml>
        """

    /// `text` written as `name` in a new temporary folder: remove the file's folder when done.
    static func document(_ text: String, named name: String) throws -> URL {
        let file = try temporaryDirectory().appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `statechart ARGUMENTS` in `directory`, with `input` on standard input. The process is
    /// waited for on a thread of its own (``ChildProcess``), not on the pool that the suite's tests
    /// on the real clock need meanwhile; and no more processes run at once than the machine has
    /// cores, so that a document's time limits are not spent waiting for a core.
    static func run(_ arguments: [String], in directory: URL? = nil, input: String? = nil) async throws -> Output {
        guard let executable = binary else { throw MissingBinary() }
        await processes.acquire()
        defer { processes.release() }
        let result = try await ChildProcess(
            executable: executable, arguments: arguments, workingDirectory: directory ?? packageRoot
        ).run(input: Data((input ?? "").utf8))
        return Output(status: result.status, standardOutput: result.outputText, standardError: result.errorText)
    }

    /// The processes that may run at once.
    static let processes = Slots(ProcessInfo.processInfo.activeProcessorCount)
}
#endif
