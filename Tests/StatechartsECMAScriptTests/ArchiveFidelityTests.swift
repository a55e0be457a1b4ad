// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import Testing

/// What an archive of the ECMAScript data model keeps: every value a document can hold, exactly,
/// or a typed error naming the variable. Never a silent change.
@Suite struct ArchiveFidelityTests {
    /// A document whose script makes `values`, archived to JSON and restored; `check` is an
    /// expression evaluated in the restored session, logged.
    static func roundTrip(script: String, check: String) throws -> String {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <script>\(Escaping.xml(script, in: .text))</script>
              <state id="s">
                <transition event="check" target="t"><log label="check" expr="\(Escaping.xml(check))"/></transition>
              </state>
              <final id="t"/>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "original"))
        try session.start()
        let data = try JSONEncoder().encode(session.archive())
        let archive = try chart.archiveDecoder(dataModels: ECMAScriptDataModel.withBuiltIns).decode(
            SCXMLSessionArchive.self, from: data)
        let logs = Locked<[String]>([])
        var restored = try SCXMLSession(
            chart: chart, restoring: archive,
            options: .init(log: { record in logs.withLock { $0.append("\(record)") } }))
        try restored.send("check")
        return logs.withLock { $0 }.joined(separator: "\n")
    }

    @Test(
        "Numbers and values JSON cannot hold come back exactly",
        arguments: [
            ("var x = NaN;", "Number.isNaN(x)"),
            ("var x = Infinity; var y = -Infinity;", "x === Infinity && y === -Infinity"),
            ("var x = -0;", "Object.is(x, -0)"),
            ("var x = [0, -0, NaN];", "Object.is(x[1], -0) && Number.isNaN(x[2]) && Object.is(x[0], 0)"),
            (
                "var x = 0.1 + 0.2; var y = 1e308 * 10; var z = 5e-324;",
                "x === 0.30000000000000004 && y === Infinity && z === 5e-324"
            ),
            ("var x = 9007199254740993n;", "x === 9007199254740993n"),
            ("var x = undefined; var o = { a: undefined };", "x === undefined && 'a' in o && o.a === undefined"),
            ("var x = [1, , 3];", "x.length === 3 && !(1 in x) && x[2] === 3"),
            ("var d = new Date(1700000000123);", "d instanceof Date && d.getTime() === 1700000000123"),
            ("var d = new Date(NaN);", "d instanceof Date && Number.isNaN(d.getTime())"),
            (
                "var m = new Map([[1, 'a'], ['1', { b: NaN }]]);",
                "m instanceof Map && m.get(1) === 'a' && Number.isNaN(m.get('1').b)"
            ),
            ("var s = new Set([1, 'x', -0]);", "s instanceof Set && s.size === 3 && s.has('x')"),
            (
                "var r = /a+b/gi; r.lastIndex = 2;",
                "r instanceof RegExp && r.source === 'a+b' && r.flags === 'gi' && r.lastIndex === 2"
            ),
            (
                "var t = new Float64Array([NaN, -0, 1.5]);",
                "t instanceof Float64Array && Number.isNaN(t[0]) && Object.is(t[1], -0) && t[2] === 1.5"
            ),
            ("var b = new Uint8Array([1, 2, 255]);", "b instanceof Uint8Array && b.join() === '1,2,255'"),
            (
                "var buffer = new ArrayBuffer(8); var a = new Uint8Array(buffer, 2, 4); var c = new Uint16Array(buffer); a[0] = 7;",
                "a.buffer === c.buffer && c[1] === 7 && a.byteOffset === 2"
            ),
            ("var shared = { n: 1 }; var pair = [shared, shared];", "pair[0] === pair[1]"),
            ("var loop = { name: 'loop' }; loop.self = loop;", "loop.self === loop"),
            ("var bare = Object.create(null); bare.k = 1;", "Object.getPrototypeOf(bare) === null && bare.k === 1"),
            ("var frozen = Object.freeze({ a: 1 });", "Object.isFrozen(frozen)"),
            (
                "var tricky = {}; Object.defineProperty(tricky, '__proto__', { value: 5, enumerable: true, writable: true, configurable: true });",
                "Object.getPrototypeOf(tricky) === Object.prototype && tricky['__proto__'] === 5"
            ),
            (
                "var text = 'a\\u0000b\\ud800c\\u2028';",
                "text.length === 6 && text.charCodeAt(1) === 0 && text.charCodeAt(3) === 0xd800 && text.charCodeAt(5) === 0x2028"
            ),
            (
                "function twice(x) { return 2 * x; } var holder = { f: twice };",
                "holder.f(4) === 8 && holder.f === twice"
            ),
        ])
    func valuesComeBack(script: String, check: String) throws {
        #expect(try Self.roundTrip(script: script, check: check) == "check: true", "\(script)")
    }

    @Test(
        "A value no archive can hold is a typed error naming the variable and where in it",
        arguments: [
            ("var w = { inner: new WeakMap() };", "the variable 'w' cannot be archived: w.inner is a WeakMap"),
            ("var p = [new WeakSet()];", "the variable 'p' cannot be archived: p[0] is a WeakSet"),
            ("var e = { at: new Error('x') };", "the variable 'e' cannot be archived: e.at is an Error"),
            ("var s = { k: Symbol('x') };", "the variable 's' cannot be archived: s.k is a symbol"),
            (
                "class Point { constructor() { this.x = 1; } } var pt = new Point();",
                "the variable 'pt' cannot be archived: pt is a Point"
            ),
            (
                "var g = {}; Object.defineProperty(g, 'v', { get: function () { return 1; }, enumerable: true });",
                "the variable 'g' cannot be archived: g.v is a getter or a setter"
            ),
        ])
    func unarchivable(script: String, message: String) throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <script>\(Escaping.xml(script, in: .text))</script>
              <state id="s"/>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "original"))
        try session.start()
        do {
            _ = try session.archive()
            Issue.record("\(script) was archived")
        } catch .dataModel(let id, let reason) {
            #expect(id == "original")
            #expect(reason.hasPrefix(message), "\(reason)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Values nested deeper than an archive reads are refused when the archive is made, not when it is read")
    func depthLimitBothWays() throws {
        let script = "var deep = {}; var at = deep; for (var i = 0; i < 1500; i++) { at.next = {}; at = at.next; }"
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <script>\(Escaping.xml(script, in: .text))</script>
              <state id="s"/>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "deep"))
        try session.start()
        do {
            _ = try session.archive()
            Issue.record("a value nested 1,500 deep was archived")
        } catch .dataModel(_, let reason) {
            #expect(reason.hasPrefix("the variable 'deep' cannot be archived: deep.next.next"), "\(reason)")
            #expect(reason.hasSuffix("is nested more than 1000 levels deep"), "\(reason)")
            #expect(reason.count < 300)
        } catch {
            Issue.record("\(error)")
        }
    }
}
#endif

