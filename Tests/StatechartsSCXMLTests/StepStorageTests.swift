import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// ``SCXMLStep`` keeps its lists in one box that an empty step does not have: what a step says
/// is the same whether its lists are empty, given or appended, and copies stay independent.
@Suite struct StepStorageTests {
    static let here = SourcePosition(file: "test.scxml", line: 1, column: 1)

    static func log(_ message: String) -> SCXMLLogRecord {
        SCXMLLogRecord(sessionID: "s", label: nil, message: message, location: here)
    }

    @Test("an empty step is the same made without lists, with empty lists, or emptied")
    func emptySteps() {
        var emptied = SCXMLStep(logs: [Self.log("a")])
        emptied.logs.removeAll()
        for step in [SCXMLStep(), SCXMLStep(handled: nil, microsteps: [], logs: [], errors: []), emptied] {
            #expect(step == SCXMLStep())
            #expect(step.handled == nil)
            #expect(step.microsteps.isEmpty && step.logs.isEmpty && step.errors.isEmpty && step.firedTimers.isEmpty)
        }
        #expect(SCXMLStep(handled: true) != SCXMLStep())
        #expect(SCXMLStep(logs: [Self.log("a")]) != SCXMLStep())
    }

    @Test("a call's step holds its own logs only, after a call that logged and failed")
    func aFailedCallLeavesNothingToTheNext() throws {
        // `spin` logs and sends itself `spin` again, without end: the call fails at the
        // microstep limit, with its logs in the session's step, and drops the `spin` it queued.
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="idle">
              <state id="idle">
                <transition event="spin"><log expr="'again'"/><send event="spin"/></transition>
                <transition event="note"><log expr="'noted'"/></transition>
              </state>
            </scxml>
            """)
        var limits = SCXMLLimits.default
        limits.microsteps = 5
        var session = SCXMLSession(chart: chart, options: .init(limits: limits))
        try session.start()
        #expect(try session.send("note").logs.map(\.message) == ["noted"])
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try session.send("spin") }
        let next = try session.send("note")
        #expect(next.logs.map(\.message) == ["noted"])
        #expect(try session.send("other").logs.isEmpty)
    }

    @Test("copies of a step change apart; each list is its own")
    func copiesAreIndependent() {
        var first = SCXMLStep(handled: true, logs: [Self.log("a")])
        var second = first
        second.logs.append(Self.log("b"))
        second.firedTimers.append("tick")
        first.errors.append(SCXMLDiagnostic(.error, "broken", at: Self.here))
        #expect(first.logs == [Self.log("a")])
        #expect(first.firedTimers.isEmpty)
        #expect(first.errors.map(\.message) == ["broken"])
        #expect(second.logs == [Self.log("a"), Self.log("b")])
        #expect(second.firedTimers == ["tick"])
        #expect(second.errors.isEmpty)
        #expect(first.handled == true && second.handled == true)
        #expect(first != second)
    }

    @Test("merging appends every list of the later step and keeps this step's handled")
    func merging() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a"><transition event="go" target="b"/></state>
              <state id="b"/>
            </scxml>
            """)
        var session = SCXMLSession(chart: chart, options: .init(recordsMicrosteps: true))
        var step = try session.start()
        let started = step
        var later = try session.send("go")
        later.logs.append(Self.log("later"))
        later.firedTimers.append("tick")
        step.merge(later)
        #expect(step.handled == started.handled)
        #expect(step.microsteps == started.microsteps + later.microsteps)
        #expect(step.microsteps.count == 2)
        #expect(step.logs == [Self.log("later")])
        #expect(step.firedTimers == ["tick"])
        let merged = step
        step.merge(SCXMLStep())
        #expect(step == merged)
        // The step merged from is unchanged.
        #expect(later.microsteps.count == 1)
    }
}
