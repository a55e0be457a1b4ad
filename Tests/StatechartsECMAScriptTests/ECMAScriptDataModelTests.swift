// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
import Statecharts
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
        var machine = chart.makeMachine(sessionID: "original")
        try machine.start()
        try machine.send(SCXMLEvent("step", data: .number(2)))
        let data = try JSONEncoder().encode(machine.archive())
        let archive = try chart.archiveDecoder().decode(
            MachineArchive<String, SCXMLEvent, SCXMLSession>.self, from: data)
        let logs = Locked<[String]>([])
        var restored = try chart.restoreMachine(
            from: archive, log: { record in logs.withLock { $0.append("\(record)") } })
        try restored.send(SCXMLEvent("step", data: .number(3)))
        try restored.send("check")
        #expect(logs.withLock { $0 } == ["check: 123 undefined 2 check"])
        #expect(restored.context.info.id == "original")
    }

    @Test("XML content that would be a DOM object is reported when the chart is built")
    func xmlDataIsUnsupported() {
        #expect {
            _ = try SCXMLChart.load(
                """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                  <datamodel><data id="books"><book title="x"/></data></datamodel>
                  <state id="s"/>
                </scxml>
                """, dataModels: ECMAScriptDataModel.withBuiltIns)
        } throws: { error in
            let error = error as? SCXMLError
            return error?.isUnsupportedOnly == true
                && error?.errors.first?.message.contains("DOM") == true
                && error?.errors.first?.location.line == 2
        }
    }
}
#endif
