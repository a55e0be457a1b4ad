// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
@testable import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import Testing

@Suite("The ECMAScript data model")
struct ECMAScriptDataModelTests {
    @Test("conditions, values, assignments and scripts are ECMAScript on global variables")
    func expressionsAndVariables() throws {
        let session = try Session(
            """
            <datamodel>
              <data id="count" expr="2"/>
              <data id="record">{ "name": "lamp", "watts": [40, 60] }</data>
              <data id="words">  two   words  </data>
            </datamodel>
            <script>function double(x) { return x * 2; }</script>
            <state id="s">
              <onentry>
                <assign location="count" expr="double(count) + record.watts[1];"/>
                <assign location="record.name" expr="'desk ' + record.name"/>
                <log label="count" expr="count"/>
                <log label="name" expr="record.name"/>
                <log label="words" expr="words"/>
                <log label="object" expr="({ a: [1, true, null] })"/>
              </onentry>
              <transition cond="count === 64 &amp;&amp; In('s')" target="done"/>
            </state>
            <final id="done"/>
            """)
        #expect(session.log == ["count: 64", "name: desk lamp", "words: two words", #"object: {"a":[1,true,null]}"#])
        #expect(session.states == ["done"])
    }

    @Test("a delayed <send> held as data delivers the fields a script reads, the session's address as origin")
    func delayedSendHeldAsData() throws {
        var session = try Session(
            """
            <state id="s">
              <onentry><send event="tick" delay="1s" id="t"/></onentry>
              <onexit><cancel sendid="t"/></onexit>
              <transition event="tick" target="s">
                <log label="tick" expr="[_event.name, _event.type, _event.sendid, _event.origintype, _event.origin].join(' ')"/>
                <log label="reply" expr="_event.origin === _ioprocessors['scxml'].location"/>
              </transition>
              <transition event="leave" target="done"/>
            </state>
            <final id="done"/>
            """)
        let storage = session.interpreter.chart.statechart.storage
        #expect(storage.declaredSendCount == 1 && storage.declaredCancelCount == 1)
        try session.interpreter.advance(by: .seconds(1))
        try session.interpreter.advance(by: .seconds(1))
        let tick = "tick: tick external t http://www.w3.org/TR/scxml/#SCXMLEventProcessor #_scxml_test"
        #expect(session.log == [tick, "reply: true", tick, "reply: true"])
        try session.send("leave")
        #expect(session.interpreter.machine.pendingTimers.isEmpty)
    }

