import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// The blocks of executable content as the chart prepares them: a `<send>` whose attributes are
/// all written out sends the event the element's general path would send, made once per session;
/// a block of one `<send>` or one `<cancel>` runs as any block does.
@Suite struct PreparedActionTests {
    static let processor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

    /// The events the named action `note` saw, in order.
    final class Notes: Sendable {
        let events = Locked<[SCXMLEvent]>([])
        var options: [String: SCXMLNamedAction] {
            [
                "note": SCXMLNamedAction { request in
                    self.events.withLock { $0.append(request.event ?? SCXMLEvent("")) }
                }
            ]
        }
    }

    /// Entering `a` sends two delayed events written out (one with an `id`, one without) and one
    /// addressed to the session itself, which goes through the general path; `again` enters `a`
    /// again.
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:sc="\(SCXMLExtensions.namespace)"
               version="1.0" datamodel="null" initial="a">
          <state id="a">
            <onentry>
              <send event="tick" delay="1s" id="literal"/>
              <send event="tock" delay="1s"/>
              <send event="tick" delay="1s" id="general" target="#_scxml_SESSION"/>
            </onentry>
            <transition event="tick"><sc:action name="note"/></transition>
            <transition event="tock"><sc:action name="note"/></transition>
            <transition event="again" target="a"/>
          </state>
        </scxml>
        """

    @Test("a delayed <send> written out sends what the general path sends, the same at every run")
    func writtenOutSendMatchesTheGeneralPath() throws {
        let notes = Notes()
        let chart = try SCXMLChart.load(Self.document.replacingOccurrences(of: "SESSION", with: "s1"))
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "s1", actions: notes.options))
        try session.start()
        try session.advance(by: .seconds(1))
        try session.send("again")
        try session.advance(by: .seconds(1))
        let events = notes.events.withLock { $0 }
        let tick = SCXMLEvent(
            "tick", type: .external, sendID: "literal", origin: "#_scxml_s1", originType: Self.processor)
        let tock = SCXMLEvent("tock", type: .external, origin: "#_scxml_s1", originType: Self.processor)
        let general = SCXMLEvent(
            "tick", type: .external, sendID: "general", origin: "#_scxml_s1", originType: Self.processor)
        #expect(events == [tick, tock, general, tick, tock, general])
        // The general path's event differs from the written-out one only by its identifier.
        var renamed = events[2]
        renamed.sendID = "literal"
        #expect(renamed == events[0])
    }

    @Test("each session sends its own events, from its own address, and a copy keeps sending them")
    func eachSessionHasItsOwnEvents() throws {
        let notes = Notes()
        let chart = try SCXMLChart.load(Self.document.replacingOccurrences(of: "SESSION", with: "elsewhere"))
        var first = SCXMLSession(chart: chart, options: .init(sessionID: "one", actions: notes.options))
        var second = SCXMLSession(chart: chart, options: .init(sessionID: "two", actions: notes.options))
        try first.start()
        try second.start()
        try first.advance(by: .seconds(1))
        try second.advance(by: .seconds(1))
        var copy = first
        try copy.send("again")
        try copy.advance(by: .seconds(1))
        let origins = notes.events.withLock { $0 }.filter { $0.sendID != "general" }.map { $0.origin }
        #expect(origins == ["#_scxml_one", "#_scxml_one", "#_scxml_two", "#_scxml_two", "#_scxml_one", "#_scxml_one"])
    }

    @Test("more written-out sends than a session keeps events for send each its own event")
    func manySendsBeyondTheKeptEvents() throws {
        let count = 24
        let sends = (0..<count).map { #"<send event="e\#($0)" delay="\#($0 + 1)s" id="i\#($0)"/>"# }
        let transitions = (0..<count).map { #"<transition event="e\#($0)"><sc:action name="note"/></transition>"# }
        let notes = Notes()
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:sc="\(SCXMLExtensions.namespace)"
                   version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onentry>\(sends.joined())</onentry>
                \(transitions.joined())
                <transition event="again" target="a"/>
              </state>
            </scxml>
            """)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "s", actions: notes.options))
        try session.start()
        try session.send("again")
        try session.advance(by: .seconds(Int64(count)))
        let events = notes.events.withLock { $0 }
        // Entered twice: the first entry's sends were cancelled by nothing, so each fires twice.
        #expect(events.count == 2 * count)
        for (offset, event) in events.enumerated() {
            let number = offset / 2
            #expect(
                event
                    == SCXMLEvent(
                        "e\(number)", type: .external, sendID: "i\(number)", origin: "#_scxml_s",
                        originType: Self.processor))
        }
    }

    @Test("events sent again from what the session kept take their own transitions")
    func keptEventsTakeTheirOwnTransitions() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onentry><send event="toX" delay="1s" id="one"/></onentry>
                <transition event="toX" target="x"/>
              </state>
              <state id="x">
                <onentry><send event="toA" delay="1s" id="two"/></onentry>
                <transition event="toA" target="a"/>
              </state>
            </scxml>
            """)
        var session = SCXMLSession(chart: chart)
        try session.start()
        var visited: [[String]] = []
        // The first round makes each event; the next ones send what the session kept.
        for _ in 0..<4 {
            try session.advance(by: .seconds(1))
            visited.append(session.machine.activeStates)
        }
        #expect(visited == [["x"], ["a"], ["x"], ["a"]])
        #expect(session.machine.pendingTimers.map(\.name) == ["toX"])
    }

    @Test("a block of one <send> or one <cancel> runs as a block: the timer is armed, then cancelled")
    func singleActionBlocks() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onentry><send event="late" delay="5s" id="t"/></onentry>
                <onexit><cancel sendid="t"/></onexit>
                <transition event="leave" target="b"/>
                <transition event="late" target="failed"/>
              </state>
              <state id="b"><transition event="late" target="failed"/></state>
              <state id="failed"/>
            </scxml>
            """)
        var session = SCXMLSession(chart: chart)
        try session.start()
        #expect(session.machine.pendingTimers.map(\.id) == ["t"])
        try session.send("leave")
        #expect(session.machine.pendingTimers.isEmpty)
        try session.advance(by: .seconds(10))
        #expect(session.machine.activeStates == ["b"])
    }

    @Test("a written-out <send> past the pending timers limit raises error.execution, alone or in a block")
    func pendingTimersLimit() throws {
        // Alone, the block runs the `<send>` itself; after a `<cancel>`, the block's loop does.
        for onEntry in [
            #"<send event="late" delay="5s"/>"#, #"<cancel sendid="none"/><send event="late" delay="5s"/>"#,
        ] {
            let chart = try SCXMLChart.load(
                """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
                  <state id="a">
                    <onentry>\(onEntry)</onentry>
                    <transition event="again" target="a"/>
                    <transition event="error.execution" target="failed"/>
                  </state>
                  <state id="failed"/>
                </scxml>
                """)
            var limits = SCXMLLimits.default
            limits.pendingTimers = 1
            var session = SCXMLSession(chart: chart, options: .init(limits: limits, recordsMicrosteps: true))
            try session.start()
            let step = try session.send("again")
            #expect(session.machine.activeStates == ["failed"], "\(onEntry)")
            let failure = try #require(step.errors.first, "\(onEntry)")
            #expect(failure.description.contains("send"), "\(failure)")
            #expect(failure.description.contains("pending"), "\(failure)")
        }
    }
}
