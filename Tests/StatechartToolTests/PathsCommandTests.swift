#if Tools
import Foundation
import StatechartsTesting
import Testing

/// `statechart paths`, and `statechart test --coverage`, run as a built binary.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct PathsCommandTests {
    struct Path: Decodable {
        struct Transition: Decodable {
            var source: String?
            var event: String?
            var targets: [String]
        }
        var events: [String]
        var configuration: [String]
        var transitions: [Transition]
    }

    struct RunLine: Decodable {
        var configuration: [String]
    }

    @Test(
        "every path, replayed with run --events, ends in its configuration; the transition cover takes every transition",
        arguments: ["Examples/lamp.scxml", "Examples/media-player.scxml"], ["states", "transitions"])
    func pathsReplay(chart: String, cover: String) async throws {
        let output = try await CommandLine.run(["paths", chart, "--cover", cover, "--json"])
        #expect(output.status == 0, "\(output.standardError)")
        let paths = try JSONDecoder().decode([Path].self, from: Data(output.standardOutput.utf8))
        #expect(!paths.isEmpty)
        for path in paths where !path.events.isEmpty {
            let run = try await CommandLine.run([
                "run", chart, "--json", "--events", path.events.joined(separator: ","),
            ])
            let last = try #require(run.standardOutput.split(separator: "\n").last)
            let line = try JSONDecoder().decode(RunLine.self, from: Data(last.utf8))
            #expect(line.configuration == path.configuration, "\(path.events)")
        }
        if cover == "transitions" {
            // Every transition of the examples can be taken: nothing is left uncovered.
            #expect(output.standardError.isEmpty)
            let taken = Set(paths.flatMap { $0.transitions.map { "\($0.source ?? "")|\($0.event ?? "")" } })
            #expect(taken.count >= (chart.hasSuffix("lamp.scxml") ? 4 : 10))
        } else {
            let configurations = paths.map { Set($0.configuration) }
            #expect(Set(configurations).count == configurations.count, "one path per configuration")
        }
    }

    @Test("a document's timers fire by waiting, never as sent events; each line ends in the states run prints")
    func timersAsTime() async throws {
        let lamp = try await CommandLine.run(["paths", "Examples/lamp.scxml"])
        #expect(lamp.status == 0, "\(lamp.standardError)")
        #expect(
            lamp.standardOutput
                == "toggle, toggle → [off]\ntoggle, wait 60s → [off]\ntoggle, brighter, dimmer → [dim]\n")
        let player = try await CommandLine.run(["paths", "Examples/media-player.scxml", "--json"])
        let paths = try JSONDecoder().decode([Path].self, from: Data(player.standardOutput.utf8))
        let steps = Set(paths.flatMap(\.events))
        #expect(steps.isDisjoint(with: ["tick", "idle"]), "the player's timers are not sent: \(steps)")
        #expect(steps.isSuperset(of: ["wait 1s", "wait 300s"]))
        let replayed = try await CommandLine.run(["run", "Examples/lamp.scxml", "--events", "toggle,wait 60s"])
        #expect(replayed.standardOutput.hasSuffix("wait 60s → [off]\n"), "the path's end, as run prints it")
    }

    @Test("a transition whose guard no path makes hold, and one never reached, are named with why")
    func uncovered() async throws {
        let directory = try CommandLine.temporaryDirectory()
        let file = directory.appendingPathComponent("gaps.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" datamodel="ecmascript">
          <datamodel><data id="n" expr="0"/></datamodel>
          <state id="a">
            <transition event="go" cond="_event.data === 7" target="b"/>
            <transition event="inc" cond="n &lt; 2" target="a"><assign location="n" expr="n + 1"/></transition>
            <transition event="jump" cond="n == 2" target="c"/>
          </state>
          <state id="b"><transition event="back" target="a"/></state>
          <state id="c"/>
        </scxml>
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try await CommandLine.run(["paths", file.path])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("inc, inc, jump → [c]"), "the guard n == 2 holds after two inc")
        #expect(
            lines.contains("gaps.scxml:4:5: not covered: the transition of a on go: its guard held on no path found"))
        #expect(lines.contains("gaps.scxml:8:17: not covered: the transition of b on back: no path found reached it"))
    }

    @Test("test --coverage lists, per chart, what no test exercised")
    func coverage() async throws {
        let output = try await CommandLine.run(["test", "--coverage", "Tests/StatechartToolTests/Fixtures/suite"])
        #expect(output.status == 1)
        let text = output.standardOutput
        #expect(text.contains("scion-pass.scxml: states 3/3, transitions 2/2, delayed events 1/1\n"))
        #expect(
            text.contains(
                """
                w3c-pass.scxml: states 2/3, transitions 1/2, delayed events 0/1
                  never entered: fail (w3c-pass.scxml:8:3)
                  never taken: s0 on timeout → fail (w3c-pass.scxml:5:5)
                  never fired: timeout (w3c-pass.scxml:3:14)
                """))
        let json = try await CommandLine.run([
            "test", "--coverage", "--json", "Tests/StatechartToolTests/Fixtures/suite",
        ])
        let report = try JSONDecoder().decode(ConformanceReport.self, from: Data(json.standardOutput.utf8))
        let charts = try #require(report.coverage)
        #expect(charts.map(\.chart) == ["scion-fail.scxml", "scion-pass.scxml", "w3c-fail.scxml", "w3c-pass.scxml"])
        #expect(charts.last?.delayedEvents.missed == ["timeout (w3c-pass.scxml:3:14)"])
        #expect(report.results.allSatisfy { $0.coverage == nil })
    }

    @Test("the paths of the bundled player come out the same every time, as the article shows them")
    func deterministicAndAsDocumented() async throws {
        let first = try await CommandLine.run(["paths", "Examples/media-player.scxml"])
        let second = try await CommandLine.run(["paths", "Examples/media-player.scxml"])
        #expect(first.status == 0)
        #expect(first.standardOutput == second.standardOutput, "each process hashes with its own seed")
        let article = try String(
            contentsOf: CommandLine.packageRoot.appendingPathComponent(
                "Sources/StatechartsTesting/StatechartsTesting.docc/TestingAStatechart.md"), encoding: .utf8)
        #expect(
            article.contains(
                "$ statechart paths Examples/media-player.scxml\n" + first.standardOutput + "```"),
            "the article's output of statechart paths is the tool's:\n\(first.standardOutput)")
    }

    @Test("a hostile document's search ends at the script time of a call, with where; a bad --search-time is refused")
    func hostileSearch() async throws {
        let busy = try await CommandLine.run(["paths", "Tests/StatechartToolTests/Fixtures/Hostile/busy-guard.scxml"])
        #expect(busy.status == 1)
        #expect(
            busy.standardError.contains(
                "the chart cannot start: the run was ended: Tests/StatechartToolTests/Fixtures/Hostile/busy-guard.scxml:9:17: the script ran past the cascade's script time"
            ), "\(busy.standardError)")
        let bad = try await CommandLine.run(["paths", "Examples/lamp.scxml", "--search-time", "soon"])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("--search-time 'soon' is not a duration"))
        let empty = try await CommandLine.run(["paths", "Tests/StatechartToolTests/Fixtures/Hostile/log-escapes.scxml"])
        #expect(empty.status == 0)
        #expect(empty.standardOutput == "no paths: the chart has no transitions to take\n")
    }

    @Test("the bundled player's own test passes, and its coverage names what it leaves out")
    func bundledPlayerCoverage() async throws {
        let output = try await CommandLine.run(["test", "--coverage", "Examples/media-player.scxml"])
        #expect(output.status == 0)
        #expect(
            output.standardOutput.contains(
                """
                Examples/media-player.scxml: states 12/13, transitions 9/13, delayed events 1/2
                  never entered: ejected (media-player.scxml:52:3)
                  never taken: stopped on eject → ejected (media-player.scxml:7:5)
                  never taken: paused on idle → stopped (media-player.scxml:27:11)
                  never taken: dragging on move (media-player.scxml:36:11)
                  never taken: muted on mute → audible (media-player.scxml:47:9)
                  never fired: idle (media-player.scxml:24:20)
                """), "\(output.standardOutput)")
    }
}
#endif
