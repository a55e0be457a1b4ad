// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import Testing

/// `<invoke>` of SCXML sessions and the SCXML event I/O processor, under `SCXMLInterpreter`.
@Suite("Invoke and the SCXML event I/O processor")
struct InvokeTests {
    static let child = """
        <invoke id="worker" autoforward="true">
          <param name="start" expr="10"/>
          <content>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="start" expr="0"/><data id="seen" expr="0"/></datamodel>
              <state id="working">
                <onentry><send target="#_parent" event="hello"><param name="start" expr="start"/></send></onentry>
                <transition event="ping"><send target="#_parent" event="pong"/></transition>
                <transition event="tick"><assign location="seen" expr="seen + 1"/></transition>
                <transition event="finish" target="finished"/>
              </state>
              <final id="finished"><donedata><param name="seen" expr="seen"/></donedata></final>
            </scxml>
          </content>
          <finalize><assign location="lastFromChild" expr="_event.name"/></finalize>
        </invoke>
        """

    @Test("a child gets its parameters, talks to its parent both ways, and reports done.invoke with its done data")
    func roundTrip() throws {
        var session = try Session(
            """
            <datamodel><data id="lastFromChild" expr="''"/></datamodel>
            <state id="parent">
              \(Self.child)
              <transition event="hello">
                <log label="hello" expr="_event.data.start + ' from ' + _event.invokeid + ' ' + lastFromChild"/>
                <send target="#_worker" event="ping"/>
              </transition>
              <transition event="pong"><log label="pong" expr="_event.origin"/></transition>
              <transition event="done.invoke.worker" target="over">
                <log label="done" expr="_event.data.seen + ' ' + lastFromChild"/>
              </transition>
            </state>
            <final id="over"/>
            """)
        #expect(session.interpreter.childSessionIDs == ["test.1"])
        try session.send("tick")
        try session.send("tick")
        try session.send("finish")
        #expect(session.log == ["hello: 10 from worker hello", "pong: #_scxml_test.1", "done: 2 done.invoke.worker"])
        #expect(session.states == ["over"])
        #expect(session.interpreter.childSessionIDs.isEmpty)
    }

    @Test("leaving the invoking state cancels the child: its delayed events never arrive and it is gone")
    func cancelOnExit() throws {
        var session = try Session(
            """
            <state id="waiting">
              <invoke id="late">
                <content>
                  <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <state id="c"><onentry><send target="#_parent" event="tooLate" delay="5s"/></onentry></state>
                  </scxml>
                </content>
              </invoke>
              <transition event="leave" target="elsewhere"/>
            </state>
            <state id="elsewhere">
              <transition event="tooLate" target="wrong"/>
            </state>
            <state id="wrong"/>
            """)
        #expect(session.interpreter.childSessionIDs.count == 1)
        try session.send("leave")
        #expect(session.interpreter.childSessionIDs.isEmpty)
        try session.interpreter.advance(by: .seconds(10))
        #expect(session.states == ["elsewhere"])
    }

    @Test("a state exited in the step that entered it starts no invocation")
    func noInvocationForATransientState() throws {
        let session = try Session(
            """
            <state id="passing">
              <invoke id="never"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><state id="x"/></scxml></content></invoke>
              <transition target="next"/>
            </state>
            <state id="next"/>
            """)
        #expect(session.interpreter.childSessionIDs.isEmpty)
        #expect(session.states == ["next"])
    }

    @Test("idlocation receives the generated invoke id, and #_scxml_ targets reach the child")
    func idLocationAndSessionTargets() throws {
        var session = try Session(
            """
            <datamodel><data id="childID"/></datamodel>
            <state id="s">
              <invoke idlocation="childID">
                <content>
                  <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <state id="c">
                      <transition event="who"><send targetexpr="'#_scxml_' + _ioprocessors.scxml.location.slice(8).replace(/\\.[0-9]+$/, '')" event="me"><param name="id" expr="_sessionid"/></send></transition>
                    </state>
                  </scxml>
                </content>
              </invoke>
              <transition event="ask"><send targetexpr="'#_scxml_test.1'" event="who"/></transition>
              <transition event="me"><log label="me" expr="_event.data.id + ' ' + childID"/></transition>
            </state>
            """)
        try session.send("ask")
        #expect(session.log == ["me: test.1 s.test.1"])
    }

    @Test("a target no session answers raises error.communication; a malformed one error.execution")
    func unreachableTargets() throws {
        let session = try Session(
            """
            <state id="s">
              <onentry>
                <send target="#_parent" event="x"/>
                <send target="#_nobody" event="x"/>
                <send target="#_scxml_nobody" event="x"/>
                <send target="somewhere" event="x"/>
              </onentry>
              <transition event="error.communication"><log label="communication" expr="_event.sendid !== undefined"/></transition>
              <transition event="error.execution"><log label="execution" expr="_event.sendid !== undefined"/></transition>
            </state>
            """)
        #expect(
            session.log == ["communication: true", "communication: true", "communication: true", "execution: true"])
    }

    @Test("a child document from a src file next to the parent runs, and an unreadable one raises error.execution")
    func sourceFiles() throws {
        let session = try Session(fixture: "invoke-parent.scxml")
        #expect(session.log == ["child says: from a file", "missing: error.execution"])
        #expect(session.states == ["done"])
        let problem = try #require(session.interpreter.problems.first)
        #expect(problem.message == "the file 'file:no-such-child.scxml' cannot be read: there is no such file")
        #expect(problem.location.file.hasSuffix("invoke-parent.scxml") && problem.location.line == 9)
    }

    @Test("the same relative src names a different file in each invoking document's folder")
    func sourcesRelativeToEachDocument() throws {
        let session = try Session(fixture: "two-folders.scxml")
        #expect(session.log == ["from: left", "from: right"])
        #expect(session.interpreter.childSessionIDs.count == 4)
    }

    @Test("the same run gives the same trace every time")
    func deterministic() throws {
        func run() throws -> [String] {
            var session = try Session(
                """
                <datamodel><data id="lastFromChild" expr="''"/></datamodel>
                <state id="parent">
                  \(Self.child)
                  <transition event="hello"><send target="#_worker" event="ping" delay="1s"/></transition>
                  <transition event="pong"><log label="pong" expr="lastFromChild"/><send target="#_worker" event="finish"/></transition>
                  <transition event="done.invoke" target="over"><log label="done" expr="_event.data.seen"/></transition>
                </state>
                <final id="over"/>
                """)
            try session.interpreter.advance(by: .seconds(2))
            return session.log
        }
        let first = try run()
        #expect(first == ["pong: pong", "done: 0"])
        for _ in 0..<5 { #expect(try run() == first) }
    }
}
#endif
