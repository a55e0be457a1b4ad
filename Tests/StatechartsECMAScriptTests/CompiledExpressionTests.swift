// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import Testing

/// Expressions are compiled to functions on their first evaluation, `_event` is made when a script
/// first reads it, and the watchdog stays armed through a cascade: none of it may change what a
/// document does.
@Suite("Compiled expressions, _event made when read, and the watchdog through a cascade")
struct CompiledExpressionTests {
    @Test("a compiled expression reads the globals as they are at each evaluation")
    func compiledExpressionsReadGlobalsLive() throws {
        var session = try Session(
            """
            <datamodel><data id="count" expr="0"/></datamodel>
            <script>function f() { return 'first'; }</script>
            <state id="s">
              <transition event="tick" cond="count &lt; 2">
                <assign location="count" expr="count + 1"/>
                <log label="f" expr="f() + ' ' + count + ' ' + (this === globalThis)"/>
                <script>function f() { return 'second'; }</script>
              </transition>
              <transition event="tick"><assign location="count" expr="0"/></transition>
            </state>
            """)
        for _ in 0..<6 { try session.send("tick") }
        #expect(
            session.log == [
                "f: first 1 true", "f: second 2 true", "f: second 1 true", "f: second 2 true",
            ])
    }

    @Test("text that closes the expression's parenthesis still runs as the script it spells, every time")
    func breakingOutOfTheParenthesis() throws {
        // As a script, `(0); count++; (0\n)` adds one. Compiled into `return (0); count++; (0\n);`
        // it would add nothing: it must not be compiled.
        var session = try Session(
            """
            <datamodel><data id="count" expr="0"/></datamodel>
            <state id="s">
              <transition event="tick"><log label="value" expr="0); count++; (0"/></transition>
              <transition event="show"><log label="count" expr="count"/></transition>
            </state>
            """)
        for _ in 0..<3 { try session.send("tick") }
        try session.send("show")
        #expect(session.log == ["value: 0", "value: 0", "value: 0", "count: 3"])
    }

    @Test("arguments and new.target mean what they mean at global scope")
    func functionScopeWords() throws {
        var session = try Session(
            """
            <datamodel><data id="arguments" expr="'the global'"/></datamodel>
            <state id="s">
              <transition event="tick"><log label="arguments" expr="arguments"/></transition>
              <transition event="target"><log label="target" expr="new.target"/></transition>
              <transition event="error.execution"><log label="error" expr="_event.name"/></transition>
            </state>
            """)
        try session.send("tick")
        try session.send("tick")
        try session.send("target")
        try session.send("target")
        #expect(
            session.log == [
                "arguments: the global", "arguments: the global", "error: error.execution", "error: error.execution",
            ])
    }

    @Test("_event is one frozen object for the whole event, and a new one for the next")
    func eventObjectIdentity() throws {
        var session = try Session(
            """
            <datamodel><data id="saved" expr="null"/></datamodel>
            <state id="s">
              <transition event="first">
                <assign location="saved" expr="_event"/>
                <script>_event.data.n = 5;</script>
                <log label="same" expr="[saved === _event, Object.isFrozen(_event), _event.data.n].join(' ')"/>
              </transition>
              <transition event="second">
                <log label="next" expr="[saved === _event, saved.name, _event.name].join(' ')"/>
              </transition>
            </state>
            """)
        try session.send("first", data: .object(["n": .number(1)]))
        try session.send("unread")
        try session.send("second")
        #expect(session.log == ["same: true true 5", "next: false first second"])
    }

    @Test("an assignment in one call: its value runs once, and each error keeps its own position")
    func assignmentsInOneCall() throws {
        // From the second assignment to a location on, the value and the setter run in one call
        // into JavaScriptCore; every line below runs through both paths.
        var session = try Session(
            """
            <datamodel>
              <data id="count" expr="0"/><data id="runs" expr="0"/><data id="box" expr="({})"/>
            </datamodel>
            <state id="s">
              <transition event="tick"><assign location="count" expr="count + 1"/></transition>
              <transition event="list"><assign location="box.items" expr="[count, count * 2]"/></transition>
              <transition event="bad-value"><assign location="count"
                expr="(runs = runs + 1, missing.x)"/></transition>
              <transition event="bad-location"><assign
                location="nowhere.x" expr="(runs = runs + 1)"/></transition>
              <transition event="show">
                <log label="state" expr="[count, runs, JSON.stringify(box.items)].join(' ')"/>
              </transition>
              <transition event="error.execution">
                <log label="error" expr="_event.data.line + ' ' + /missing|nowhere/.exec(_event.data.reason)"/>
              </transition>
            </state>
            """)
        for _ in 0..<3 {
            try session.send("tick")
            try session.send("list")
        }
        try session.send("show")
        for _ in 0..<3 { try session.send("bad-value") }
        try session.send("show")
        for _ in 0..<3 { try session.send("bad-location") }
        try session.send("show")
        // The value's error is at its `expr` (line 9), the location's at its `location` (line 11).
        let valueErrors = Array(repeating: "error: 9 missing", count: 3)
        let locationErrors = Array(repeating: "error: 11 nowhere", count: 3)
        #expect(
            session.log
                == ["state: 3 0 [3,6]"] + valueErrors + ["state: 3 3 [3,6]"] + locationErrors + ["state: 3 6 [3,6]"])
    }

    @Test("each call gets the whole script time again, and one call's scripts share it")
    func watchdogThroughCascades() throws {
        // Each `spin` runs 60 ms of script; the budget is 150 ms per call.
        let body = """
            <script>function spin() { var end = Date.now() + 60; while (Date.now() &lt; end) {} return 1; }</script>
            <state id="s">
              <transition event="once"><log label="once" expr="spin()"/></transition>
              <transition event="thrice">
                <log label="a" expr="spin()"/><log label="b" expr="spin()"/><log label="c" expr="spin()"/>
              </transition>
            </state>
            """
        var separate = try Session(body, scriptTimeLimit: .milliseconds(150))
        for _ in 0..<4 { try separate.send("once") }
        #expect(separate.log == ["once: 1", "once: 1", "once: 1", "once: 1"])

        var shared = try Session(body, scriptTimeLimit: .milliseconds(150))
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try shared.send("thrice") }
        #expect(shared.log.count < 3)
    }
}
#endif
