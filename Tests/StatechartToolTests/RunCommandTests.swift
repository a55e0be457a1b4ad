import Foundation
import Testing

/// `statechart run`, run as a built binary.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct RunCommandTests {
    func golden(_ name: String) throws -> String {
        try String(contentsOf: CommandLine.fixtures.appendingPathComponent("golden/\(name)"), encoding: .utf8)
    }

    @Test("the README's first command: with no chart, the bundled media player runs its demonstration")
    func bundledDemo() throws {
        let output = try CommandLine.run(["run"])
        #expect(output.status == 0)
        #expect(output.standardError == "")
        #expect(output.standardOutput == (try golden("run-default.txt")))
    }

    @Test("the bundled chart is Examples/media-player.scxml, verbatim")
    func bundledChartIsTheExample() throws {
        let example = try String(
            contentsOf: CommandLine.packageRoot.appendingPathComponent("Examples/media-player.scxml"), encoding: .utf8)
        let scxml = try CommandLine.run(["graph", "--format", "scxml"]).standardOutput
        let fromFile = try CommandLine.run(["graph", "--format", "scxml", "Examples/media-player.scxml"]).standardOutput
        #expect(scxml == fromFile)
        #expect(example.contains("name=\"media-player\""))
    }

    @Test("--events: the shipped lamp, event by event and then a minute later")
    func lampEvents() throws {
        let output = try CommandLine.run(["run", "Examples/lamp.scxml", "--events", "toggle,brighter,wait 60s"])
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                start → [off]
                toggle → [dim]
                brighter → [bright]
                  log lamp: no one touched it for a minute
                wait 60s → [off]

                """)
    }

    @Test("--script: one step per line, comments and blank lines skipped; an unhandled event is marked")
    func script() throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("session.txt")
        try "# the lamp, left on\ntoggle\n\ntoggle\nwait 2m\ndimmer\n".write(
            to: script, atomically: true, encoding: .utf8)
        let output = try CommandLine.run(["run", "Examples/lamp.scxml", "--script", script.path])
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                start → [off]
                toggle → [dim]
                toggle → [off]
                wait 2m → [off]
                dimmer (not handled) → [off]

                """)
    }

    @Test("--json prints every step with its configuration, time and logs")
    func json() throws {
        let output = try CommandLine.run(["run", "Examples/lamp.scxml", "--events", "toggle,+60s", "--json"])
        #expect(output.status == 0)
        struct Step: Decodable {
            var step: String
            var active: [String]
            var configuration: [String]
            var time: Double
            var status: String
            var logs: [String]
            var handled: Bool?
        }
        let steps = try JSONDecoder().decode([Step].self, from: Data(output.standardOutput.utf8))
        #expect(steps.map(\.step) == ["start", "toggle", "wait 60s"])
        #expect(steps[1].configuration == ["on", "dim"])
        #expect(steps[1].handled == true)
        #expect(steps[2].time == 60)
        #expect(steps[2].logs == ["lamp: no one touched it for a minute"])
    }

    @Test("--trace prints the microsteps")
    func trace() throws {
        let output = try CommandLine.run(["run", "--trace", "Examples/lamp.scxml", "--events", "toggle"])
        #expect(output.standardOutput.contains("  toggle: exited [off], entered [on, dim]\n"))
    }

    @Test(
        "errors are one clear line and a non-zero status",
        arguments: [
            (
                ["run", "Examples/lamp.scxml", "--events", "wait soon"],
                "Error: 'wait soon' does not say how long to wait: write a duration such as 5s, 250ms, 2m or 1h\n"
            ),
            (
                ["run", "Examples/lamp.scxml", "--events", "toggle,fly"],
                "Error: the chart has no event 'fly'; its events are toggle, timeout, brighter, dimmer\n"
            ),
            (["run", "Examples/nowhere.scxml"], "Error: no such file: Examples/nowhere.scxml\n"),
            (["run", "Examples/lamp.scxml", "--script", "nowhere.txt"], "Error: no such file: nowhere.txt\n"),
        ])
    func errors(arguments: [String], message: String) throws {
        let output = try CommandLine.run(arguments)
        #expect(output.status != 0)
        #expect(output.standardError == message)
    }

    @Test("a malformed document is reported at its line and column")
    func malformedDocument() throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><transition event="go" target="nowhere"/></state>
        </scxml>
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try CommandLine.run(["run", file.path])
        #expect(output.status != 0)
        #expect(output.standardError.hasPrefix("Error: \(file.path):2:"))
        #expect(output.standardError.contains("nowhere"))
        #expect(output.standardError.split(separator: "\n").count == 1)
    }
}
