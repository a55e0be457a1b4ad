import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// A document with ECMAScript variables, generated: Counter.swift is what `statechart generate`
/// writes for Documents/counter.scxml, the document as Swift values.
@Suite struct GeneratedDocumentTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
        path: "Documents/counter.scxml")
    static let hasECMAScript = BuiltDataModels.all.contains { $0.names.contains("ecmascript") }

    @Test func theCheckedInFileIsWhatTheGeneratorWrites() throws {
        let generated = try SwiftGenerator(dataModels: BuiltDataModels.all).generate(contentsOf: Self.document)
        let checkedIn = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Counter.swift"),
            encoding: .utf8)
        #expect(generated.source == checkedIn, "run: statechart generate \(Self.document.path) -o Counter.swift")
        // The plugin's generator has no ECMAScript data model: it writes the same file.
        #expect(try SwiftGenerator().generate(contentsOf: Self.document).source == checkedIn)
    }

    @Test func theSwiftValuesAreTheDocument() throws {
        let read = try SCXMLReader.read(contentsOf: Self.document).get()
        #expect(SCXMLWriter.write(Counter.document) == SCXMLWriter.write(read))
        #expect(
            Counter.document.states.first?.transitions.first?.condition?.location.description == "counter.scxml:9:29")
    }

    @Test(.enabled(if: hasECMAScript, "needs the ECMAScript data model (trait ECMAScript)"))
    func aSessionTakesTheGeneratedCases() throws {
        var session = SCXMLSession(chart: try Counter.chart(dataModels: BuiltDataModels.all))
        try session.start()
        try session.send(Counter.Event.add)
        try session.send(Counter.Event.add)
        #expect(session.isActive(Counter.State.counting))
        try session.send(Counter.Event.add)
        #expect(session.isActive(Counter.State.full))
    }

    @Test(.enabled(if: hasECMAScript, "needs the ECMAScript data model (trait ECMAScript)"))
    func itRunsAsTheInterpreterRunsTheFile() throws {
        let file = try SCXMLChart.load(contentsOf: Self.document, dataModels: BuiltDataModels.all)
        let result = InterpreterComparison.compare(
            try Counter.chart(dataModels: BuiltDataModels.all), with: file,
            steps: [.event("add"), .event("reset"), .event("add"), .event("add"), .event("add")])
        #expect(result.mismatch == nil)
        #expect(result.activeStates == ["full"])
    }

    @Test func withoutItsDataModelTheChartSaysWhatItNeeds() {
        #expect(throws: SCXMLError.self) { try Counter.chart(dataModels: [NullDataModel.self]) }
    }
}
