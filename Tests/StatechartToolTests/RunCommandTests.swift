#if Tools
import Foundation
import StatechartTool
import StatechartsSCXML
import Testing

/// `statechart run`, run as a built binary.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct RunCommandTests {
    func golden(_ name: String) throws -> String {
        try String(contentsOf: CommandLine.fixtures.appendingPathComponent("golden/\(name)"), encoding: .utf8)
    }

    @Test("the README's first command: with no chart, the bundled media player runs its demonstration")
    func bundledDemo() async throws {
        let output = try await CommandLine.run(["run"])
        #expect(output.status == 0)
        #expect(output.standardError == "")
        #expect(output.standardOutput == (try golden("run-default.txt")))
    }

    @Test("the bundled chart is Examples/media-player.scxml, verbatim")
    func bundledChartIsTheExample() async throws {
        let example = try String(
            contentsOf: CommandLine.packageRoot.appendingPathComponent("Examples/media-player.scxml"), encoding: .utf8)
        let scxml = try await CommandLine.run(["graph", "--format", "scxml"]).standardOutput
        let fromFile = try await CommandLine.run(["graph", "--format", "scxml", "Examples/media-player.scxml"])
            .standardOutput
        #expect(scxml == fromFile)
        #expect(example.contains("name=\"media-player\""))
    }

    @Test("--events: the shipped lamp, event by event and then a minute later")
    func lampEvents() async throws {
        let output = try await CommandLine.run(["run", "Examples/lamp.scxml", "--events", "toggle,brighter,wait 60s"])
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

    @Test("--clock real: `wait 1s` takes a second of wall-clock time, and the run prints what the virtual clock prints")
    func realClock() async throws {
        let steps = ["run", "Examples/lamp.scxml", "--events", "toggle,wait 1s"]
        let virtual = try await CommandLine.run(steps)
        let start = ContinuousClock.now
        let real = try await CommandLine.run(steps + ["--clock", "real"])
        let took = ContinuousClock.now - start
        #expect(real.status == 0)
        #expect(real.standardOutput == virtual.standardOutput)
        #expect(real.standardOutput == "start → [off]\ntoggle → [dim]\nwait 1s → [dim]\n")
        #expect(took >= .seconds(1), "the wait took \(took)")
    }

    @Test("--script: one step per line, comments and blank lines skipped; an unhandled event is marked")
    func script() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("session.txt")
        try "# the lamp, left on\ntoggle\n\ntoggle\nwait 2m\ndimmer\n".write(
            to: script, atomically: true, encoding: .utf8)
        let output = try await CommandLine.run(["run", "Examples/lamp.scxml", "--script", script.path])
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

    /// One line of `run --json`.
    struct JSONStep: Decodable {
        struct Event: Decodable, Equatable {
            var name: String
            var data: SCXMLValue?
        }
        struct Transition: Decodable, Equatable {
            var event: String?
            var source: String?
            var targets: [String]
        }
        var step: String
        var event: Event?
        var transitions: [Transition]
        var exited: [String]
        var entered: [String]
        var active: [String]
        var configuration: [String]
        var time: Double
        var status: String
        var logs: [String]
        var handled: Bool?
    }

    /// The lines of `output`, each decoded on its own: JSON Lines.
    func jsonLines(_ output: String) throws -> [JSONStep] {
        try output.split(separator: "\n").map { try JSONDecoder().decode(JSONStep.self, from: Data($0.utf8)) }
    }

    @Test("--json prints JSON Lines: each step, and each instant at which timers fire, as it happens")
    func json() async throws {
        let output = try await CommandLine.run(["run", "Examples/lamp.scxml", "--events", "toggle,+60s", "--json"])
        #expect(output.status == 0)
        let steps = try jsonLines(output.standardOutput)
        #expect(steps.map(\.step) == ["start", "toggle", "wait 60s (at 60.0 seconds)", "wait 60s"])
        #expect(steps[0].transitions == [.init(event: nil, source: nil, targets: ["off"])])
        #expect(steps[1].event == .init(name: "toggle", data: nil))
        #expect(steps[1].transitions == [.init(event: "toggle", source: "off", targets: ["on"])])
        #expect(steps[1].exited == ["off"])
        #expect(steps[1].entered == ["on", "dim"])
        #expect(steps[1].configuration == ["on", "dim"])
        #expect(steps[1].handled == true)
        #expect(steps[2].time == 60)
        #expect(steps[2].transitions == [.init(event: "timeout", source: "on", targets: ["off"])])
        #expect(steps[2].logs == ["lamp: no one touched it for a minute"])
        #expect(steps[3].time == 60)
        #expect(steps[3].transitions.isEmpty)
    }

    @Test("-e NAME=JSON sends the event with its data, which guards read; -e steps run in order")
    func eventData() async throws {
        let file = try CommandLine.document(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="out">
              <state id="out">
                <transition event="login" cond="_event.data.user === 'ann' &amp;&amp; _event.data.codes[1] === 2" target="in"/>
              </state>
              <state id="in"><transition event="logout" target="out"/></state>
            </scxml>
            """, named: "login.scxml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let output = try await CommandLine.run([
            "run", file.path, "-e", #"login={"user": "bob", "codes": [1, 2]}"#, "-e", "wait 1s",
            "-e", #"login={"user": "ann", "codes": [1, 2]}"#, "--json",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        let steps = try jsonLines(output.standardOutput)
        #expect(steps.map(\.active) == [["out"], ["out"], ["out"], ["in"]])
        #expect(steps.map(\.handled) == [nil, false, nil, true])
        #expect(steps[3].event?.data == .object(["user": .string("ann"), "codes": .array([.number(1), .number(2)])]))
        let text = try await CommandLine.run(["run", file.path, "-e", "login=\"ann\"", "-e", "+1s"])
        #expect(text.standardOutput == "start → [out]\nlogin=\"ann\" (not handled) → [out]\nwait 1s → [out]\n")
    }

    @Test(
        "under --json, a usage, data, load or run failure is one JSON object and a non-zero status",
        arguments: [
            (["run", "--bogus"], 64, "Unknown option '--bogus'"),
            (
                ["run", "-e", "toggle", "--events", "toggle"], 64,
                "give the steps one way: -e/--event, --events or --script"
            ),
            (
                ["run", "Examples/lamp.scxml", "-e", "toggle={bad"], 1,
                #"the data of event 'toggle' is not JSON: {bad (write it as JSON: 2, "text", [1, 2] or {"key": 1})"#
            ),
            (
                ["run", "Examples/lamp.scxml", "-e", "fly"], 1,
                "the chart has no event 'fly'; its events are toggle, timeout, brighter, dimmer"
            ),
            (["check", "Examples/nowhere.scxml"], 1, "no such file: Examples/nowhere.scxml"),
        ])
    func jsonErrors(arguments: [String], status: Int32, message: String) async throws {
        let output = try await CommandLine.run(arguments + ["--json"])
        #expect(output.status == status)
        let lines = output.standardOutput.split(separator: "\n")
        let last = try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any]
        let error = try #require(last?["error"] as? [String: Any])
        #expect(error["message"] as? String == message)
        #expect(error["file"] is NSNull)
        #expect(error.keys.sorted() == ["column", "file", "line", "message"])
        let problems = try #require(last?["errors"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["message"] as? String == message)
        #expect(problems.first?["severity"] as? String == "error")
    }

    @Test("under --json, a document that cannot be built is reported with its file, line and column")
    func jsonLoadError() async throws {
        let file = try CommandLine.document(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><transition event="go" target="nowhere"/></state>
            </scxml>
            """, named: "broken.scxml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        for command in ["run", "check"] {
            let output = try await CommandLine.run([command, file.path, "--json"])
            #expect(output.status == 1)
            let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
            let error = try #require(object?["error"] as? [String: Any])
            #expect(error["file"] as? String == file.path)
            #expect(error["line"] as? Int == 2)
            #expect((error["column"] as? Int ?? 0) > 0)
            #expect((error["message"] as? String ?? "").contains("nowhere"))
        }
    }

    @Test("a document with three problems: the text gives each at the start of its line, the JSON all three")
    func everyProblem() async throws {
        let file = try CommandLine.document(CommandLine.threeProblems, named: "three.scxml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let plain = try await CommandLine.run(["run", file.path])
        #expect(plain.status == 1)
        let lines = plain.standardError.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.hasPrefix("\(file.path):") && $0.contains(": error: ") } == [true, true, true])
        #expect(lines.map { $0.split(separator: ":").dropFirst().first } == ["2", "3", "4"])
        for command in ["run", "check"] {
            let output = try await CommandLine.run([command, file.path, "--json"])
            #expect(output.status == 1)
            let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
            let problems = try #require(object?["errors"] as? [[String: Any]])
            #expect(problems.map { $0["line"] as? Int } == [2, 3, 4])
            #expect(problems.map { $0["file"] as? String } == Array(repeating: file.path, count: 3))
            #expect(
                zip(problems, ["nowhere", "elsewhere", "away"]).allSatisfy { problem, target in
                    (problem["message"] as? String ?? "").contains(target) && problem["severity"] as? String == "error"
                })
            let error = try #require(object?["error"] as? [String: Any])
            #expect(error["message"] as? String == problems.first?["message"] as? String, "no \"(and 2 more)\"")
        }
    }

    @Test("--version prints the version the changelog and the README name")
    func version() async throws {
        let output = try await CommandLine.run(["--version"])
        #expect(output.status == 0)
        let version = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version == StatechartCommand.version)
        let release = String(version.prefix { $0 != "-" })
        for file in ["CHANGELOG.md", "README.md"] {
            let text = try String(contentsOf: CommandLine.packageRoot.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains(release), "\(file) names \(release)")
        }
    }

    @Test("completion scripts: argument-parser writes one for each shell, with the subcommands")
    func completion() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let output = try await CommandLine.run(["--generate-completion-script", shell])
            #expect(output.status == 0)
            #expect(output.standardOutput.contains("differential"))
        }
    }

    @Test("--trace prints the microsteps")
    func trace() async throws {
        let output = try await CommandLine.run(["run", "--trace", "Examples/lamp.scxml", "--events", "toggle"])
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
    func errors(arguments: [String], message: String) async throws {
        let output = try await CommandLine.run(arguments)
        #expect(output.status != 0)
        #expect(output.standardError == message)
    }

    @Test("a malformed document is reported at its line and column")
    func malformedDocument() async throws {
        let file = try CommandLine.document(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><transition event="go" target="nowhere"/></state>
            </scxml>
            """, named: "broken.scxml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let output = try await CommandLine.run(["run", file.path])
        #expect(output.status != 0)
        // As a compiler writes it, so that editors and CI annotations find it: no `Error: ` before.
        #expect(output.standardError.hasPrefix("\(file.path):2:"))
        #expect(output.standardError.contains(": error: "))
        #expect(output.standardError.contains("nowhere"))
        #expect(output.standardError.split(separator: "\n").count == 1)
    }
}
#endif
