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
    @Test("a script that loops forever is stopped after the time limit with error.execution; the machine goes on")
    func infiniteLoop() throws {
        let start = ContinuousClock.now
        var session = try Session(
            """
            <datamodel><data id="after" expr="0"/></datamodel>
            <state id="s">
              <onentry><script>while (true) {}</script><log label="not reached" expr="1"/></onentry>
              <transition event="error.execution" target="recovered">
                <log label="error" expr="_event.name"/>
              </transition>
            </state>
            <state id="recovered">
              <transition event="again" cond="(function () { for (;;) {} })()" target="wrong"/>
              <transition event="error.execution" target="twice">
                <assign location="after" expr="after + 1"/>
              </transition>
            </state>
            <state id="twice">
              <onentry><log label="after" expr="after"/></onentry>
              <transition event="stop" target="done"/>
            </state>
            <state id="wrong"/>
            <final id="done"/>
            """, scriptTimeLimit: .milliseconds(100))
        #expect(session.states == ["recovered"])
        try session.send("again")
        try session.send("stop")
        #expect(session.log == ["error: error.execution", "after: 1"])
        #expect(session.states == ["done"])
        // Two stopped scripts: about 0.2 s, far less than forever.
        #expect(ContinuousClock.now - start < .seconds(30))
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

    @Test("a module import cannot read a file: the import is refused")
    func moduleImportIsRefused() throws {
        let session = try Session(
            """
            <datamodel><data id="outcome" expr="'pending'"/></datamodel>
            <state id="s">
              <onentry>
                <script>import('/etc/passwd').then(function () { outcome = 'read'; }, function () { outcome = 'refused'; });</script>
                <send event="check"/>
              </onentry>
              <transition event="check"><log label="outcome" expr="outcome"/></transition>
            </state>
            """)
        #expect(session.log == ["outcome: refused"])
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
