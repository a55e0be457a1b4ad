import Foundation
import Statecharts
import StatechartsSCXML
import Testing

enum Mode: String, Hashable, Sendable, CustomStringConvertible {
    case off, on, heating, idle, display, normal, dimmed, memory, broken
    var description: String { rawValue }
}

enum ModeEvent: String, StatechartEvent, CaseIterable {
    case power, warm, cool, dim, brighten, fault
    case repaired = "fault.repaired"
}

/// A chart built in Swift with every structural construct and no closures.
func makeStructuralChart() throws -> Statechart<Mode, ModeEvent, Void> {
    try Statechart<Mode, ModeEvent, Void>("appliance", initial: .off) {
        StateNode(.off) { On(.power, to: .memory) }
        Parallel(.on) {
            History(.memory, .deep, default: .idle)
            StateNode(.heating, initial: .idle) {
                StateNode(.idle) { On(.warm, to: .broken) }
                Final(.broken)
                OnDone(to: .off)
            }
            StateNode(.display, initial: .normal) {
                StateNode(.normal) { On(.dim, to: .dimmed) }
                StateNode(.dimmed) { On(.brighten, to: .normal, type: .internal) }
            }
            On(.power, to: .off)
            On(named: "fault", to: .off)
        }
    }
}

@Suite struct WriterTests {
    static let written = SharedMaterial.packageRoot.appendingPathComponent(
        "Tests/StatechartsSCXMLTests/Fixtures/Written")

    @Test("a chart built in Swift is written as SCXML that reads back to the same chart")
    func structuralRoundTrip() throws {
        let chart = try makeStructuralChart()
        let text = SCXMLWriter.write(chart)
        Golden.check(text, against: Self.written.appendingPathComponent("appliance.scxml"))
        let reread = try SCXMLChart.load(text, file: "appliance.scxml")
        #expect(structure(of: reread.statechart) == structure(of: chart))
    }

    @Test("the chart read back behaves as the original on the same events")
    func sameBehaviour() throws {
        var original = try makeStructuralChart().makeMachine()
        var reread = SCXMLSession(chart: try SCXMLChart.load(SCXMLWriter.write(try makeStructuralChart())))
        try original.start()
        try reread.start()
        let events: [ModeEvent] = [.power, .dim, .power, .power, .brighten, .repaired, .power, .warm, .power]
        for event in events {
            try original.send(event)
            try reread.send(SCXMLEvent(event.rawValue))
            #expect(reread.activeStates == original.activeStates.map(\.rawValue), "after \(event)")
        }
    }

    @Test("guards, actions and timeouts of Swift code are written as references and standard SCXML")
    func closuresAndTimeouts() throws {
        let chart = try Statechart<String, SCXMLEvent, Int>("timer", initial: "waiting") {
            StateNode("waiting") {
                OnEntry { $0.context += 1 }
                After(.seconds(30), to: "expired")
                On(named: "ping", to: "waiting", guard: { $0.context < 3 }) { $0.context += 1 }
            }
            Final("expired")
        }
        let text = SCXMLWriter.write(chart)
            .replacing(#/WriterTests\.swift:\d+:\d+/#, with: "WriterTests.swift:LINE:COLUMN")
        Golden.check(text, against: Self.written.appendingPathComponent("timer.scxml"))
        #expect(text.contains("<send event=\"after.30s.waiting\" id=\"after.30s.waiting\" delay=\"30s\"/>"))
        #expect(text.contains("cond=\"swift('StatechartsSCXMLTests/WriterTests.swift:LINE:COLUMN')\""))
    }

    @Test("a chart read from a document is written as that document")
    func documentCharts() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><transition event="go" target="b"><log expr="'went'"/></transition></state>
              <state id="b"/>
            </scxml>
            """
        let chart = try SCXMLChart.load(text)
        #expect(SCXMLWriter.write(chart.statechart) == SCXMLWriter.write(chart.document))
        #expect(SCXMLWriter.write(chart.document).contains("<log expr=\"'went'\"/>"))
    }

    @Test("state identifiers that are not XML names, or that repeat, are made distinct names")
    func identifiers() throws {
        let chart = try Statechart<String, SCXMLEvent, Void>(initial: "a state") {
            StateNode("a state") { On(named: "go", to: "a-state") }
            StateNode("a-state")
            StateNode("a_state")
        }
        let document = SCXMLWriter.document(for: chart)
        #expect(document.states.map(\.id) == ["a_state", "a-state", "a_state_2"])
        #expect(document.states.first?.transitions.first?.targets == ["a-state"])
    }
}
