import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// The bundled media player, generated: MediaPlayer.swift is what `statechart generate` writes
/// for Examples/media-player.scxml (a test here checks that it still is).
@Suite struct GeneratedChartTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let document = packageRoot.appending(path: "Examples/media-player.scxml")

    @Test func theCheckedInFileIsWhatTheGeneratorWrites() throws {
        let generated = try SwiftGenerator().generate(contentsOf: Self.document)
        let checkedIn = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
                path: "MediaPlayer.swift"),
            encoding: .utf8)
        #expect(generated.source == checkedIn, "run: statechart generate Examples/media-player.scxml -o \(#filePath)")
        #expect(generated.typeName == "MediaPlayer")
        #expect(generated.warnings.isEmpty)
        // The same document gives the same text, whatever its path.
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        #expect(try SwiftGenerator().generate(text, file: "elsewhere/media-player.scxml").source == generated.source)
    }

    @Test func theEnumsHoldTheDocumentsStatesAndEvents() throws {
        #expect(
            MediaPlayer.State.allCases.map(\.rawValue) == [
                "stopped", "active", "transport", "playback", "resume", "playing", "paused", "scrubbing", "held",
                "dragging", "volume", "audible", "muted", "ejected",
            ])
        #expect(
            Set(MediaPlayer.Event.allCases.map(\.rawValue)) == [
                "play", "eject", "tick", "pause", "idle", "scrub", "move", "release", "mute", "stop",
            ])
        let chart = try MediaPlayer.chart()
        #expect(chart.name == "media-player")
    }

    @Test func aSessionRunsAsTheDocumentSays() throws {
        var machine = try MediaPlayer.chart().makeMachine()
        try machine.start()
        #expect(machine.activeStates == [.stopped])
        try machine.send(.play)
        #expect(Set(machine.activeStates) == [.playing, .audible])
        try machine.send(.pause)
        try machine.advance(by: .seconds(299))
        #expect(machine.isActive(.paused))
        try machine.advance(by: .seconds(1))
        #expect(machine.activeStates == [.stopped], "paused for five minutes, the player stops")
    }

    /// Random sessions of events and waits, the same on the generated chart and on the interpreter.
    @Test(arguments: 0..<20) func randomSessionsAgreeWithTheInterpreter(seed: UInt64) throws {
        let document = try SCXMLChart.load(contentsOf: Self.document)
        var random = SplitMix64(seed: seed)
        let events = MediaPlayer.Event.allCases.map(\.rawValue)
        var steps: [InterpreterComparison.Step] = []
        for _ in 0..<60 {
            if random.next() % 4 == 0 {
                steps.append(.wait(.milliseconds(Int(random.next() % 400_000))))
            } else {
                steps.append(.event(events[Int(random.next() % UInt64(events.count))]))
            }
        }
        let result = InterpreterComparison.compare(try MediaPlayer.chart(), with: document, steps: steps)
        #expect(result.mismatch == nil)
        #expect(result.comparisons > steps.count)
    }

    @Test func anEventTheDocumentDoesNotNameGoesToTheInterpreterAlone() throws {
        let document = try SCXMLChart.load(contentsOf: Self.document)
        let result = InterpreterComparison.compare(
            try MediaPlayer.chart(), with: document, steps: [.event("play"), .event("rewind"), .event("stop")])
        #expect(result.mismatch == nil)
        #expect(result.eventsOutsideTheEnum == 1)
        #expect(result.activeStates == ["stopped"])
    }

    @Test func aMismatchIsReportedWithItsStep() throws {
        // The document's player stops after five minutes paused; a player that never does differs.
        let edited = try String(contentsOf: Self.document, encoding: .utf8).replacingOccurrences(
            of: "delay=\"300s\"", with: "delay=\"600s\"")
        let document = try SCXMLChart.load(edited, file: "edited.scxml")
        let result = InterpreterComparison.compare(
            try MediaPlayer.chart(), with: document, steps: [.event("play"), .event("pause"), .wait(.seconds(400))])
        let mismatch = try #require(result.mismatch)
        #expect(mismatch.hasPrefix("after step 3 (wait 400.0 seconds)"))
        #expect(mismatch.contains("[\"stopped\"]"))
    }
}