    @Test("_event carries every field; absent ones are undefined; it is unbound before the first event")
    func eventFields() throws {
        var session = try Session(
            """
            <state id="s">
              <onentry><log label="before" expr="typeof _event"/></onentry>
              <transition event="go">
                <log label="name" expr="_event.name + ' ' + _event.type"/>
                <log label="data" expr="_event.data.n + 1"/>
                <log label="absent" expr="typeof _event.sendid + ' ' + ('invokeid' in _event)"/>
                <send event="back" id="mine"><param name="p" expr="7"/></send>
              </transition>
              <transition event="back">
                <log label="back" expr="[_event.sendid, _event.origintype, _event.origin, _event.data.p].join(' ')"/>
              </transition>
            </state>
            """)
        try session.send("go", data: .object(["n": .number(41)]))
        #expect(
            session.log == [
                "before: undefined", "name: go external", "data: 42", "absent: undefined true",
                "back: mine http://www.w3.org/TR/scxml/#SCXMLEventProcessor #_scxml_test 7",
            ])
    }

    @Test("system variables cannot be assigned, deleted or replaced by a script")
    func systemVariablesAreReadOnly() throws {
        let session = try Session(
            """
            <state id="s">
              <onentry>
                <assign location="_sessionid" expr="'other'"/>
              </onentry>
              <transition event="error.execution" target="t">
                <script>_name = 'x'; _ioprocessors = null; delete _sessionid; _event = 5;</script>
                <log label="after" expr="[_sessionid, _name, _ioprocessors.scxml.location, _event.name].join(' ')"/>
              </transition>
            </state>
            <final id="t"/>
            """, attributes: #"name="doc""#)
        #expect(session.log == ["after: test doc #_scxml_test error.execution"])
        #expect(session.states == ["t"])
    }

    @Test(
        "a bad expression, location or assignment raises error.execution and the machine goes on",
        arguments: [
            #"<assign location="undeclared" expr="1"/>"#,
            #"<assign location="1 + 1" expr="1"/>"#,
            #"<assign location="count" expr="missing.field"/>"#,
            #"<log expr="+"/>"#,
            #"<foreach array="count" item="x"><log expr="x"/></foreach>"#,
            #"<foreach array="[1]" item="'quoted'"><log expr="1"/></foreach>"#,
            #"<send eventexpr="undefinedName"/>"#,
            #"<script>throw new Error('thrown by the document')</script>"#,
        ])
    func badExpressionsRaiseErrorExecution(action: String) throws {
        let session = try Session(
            """
            <datamodel><data id="count" expr="0"/></datamodel>
            <state id="s">
              <onentry>\(action)<log label="not reached" expr="1"/></onentry>
              <transition event="error.execution" target="failed"/>
              <transition event="*" target="other"/>
            </state>
            <state id="failed"/>
            <state id="other"/>
            """)
        #expect(session.states == ["failed"])
        #expect(!session.log.contains { $0.hasPrefix("not reached") })
    }

    @Test("a condition that throws is false and raises error.execution")
    func throwingCondition() throws {
        let session = try Session(
            """
            <state id="s">
              <transition cond="nothing.here" target="wrong"/>
              <transition event="error.execution" target="right"/>
            </state>
            <state id="wrong"/><state id="right"/>
            """)
        #expect(session.states == ["right"])
    }

    @Test("foreach iterates over a copy, declaring its item and index")
    func foreach() throws {
        let session = try Session(
            """
            <datamodel><data id="list" expr="[3, 4, 5]"/><data id="sum" expr="0"/></datamodel>
            <state id="s">
              <onentry>
                <foreach array="list" item="each" index="position">
                  <assign location="sum" expr="sum + each * position"/>
                  <assign location="list" expr="list.concat([9])"/>
                </foreach>
                <log label="sum" expr="sum + ' ' + list.length + ' ' + typeof each"/>
              </onentry>
            </state>
            """)
        #expect(session.log == ["sum: 14 6 number"])
    }

    @Test("late binding gives a state's data its value when the state is first entered")
    func lateBinding() throws {
        var session = try Session(
            """
            <state id="a">
              <onentry><log label="before" expr="typeof late"/></onentry>
              <transition event="go" target="b"/>
            </state>
            <state id="b">
              <datamodel><data id="late" expr="'bound'"/></datamodel>
              <onentry><log label="after" expr="late"/></onentry>
            </state>
            """, attributes: #"binding="late""#)
        try session.send("go")
        #expect(session.log == ["before: undefined", "after: bound"])
    }

    @Test("an archive restores every variable, functions a script declared, and _event")
    func archive() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="total" expr="1"/><data id="nothing"/></datamodel>
              <script>function grow(x) { return x * 10; } var note = { deep: ['a', { b: 2 }] };</script>
              <state id="s">
                <transition event="step" cond="_event.data > 0">
                  <assign location="total" expr="grow(total) + _event.data"/>
                </transition>
                <transition event="check" target="t">
                  <log label="check" expr="[total, typeof nothing, note.deep[1].b, _event.name].join(' ')"/>
                </transition>
              </state>
              <final id="t"/>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "original"))
        try session.start()
        try session.send(SCXMLEvent("step", data: .number(2)))
        let data = try JSONEncoder().encode(session.archive())
        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        let logs = Locked<[String]>([])
        var restored = try SCXMLSession(
            chart: chart, restoring: archive,
            options: .init(log: { record in logs.withLock { $0.append("\(record)") } }))
        try restored.send(SCXMLEvent("step", data: .number(3)))
        try restored.send("check")
        #expect(logs.withLock { $0 } == ["check: 123 undefined 2 check"])
        #expect(restored.sessionID == "original")
    }

    @Test("XML in <data> is a DOM: elements, attributes, text, and changes made to it")
    func xmlDataIsADocument() throws {
        var session = try Session(
            """
              <datamodel>
                <data id="books">
                  <books xmlns="">
                    <book title="Dune" year="1965">desert</book>
                    <book title="Emma">manners</book>
                  </books>
                </data>
              </datamodel>
              <state id="s">
                <onentry>
                  <log label="count" expr="books.getElementsByTagName('book').length"/>
                  <log label="title" expr="books.getElementsByTagName('book')[0].getAttribute('title')"/>
                  <log label="text" expr="books.getElementsByTagName('book')[1].textContent"/>
                  <log label="missing" expr="books.getElementsByTagName('book')[1].getAttribute('year')"/>
                  <log label="root" expr="books.documentElement.tagName"/>
                </onentry>
                <transition event="rename">
                  <script>books.getElementsByTagName('book')[1].setAttribute('title', _event.data);</script>
                  <log label="renamed" expr="books.getElementsByTagName('book')[1].getAttribute('title')"/>
                </transition>
              </state>
            """)
        #expect(session.log == ["count: 2", "title: Dune", "text: manners", "missing: null", "root: books"])
        try session.send("rename", data: .string("Persuasion"))
        #expect(session.log.last == "renamed: Persuasion")
    }

    @Test("an event whose <content> is XML carries a DOM, which a transition's condition reads")
    func xmlContentTravelsAsADocument() throws {
        let session = try Session(
            """
              <state id="s">
                <onentry>
                  <send event="order">
                    <content><order xmlns="" id="7"><item sku="a1">2</item><item sku="b2">5</item></order></content>
                  </send>
                </onentry>
                <transition event="order" cond="_event.data.getElementsByTagName('item').length == 2" target="t">
                  <log label="order" expr="_event.data.documentElement.getAttribute('id')"/>
                  <log label="second" expr="_event.data.getElementsByTagName('item')[1].getAttribute('sku')"/>
                </transition>
                <transition event="*" target="fail"/>
              </state>
              <final id="t"/>
              <final id="fail"/>
            """)
        #expect(session.states == ["t"])
        #expect(session.log == ["order: 7", "second: b2"])
    }

    @Test("a DOM survives an archive: the restored session reads the same document")
    func xmlDataSurvivesAnArchive() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="doc"><note xmlns="" to="Ann">hi</note></data></datamodel>
              <state id="s">
                <transition event="read" target="t">
                  <log label="note" expr="doc.documentElement.getAttribute('to') + ' ' + doc.documentElement.textContent"/>
                </transition>
              </state>
              <final id="t"/>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart)
        try session.start()
        let data = try JSONEncoder().encode(session.archive())
        let archive = try chart.archiveDecoder(dataModels: ECMAScriptDataModel.withBuiltIns).decode(
            SCXMLSessionArchive.self, from: data)
        var restored = try SCXMLSession(chart: chart, restoring: archive)
        let step = try restored.send("read")
        #expect(restored.activeStates == ["t"])
        #expect(step.logs.map(\.description) == ["note: Ann hi"])
    }
}
#endif
