#if Tools
import Foundation
import Testing

/// `statechart repl`, with its input piped in.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct ReplCommandTests {
    @Test("typed events and waits move the machine; the events handled now, and the timers apart, follow each step")
    func session() async throws {
        let output = try await CommandLine.run(
            ["repl", "Examples/lamp.scxml"], input: "toggle\nstates\nfly\nwait 61s\nhelp\ntoggle\nquit\ntoggle\n")
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                Examples/lamp.scxml: events are toggle, brighter, dimmer; timers, which :wait lets fire, are timeout. Type :help for commands.
                start → [off]
                  events now: toggle
                > toggle → [dim]
                  events now: toggle, brighter
                  timers: timeout in 60s (:wait lets time pass)
                > configuration: [on, dim]
                > error: the chart has no event 'fly'; its events are toggle, timeout, brighter, dimmer
                >   log lamp: no one touched it for a minute
                wait 61s → [off]
                  events now: toggle
                > an event name sends it (NAME=JSON with data); :wait 5s lets time pass; :state shows every active state; :undo goes back one step; :quit leaves
                > toggle → [dim]
                  events now: toggle, brighter
                  timers: timeout in 60s (:wait lets time pass)
                > 
                """)
    }

    @Test("the bundled media player runs when no chart is given; the end of input ends the session")
    func bundled() async throws {
        let output = try await CommandLine.run(["repl"], input: "play\neject\nstop\n")
        #expect(output.status == 0)
        #expect(
            output.standardOutput.contains(
                "play → [playing, audible]\n  events now: stop, scrub, pause, mute\n  timers: tick in 1s (:wait lets time pass)\n"
            ))
        #expect(output.standardOutput.contains("eject (not handled) → [playing, audible]"))
        #expect(output.standardOutput.hasSuffix("stop → [stopped]\n  events now: play, eject\n> \n"))
    }

    @Test("an unknown file is one line and a non-zero status")
    func unknownFile() async throws {
        let output = try await CommandLine.run(["repl", "missing.scxml"], input: "")
        #expect(output.status != 0)
        #expect(output.standardError == "Error: no such file: missing.scxml\n")
    }

    @Test("an event typed with data as JSON is sent with it; data that is not JSON is an error, not a step")
    func eventData() async throws {
        let output = try await CommandLine.run(
            ["repl", "Examples/lamp.scxml"], input: "toggle={bad\ntoggle={\"by\": \"ann\"}\n")
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("> error: the data of event 'toggle' is not JSON: {bad"))
        #expect(output.standardOutput.contains("> toggle={\"by\":\"ann\"} → [dim]\n"))
    }

    @Test(":undo goes back one step at a time, :wait lets time pass, an unknown command says so")
    func undo() async throws {
        let output = try await CommandLine.run(
            ["repl", "Examples/lamp.scxml"], input: ":undo\ntoggle\nbrighter\n:wait 61s\n:undo\n:undo\n:fly\n:quit\n")
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                Examples/lamp.scxml: events are toggle, brighter, dimmer; timers, which :wait lets fire, are timeout. Type :help for commands.
                start → [off]
                  events now: toggle
                > nothing to undo
                > toggle → [dim]
                  events now: toggle, brighter
                  timers: timeout in 60s (:wait lets time pass)
                > brighter → [bright]
                  events now: toggle, dimmer
                  timers: timeout in 60s (:wait lets time pass)
                >   log lamp: no one touched it for a minute
                wait 61s → [off]
                  events now: toggle
                > undo → [bright]
                  events now: toggle, dimmer
                  timers: timeout in 60s (:wait lets time pass)
                > undo → [dim]
                  events now: toggle, brighter
                  timers: timeout in 60s (:wait lets time pass)
                > unknown command :fly; :help lists them
                > 
                """)
    }
}
#endif
