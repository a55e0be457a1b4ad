import Foundation
import Statecharts
import StatechartsSCXML
import Testing

#if canImport(StatechartsECMAScript)
import StatechartsECMAScript
#endif

// The examples of the SCXML documentation and of the README, as they show them, on the documents
// in Fixtures.

/// A document of the fixtures.
nonisolated func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/\(name)")
}

@Suite struct SCXMLTests {
    @Test("a document loads, runs and logs")
    func loadAndRun() throws {
        let print = Printed()
        let url = fixture("player.scxml")

        let chart = try SCXMLChart.load(contentsOf: url)  // player.scxml
        var session = SCXMLSession(chart: chart)
        try session.start()
        let step = try session.send("play")
        for record in step.logs { print(record) }  // player: playing
        print(session)  // [playing]

        #expect(print.all == ["player: playing", "[playing]"])
    }

    @Test("a broken document reports every problem with its line and column")
    func diagnostics() throws {
        let print = Printed()
        let url = fixture("broken/player.scxml")

        do {
            let chart = try SCXMLChart.load(contentsOf: url)
            for warning in chart.warnings { print(warning) }
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic) }
            // player.scxml:12:7: error: the transition on 'stop' from 'playing' targets 'stoped', which is not a state of the chart
        }

        #expect(print.all.count == 1)
        #expect(
            print.all.first?.hasSuffix(
                "/player.scxml:12:7: error: the transition on 'stop' from 'playing' targets 'stoped', which is not a state of the chart"
            ) == true, "\(print.all)")
    }

    @Test("a session of a document takes events with data and fires its delayed sends")
    func machine() throws {
        let print = Printed()
        let chart = try SCXMLChart.load(contentsOf: fixture("network.scxml"))

        var session = SCXMLSession(chart: chart, options: .init(log: { print($0) }))
        try session.start()
        try session.send(SCXMLEvent("net.error.timeout", data: .object(["after": .number(30)])))
        try session.advance(by: .seconds(5))  // delayed <send>s fall due

        #expect(print.all == ["network: lost the connection", "network: retrying"])
    }

    @Test("a session runs the sessions a document invokes")
    func interpreter() throws {
        let print = Printed()
        let chart = try SCXMLChart.load(contentsOf: fixture("parent.scxml"))

        var session = SCXMLSession(chart: chart)
        try session.start()
        try session.send("go")
        try session.advance(by: .seconds(1))
        print(session.activeStates, session.childSessionIDs.count)  // ["working"] 1

        #expect(print.all == [#"["working"] 1"#])
    }

    @Test("an archived session goes on where it was, with its invoked sessions")
    func archive() throws {
        let print = Printed()
        let chart = try SCXMLChart.load(contentsOf: fixture("parent.scxml"))
        var session = SCXMLSession(chart: chart)
        try session.start()
        try session.send("go")

        let data = try JSONEncoder().encode(session.archive())
        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        var restored = try SCXMLSession(chart: chart, restoring: archive)
        print(restored.activeStates, restored.childSessionIDs.count)  // ["working"] 1

        #expect(restored.childSessionIDs == session.childSessionIDs)
        #expect(print.all == [#"["working"] 1"#])
        try restored.send("go")
        #expect(restored.activeStates == ["working"])
    }

    @Test("a chart written as SCXML reads back as the same chart")
    func write() throws {
        let chart = try SCXMLChart.load(contentsOf: fixture("player.scxml"))

        let text = SCXMLWriter.write(chart.statechart)

        #expect(text.contains(#"<transition event="play" target="playing"/>"#))
    }

    #if canImport(StatechartsECMAScript)
    @Test("the README's ECMAScript session runs a script on the event's data")
    func ecmaScript() throws {
        let url = fixture("speed.scxml")

        let chart = try SCXMLChart.load(contentsOf: url, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(scriptTime: .milliseconds(500))))
        try session.start()
        try session.send(SCXMLEvent("go", data: .object(["speed": .number(3)])))

        #expect(session.activeStates == ["fast"])
    }

    @Test("the article's Swift invoker: parameters in, events out, and its result as done.invoke's data")
    func invoker() async throws {
        let print = Printed()
        let chart = try SCXMLChart.load(
            contentsOf: fixture("download.scxml"), dataModels: ECMAScriptDataModel.withBuiltIns)

        let download = SCXMLInvoker { request in
            let url = request.parameters["url"]?.description ?? ""
            request.send(SCXMLEvent("download.progress", data: .number(0.5)))
            return .string("downloaded \(url)")
        }
        var session = SCXMLSession(chart: chart, options: .init(invokers: ["download": download]))
        try session.start()
        let step = try await session.settle()  // the work's events, then done.invoke.dl
        for record in step.logs { print(record) }  // progress: 0.5, done: downloaded https://example.com/a

        #expect(print.all == ["progress: 0.5", "done: downloaded https://example.com/a"])
        #expect(session.status == .finished)
    }

    @Test("the article on untrusted documents loosens limits for a trusted one")
    func loosenedLimits() throws {
        let chart = try SCXMLChart.load(
            contentsOf: fixture("speed.scxml"), dataModels: ECMAScriptDataModel.withBuiltIns)

        var limits = SCXMLLimits()
        limits.scriptTime = .seconds(30)  // a trusted document with heavy scripts
        limits.javaScriptHeap = 4 << 30
        limits.foreachItems = 10_000_000
        var session = SCXMLSession(chart: chart, options: .init(limits: limits))

        try session.start()
        #expect(session.options.limits.scriptTime == .seconds(30))
        #expect(session.endedBy == nil)
    }
    #endif
}
