import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

// The examples of the article "From a document to Swift types": the media player's document,
// generated (MediaPlayerGenerated.swift is Tests/GeneratedChartTests/MediaPlayer.swift), used with
// the types the compiler checks, tested, and compared with the interpreter; and a counter with
// ECMAScript variables, generated as Swift values (CounterGenerated.swift).

@Suite("From a document to Swift types")
struct GeneratedTypesExamples {
    @Test("a session of the generated player")
    func session() throws {
        var machine = try MediaPlayer.chart().makeMachine()
        try machine.start()
        try machine.send(.play)
        try machine.send(.pause)
        #expect(machine.isActive(.paused))
        try machine.advance(by: .seconds(300))
        #expect(machine.activeStates == [.stopped])
    }

    @Test("the generated player under the exhaustive tester")
    func tested() throws {
        let tester = try MachineTester(MediaPlayer.chart())
        try tester.send(.play) { $0.configuration = [.playing, .audible] }
        tester.expect(.armed("tick", dueIn: .seconds(1)))
        try tester.send(.scrub) { $0.configuration = [.held, .audible] }
        tester.expect(.cancelledTimer("tick"))
        try tester.send(.release) { $0.configuration = [.playing, .audible] }
        tester.expect(.armed("tick", dueIn: .seconds(1)))
        try tester.send(.stop) { $0.configuration = [.stopped] }
        tester.expect(.cancelledTimer("tick"))
    }

    @Test("the generated player runs as the interpreter runs its document")
    func sameAsTheDocument() throws {
        let document = try SCXMLChart.load(contentsOf: URL(fileURLWithPath: "Examples/media-player.scxml"))
        let result = InterpreterComparison.compare(
            try MediaPlayer.chart(), with: document,
            steps: [.event("play"), .wait(.seconds(3)), .event("pause"), .wait(.seconds(300)), .event("eject")])
        #expect(result.mismatch == nil)
        #expect(result.activeStates == ["ejected"])
    }

    @Test(
        "a document with variables, generated as Swift values, in a session",
        .enabled(if: BuiltDataModels.all.contains { $0.names.contains("ecmascript") }))
    func documentWithVariables() throws {
        var session = SCXMLSession(chart: try Counter.chart(dataModels: BuiltDataModels.all))
        try session.start()
        try session.send(Counter.Event.add)
        #expect(session.isActive(Counter.State.counting))
    }

    @Test("a generated document asks for an invoker of each type it invokes")
    func generatedInvokers() async throws {
        let download = SCXMLInvoker { request in
            request.send(SCXMLEvent("download.progress"))
            return .string("fetched \(request.source ?? "")")
        }
        var session = SCXMLSession(
            chart: try Downloader.chart(dataModels: [NullDataModel.self]),
            options: .init(invokers: Downloader.Invokers(download: download).byType))
        try session.start()
        try session.send(Downloader.Event.fetch)

        let step = try await session.settle(upTo: .seconds(10))
        #expect(session.isActive(Downloader.State.done))
        #expect(step.logs.map(\.message) == ["one more part"])
    }

    @Test("state ids and event names are the raw values")
    func rawValues() {
        #expect(MediaPlayer.State(rawValue: "paused") == .paused)
        #expect(MediaPlayer.Event.allCases.map(\.rawValue).contains("scrub"))
    }
}
