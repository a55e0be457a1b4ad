#if Tools
import Foundation
import StatechartsTesting
import Testing

/// `statechart generate`, and `statechart-generate`, which the build plugin runs.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct GenerateCommandTests {
    static let broken = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
          <state id="a">
            <transition event="go" target="nowhere"/>
          </state>
          <state id="b-c"/>
          <state id="b_c"/>
        </scxml>
        """

    @Test func theBundledPlayerIsWrittenToStandardOutputOrAFile() async throws {
        let printed = try await CommandLine.run(["generate", "Examples/media-player.scxml"])
        #expect(printed.status == 0)
        #expect(printed.standardOutput.contains("nonisolated enum MediaPlayer {"))
        let checkedIn = try String(
            contentsOf: CommandLine.packageRoot.appending(path: "Tests/GeneratedChartTests/MediaPlayer.swift"),
            encoding: .utf8)
        #expect(printed.standardOutput == checkedIn)

        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "Player.swift")
        let written = try await CommandLine.run([
            "generate", "Examples/media-player.scxml", "--name", "Player", "--access", "public", "-o", file.path,
        ])
        #expect(written.status == 0)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("public nonisolated enum Player {"))
    }

    @Test func problemsArePrintedAtTheirFileLineAndColumn() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appending(path: "broken.scxml")
        try Self.broken.write(to: document, atomically: true, encoding: .utf8)
        let output = try await CommandLine.run(["generate", document.path])
        #expect(output.status != 0)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.contains("\(document.path):3:5: error:"))
        #expect(output.standardError.contains("nowhere"))

        // The plugin's tool says the same, one problem per line, as the compiler prints them.
        let tool = try #require(BuiltProducts.executable(named: "statechart-generate"))
        let out = directory.appending(path: "broken.swift")
        let result = try await ChildProcess(executable: tool, arguments: [document.path, out.path]).run()
        #expect(result.status == 1)
        #expect(result.errorText.hasPrefix("\(document.path):3:5: error:"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func thePluginsToolWritesTheSameSwiftAndLeavesAnUnchangedFileAlone() async throws {
        let tool = try #require(BuiltProducts.executable(named: "statechart-generate"))
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appending(path: "media-player.swift")
        func generate() async throws -> Int32 {
            let document = CommandLine.packageRoot.appending(path: "Examples/media-player.scxml")
            return try await ChildProcess(executable: tool, arguments: [document.path, out.path]).run().status
        }
        #expect(try await generate() == 0)
        let printed = try await CommandLine.run(["generate", "Examples/media-player.scxml"])
        #expect(try String(contentsOf: out, encoding: .utf8) == printed.standardOutput)
        let written = try FileManager.default.attributesOfItem(atPath: out.path)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await generate() == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: out.path)[.modificationDate] as? Date == written)
    }
}
#endif
