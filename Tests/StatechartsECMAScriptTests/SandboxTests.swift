// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import Testing

/// Documents are untrusted: scripts reach no files, network or processes, and are stopped
/// when they run too long.
@Suite("The script sandbox")
struct SandboxTests {
    @Test("a script that loops forever is stopped at the cascade's script time, and the session ends with the limit")
    func infiniteLoop() throws {
        let start = ContinuousClock.now
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
            <state id="s">
              <onentry><script>while (true) {}</script></onentry>
              <transition event="error.execution" target="wrong"/>
            </state>
            <state id="wrong"/>
            </scxml>
            """
        let chart = try SCXMLChart.load(text, file: "loop.scxml", dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(scriptTime: .milliseconds(100))))
        do {
            try session.start()
            Issue.record("the loop was not stopped")
        } catch {
            guard case .limitExceeded(let violation) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(violation.limit == "scriptTime")
            #expect(violation.location?.file == "loop.scxml")
            #expect(violation.location?.line == 3)
        }
        #expect(session.endedBy != nil)
        // An ended session takes nothing more.
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try session.send("again") }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("the script time is the whole cascade's: many short scripts share it")
    func scriptTimePerCascade() throws {
        // Each guard takes about 30 ms; 100 of them in one cascade would take 3 s. Past the
        // budget, the rest of the cascade runs no script and raises no error.execution.
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
            <datamodel><data id="n" expr="0"/></datamodel>
            <state id="a">
              <transition event="go" target="b"/>
            </state>
            <state id="b">
              <transition cond="(function () { var end = Date.now() + 30; while (Date.now() &lt; end) {} n++; return n &lt; 100; })()" target="b"/>
            </state>
            </scxml>
            """
        let chart = try SCXMLChart.load(text, file: "slow.scxml", dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(scriptTime: .milliseconds(300))))
        try session.start()
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try session.send("go") }
        // The budget ended the loop, not the document: fewer than its 100 rounds ran.
        var model = session.machine.context.model
        let rounds = try model.value(
            SCXMLExpression("n", location: SourcePosition(file: "test", line: 1, column: 1)), isActive: { _ in false })
        guard case .number(let count) = rounds else {
            Issue.record("n is \(rounds)")
            return
        }
        #expect(count >= 1 && count < 100)
        if case .limitExceeded(let violation)? = session.endedBy {
            #expect(violation.limit == "scriptTime")
        } else {
            Issue.record("the session did not end with the script time: \(String(describing: session.endedBy))")
        }
    }

    @Test("moving time on starts the script budget again at each instant at which timers fire")
    func scriptTimePerInstant() throws {
        // Thirty instants, each with a 20 ms guard: 600 ms in one call, 20 ms per cascade.
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
            <datamodel><data id="ticks" expr="0"/></datamodel>
            <state id="s">
              <onentry><send event="tick" delay="100ms"/></onentry>
              <transition event="tick" cond="(function () { var end = Date.now() + 20; while (Date.now() &lt; end) {} ticks++; return true; })()" target="s"/>
              <transition event="report"><log label="ticks" expr="ticks"/></transition>
            </state>
            </scxml>
            """
        let chart = try SCXMLChart.load(text, file: "ticks.scxml", dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(scriptTime: .milliseconds(300))))
        try session.start()
        try session.advance(by: .seconds(3))
        #expect(session.endedBy == nil)
        let report = try session.send("report")
        #expect(report.logs.map(\.message) == ["30"])
    }

    @Test("identifiers that contain async, await or import are not refused")
    func wordsInsideIdentifiers() throws {
        let session = try Session(
            """
            <datamodel><data id="asyncCount" expr="1"/><data id="awaited" expr="2"/><data id="important" expr="3"/></datamodel>
            <state id="s"><onentry><log label="sum" expr="asyncCount + awaited + important"/></onentry></state>
            """)
        #expect(session.log == ["sum: 6"])
    }

    @Test("eval and the Function constructors are off, so code comes from the document only")
    func noEval() throws {
        let session = try Session(
            """
            <state id="s">
              <onentry><script>eval("1 + 1")</script></onentry>
              <transition event="error.execution" target="refused"/>
            </state>
            <state id="refused">
              <onentry><script>Function("return 1")()</script></onentry>
              <transition event="error.execution" target="twice"/>
            </state>
            <final id="twice"/>
            """)
        #expect(session.states == ["twice"])
    }

    @Test("promises, async and WebAssembly are not available; other built-ins are")
    func removedBuiltIns() throws {
        let session = try Session(
            """
            <datamodel><data id="kinds" expr="[typeof Promise, typeof WebAssembly, typeof Array.fromAsync, typeof JSON, typeof Map].join()"/></datamodel>
            <state id="s"><onentry><log label="kinds" expr="kinds"/></onentry></state>
            """)
        #expect(session.log == ["kinds: undefined,undefined,undefined,object,function"])
    }

    @Test("outside a session each evaluation gets the script time alone")
    func outsideASession() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
            <state id="s"><onentry><script>while (true) {}</script></onentry>
              <transition event="error.execution" target="stopped"/></state>
            <final id="stopped"/>
            </scxml>
            """
        let chart = try SCXMLChart.load(text, file: "alone.scxml", dataModels: ECMAScriptDataModel.withBuiltIns)
        let info = SCXMLSessionInfo(id: "alone", name: nil, limits: SCXMLLimits(scriptTime: .milliseconds(100)))
        var machine = chart.statechart.makeMachine(
            context: SCXMLContext(model: chart.dataModel.init(session: info), info: info))
        try machine.start()
        #expect(machine.activeStates == ["stopped"])
    }

    @Test("the time limit is the session's: a longer limit lets a slow but finite script end")
    func slowScriptWithinLimit() throws {
        let session = try Session(
            """
            <datamodel><data id="n" expr="0"/></datamodel>
            <state id="s">
              <onentry><script>for (var i = 0; i &lt; 200000; i++) { n += 1; }</script><log label="n" expr="n"/></onentry>
            </state>
            """, scriptTimeLimit: .seconds(30))
        #expect(session.log == ["n: 200000"])
    }

    @Test(
        "a script that tries to read a file, reach the network or start a process gets error.execution",
        arguments: [
            "readFile('/etc/passwd')", "require('fs').readFileSync('/etc/passwd')", "fetch('http://example.com')",
            "new XMLHttpRequest()", "load('/etc/passwd')", "process.exit(1)", "Deno.readTextFileSync('/etc/passwd')",
        ])
    func noHostAccess(script: String) throws {
        let session = try Session(
            """
            <state id="s">
              <onentry><script>\(script)</script></onentry>
              <transition event="error.execution" target="refused"><log label="why" expr="_event.name"/></transition>
            </state>
            <state id="refused"/>
            """)
        #expect(session.states == ["refused"])
    }

    @Test("a module import, async or await is refused with error.execution before the script runs")
    func moduleImportIsRefused() throws {
        let session = try Session(
            """
            <datamodel><data id="outcome" expr="'pending'"/></datamodel>
            <state id="s">
              <onentry>
                <script>outcome = 'ran'; import('/etc/passwd');</script>
              </onentry>
              <transition event="error.execution" cond="_event.data.reason.indexOf('asynchronous JavaScript') >= 0">
                <log label="outcome" expr="outcome"/>
              </transition>
            </state>
            """)
        #expect(session.log == ["outcome: pending"])
    }

    @Test("the global object has ECMAScript's built-ins only")
    func onlyBuiltIns() throws {
        let session = try Session(
            """
            <state id="s">
              <onentry>
                <log label="host" expr="['require', 'process', 'fetch', 'XMLHttpRequest', 'readFile', 'load', 'print', 'document', 'window'].filter(function (name) { return typeof globalThis[name] !== 'undefined'; }).join(',')"/>
              </onentry>
            </state>
            """)
        #expect(session.log == ["host"])  // the label alone: the list of host objects is empty
    }

    @Test("a script that throws raises error.execution with its message, and the rest of its block is skipped")
    func throwingScript() throws {
        let session = try Session(
            """
              <state id="s">
                <onentry>
                  <script>throw new TypeError('document error');</script>
                  <log label="skipped" expr="1"/>
                </onentry>
                <onentry><log label="next block" expr="'runs'"/></onentry>
                <transition event="error.execution" target="t">
                  <log label="error" expr="[_event.data.tagname, _event.data.line, _event.data.reason].join(' | ')"/>
                </transition>
              </state>
              <final id="t"/>
            """, file: "thrower.scxml")
        #expect(session.states == ["t"])
        #expect(session.log.first == "next block: runs")
        let error = try #require(session.log.dropFirst().first)
        #expect(error.hasPrefix("error: script | 4 | "), "\(error)")
        #expect(error.contains("TypeError: document error"), "\(error)")
        #expect(session.log.count == 2)
    }

    @Test("<data src> reads only files in the document's folder")
    func dataSourceStaysInTheFolder() throws {
        let session = try Session(fixture: "data-sources.scxml")
        #expect(session.log == ["inside: 3", "outside: error.execution", "absolute: error.execution"])
    }
}
#endif
