import Foundation
import StatechartsSCXML
import Testing

@testable import Statecharts

/// A document's delayed `<send>` with an `id`, written out and alone in its `<onentry>`, and its
/// `<onexit>` of `<cancel>`s, held by the chart as data, as a typed chart's
/// `OnEntry(send:after:id:)` and `OnExit(cancel:)` are: a step arms and cancels them as it arms
/// and cancels timeouts. Each session still sends its own events, and its limit on pending timers
/// still holds to the timer.
@Suite struct DeclaredSendTests {
    typealias Notes = PreparedActionTests.Notes

    /// `a` sends `tick` as data and cancels it as data; `again` re-enters `a`, `leave` goes to `b`.
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:sc="\(SCXMLExtensions.namespace)"
               version="1.0" datamodel="null" initial="a">
          <state id="a">
            <onentry><send event="tick" delay="1s" id="t"/></onentry>
            <onexit><cancel sendid="t"/><cancel sendid="other"/></onexit>
            <transition event="tick"><sc:action name="note"/></transition>
            <transition event="again" target="a"/>
            <transition event="leave" target="b"/>
          </state>
          <state id="b">
            <transition event="tick" target="failed"/>
            <transition event="back" target="a"/>
          </state>
          <state id="failed"/>
        </scxml>
        """

    static func tick(from session: String) -> SCXMLEvent {
        SCXMLEvent(
            "tick", type: .external, sendID: "t", origin: "#_scxml_\(session)",
            originType: PreparedActionTests.processor)
    }

    @Test("only an <onentry> of one written-out <send> with an id, and an <onexit> of <cancel>s by id, are data")
    func whichBlocksAreData() throws {
        let sends = [
            (#"<send event="e" delay="1s" id="data"/>"#, true),
            (#"<send event="e" delay="1s"/>"#, false),
            (#"<send event="e" delay="1s" id="one"/><send event="f" delay="1s" id="two"/>"#, false),
            (##"<send event="e" delay="1s" id="to" target="#_scxml_elsewhere"/>"##, false),
            (#"<send eventexpr="'e'" delay="1s" id="expression"/>"#, false),
            (#"<send event="e" id="now"/>"#, false),
            (#"<send event="e" delay="1s" id="with"><content>x</content></send>"#, false),
        ]
        for (send, isData) in sends {
            let chart = try SCXMLChart.load(
                """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
                  <state id="a"><onentry>\(send)</onentry><onexit><cancel sendid="data"/></onexit></state>
                </scxml>
                """)
            #expect((chart.statechart.storage.declaredSendCount == 1) == isData, "\(send)")
            #expect(chart.statechart.storage.declaredCancelCount == 1, "\(send)")
        }
        let mixed = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a"><onexit><cancel sendid="t"/><log expr="'left'"/></onexit></state>
            </scxml>
            """)
        #expect(mixed.statechart.storage.declaredCancelCount == 0)
    }

    @Test("a send held as data delivers each session's own event, from its own address, through a copy")
    func eachSessionSendsItsOwnEvent() throws {
        let notes = Notes()
        let chart = try SCXMLChart.load(Self.document)
        #expect(chart.statechart.storage.declaredSendCount == 1)
        var first = SCXMLSession(chart: chart, options: .init(sessionID: "one", actions: notes.options))
        var second = SCXMLSession(chart: chart, options: .init(sessionID: "two", actions: notes.options))
        try first.start()
        try second.start()
        try first.advance(by: .seconds(1))
        try second.advance(by: .seconds(1))
        var copy = first
        try copy.send("again")
        // The timer names the machine's own event instead of holding a copy.
        #expect(copy.machine.pendingTimers.map(\.name) == ["tick"])
        #expect(copy.machine.invariantProblem() == nil)
        try copy.advance(by: .seconds(1))
        let events = notes.events.withLock { $0 }
        #expect(events == [Self.tick(from: "one"), Self.tick(from: "two"), Self.tick(from: "one")])
        // The cancel held as data removed the pending `tick` on leaving.
        try second.send("leave")
        #expect(second.machine.pendingTimers.isEmpty)
        try second.advance(by: .seconds(5))
        #expect(second.activeStates == ["b"])
    }

    @Test("a pending send held as data is archived with its session's event, restored, fired and cancelled")
    func archivedAndRestored() throws {
        let notes = Notes()
        let chart = try SCXMLChart.load(Self.document)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "kept", actions: notes.options))
        try session.start()
        let data = try JSONEncoder().encode(try session.archive())
        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        var restored = try SCXMLSession(chart: chart, restoring: archive, options: .init(actions: notes.options))
        #expect(restored.machine.pendingTimers.map(\.id) == ["t"])
        try restored.advance(by: .seconds(1))
        // Armed again after the restore, by the restored machine's own events.
        try restored.send("again")
        try restored.advance(by: .seconds(1))
        #expect(notes.events.withLock { $0 } == [Self.tick(from: "kept"), Self.tick(from: "kept")])
        try restored.send("leave")
        #expect(restored.machine.pendingTimers.isEmpty)
    }

    @Test(
        "past the limit on pending timers, a send held as data raises error.execution as the <send> does, in either step",
        arguments: [false, true])
    func pendingTimersLimit(recordsMicrosteps: Bool) throws {
        // Nothing cancels the sends: each entry of `a` leaves one more pending.
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onentry><send event="late" delay="50s" id="late"/></onentry>
                <transition event="again" target="a"/>
                <transition event="error.execution" target="failed"/>
              </state>
              <state id="failed"/>
            </scxml>
            """)
        #expect(chart.statechart.storage.declaredSendCount == 1)
        var limits = SCXMLLimits.default
        limits.pendingTimers = 3
        // With microsteps recorded, the session observes its machine, which then takes the
        // general microstep; otherwise the quick step.
        var session = SCXMLSession(chart: chart, options: .init(limits: limits, recordsMicrosteps: recordsMicrosteps))
        try session.start()
        for count in 2...3 {
            let step = try session.send("again")
            #expect(step.errors.isEmpty)
            #expect(session.machine.pendingTimerCount == count)
            #expect(session.machine.pendingTimers.map(\.name) == Array(repeating: "late", count: count))
            #expect(session.machine.invariantProblem() == nil)
        }
        let step = try session.send("again")
        #expect(session.activeStates == ["failed"])
        #expect(session.machine.pendingTimerCount == 3)
        if recordsMicrosteps {
            let failure = try #require(step.errors.first)
            #expect(failure.description.contains("pending"), "\(failure)")
        }
        // Three timers in the heap, of a kind the chart does not know: each delivers the
        // machine's own event by its position.
        let fired = try session.advance(by: .seconds(50))
        #expect(session.machine.pendingTimers.isEmpty)
        if recordsMicrosteps { #expect(fired.firedTimers == ["late", "late", "late"]) }
    }
}
