import Foundation
import StatechartTool
import Testing

/// `statechart run`, run as a built binary on the chart the README names.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct RunCommandTests {
    @Test("the README's first command: the shipped lamp, event by event and then a minute later")
    func lamp() throws {
        let output = try CommandLine.run(["run", "Examples/lamp.scxml", "toggle", "brighter", "+60s"])
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                start → [off]
                toggle → [dim]
                brighter → [bright]
                  log lamp: no one touched it for a minute
                +60s → [off]

                """)
    }

    @Test("leaving the state cancels its delayed event; an unhandled event is marked")
    func cancelledTimer() throws {
        let output = try CommandLine.run(["run", "Examples/lamp.scxml", "toggle", "toggle", "+2m", "dimmer"])
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                start → [off]
                toggle → [dim]
                toggle → [off]
                +2m → [off]
                dimmer (not handled) → [off]

                """)
    }

    @Test("--trace prints the microsteps")
    func trace() throws {
        let output = try CommandLine.run(["run", "--trace", "Examples/lamp.scxml", "toggle"])
        #expect(output.standardOutput.contains("  toggle: exited [\"off\"], entered [\"on\", \"dim\"]\n"))
    }

    @Test("a step that is not a duration is one clear line and a non-zero status")
    func badDuration() throws {
        let output = try CommandLine.run(["run", "Examples/lamp.scxml", "+soon"])
        #expect(output.status != 0)
        #expect(output.standardError == "Error: '+soon' is not a duration such as +5s, +250ms, +2m or +1h\n")
    }

    @Test("a malformed document is reported at its line and column")
    func malformedDocument() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="a"><transition event="go" target="nowhere"/></state>
        </scxml>
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try CommandLine.run(["run", file.path])
        #expect(output.status != 0)
        #expect(output.standardError.contains("broken.scxml:2:"))
        #expect(output.standardError.contains("nowhere"))
    }
}