#if ECMAScript
/// Archives in memory are values: a session that goes on after an archive does not change it.
@Suite struct ArchiveValueTests {
    @Test("An archive kept in memory restores the data as it was, after the session changed it")
    func archivesShareNothing() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="count" expr="0"/><data id="list" expr="[]"/></datamodel>
              <state id="s">
                <transition event="add"><assign location="count" expr="count + 1"/><script>list.push(count);</script></transition>
                <transition event="show"><log label="show" expr="count + ' ' + list.join(',')"/></transition>
              </state>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        let logs = Locked<[String]>([])
        let options = SCXMLSession.Options(log: { record in logs.withLock { $0.append("\(record)") } })
        var session = SCXMLSession(chart: chart, options: options)
        try session.start()
        try session.send("add")
        let archive = try session.archive()
        try session.send("add")
        try session.send("add")
        // Restored twice from the same value: each is the session after one "add", and neither
        // changes the other.
        var first = try SCXMLSession(chart: chart, restoring: archive, options: options)
        var second = try SCXMLSession(chart: chart, restoring: archive, options: options)
        try first.send("add")
        try first.send("show")
        try second.send("show")
        try session.send("show")
        #expect(logs.withLock { $0 } == ["show: 2 1,2", "show: 1 1", "show: 3 1,2,3"])
    }
}
#endif
