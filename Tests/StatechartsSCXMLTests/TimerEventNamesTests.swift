import StatechartsSCXML
import StatechartsTesting
import Testing

/// `SCXMLDocument.timerEventNames` and `SCXMLChart.externalEventNames`: which events a document sends
/// itself after a delay, wherever the send is written, and which it leaves to its users.
@Suite struct TimerEventNamesTests {
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="a">
          <datamodel><data id="items" expr="[1, 2]"/><data id="wait" expr="'1s'"/></datamodel>
          <state id="a">
            <onentry>
              <send event="tick" delay="1s"/>
              <if cond="true"><send event="nested" delayexpr="wait"/></if>
              <foreach array="items" item="x"><send event="looped" delay="2s" type="scxml"/></foreach>
              <send event="now"/>
              <send event="away" delay="1s" target="#_parent"/>
              <send event="elsewhere" delay="1s" type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor" target="http://127.0.0.1:1/"/>
              <send eventexpr="'computed'" delay="1s"/>
            </onentry>
            <transition event="tick nested looped now away elsewhere computed go" target="a"/>
          </state>
        </scxml>
        """

    @Test("a delayed send to the session itself is a timer, inside <if> and <foreach> too; others are not")
    func timers() throws {
        let document = try #require(SCXMLReader.read(Self.document).document)
        #expect(document.timerEventNames == ["tick", "nested", "looped"])
    }

    @Test("the events a user sends are those the transitions name, but the timers")
    func external() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="a">
              <state id="a">
                <onentry><send event="tick" delay="1s"/><send event="now"/></onentry>
                <transition event="tick now go" target="a"/>
              </state>
            </scxml>
            """)
        #expect(chart.document.timerEventNames == ["tick"])
        #expect(chart.externalEventNames == ["now", "go"])
    }
}
