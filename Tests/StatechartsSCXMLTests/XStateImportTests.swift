import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// One file of the XState corpus (`Examples/XState`): the machine, and beside it the paths of
/// events with the configurations XState's semantics gives, and where each comes from.
struct XStateCorpusEntry: CustomStringConvertible, Sendable {
    static let folder = SharedMaterial.packageRoot.appendingPathComponent("Examples/XState")

    /// A path of steps and where it ends: the active states in document order, or `finished`.
    struct Path: Sendable {
        var steps: [String]
        var guards: [String: Bool]
        var expected: String
    }

    var name: String
    var json: String
    var delays: [String: Duration] = [:]
    var paths: [Path] = []

    var description: String { name }

    static func all() throws -> [XStateCorpusEntry] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        return try files.sorted().map { file in try XStateCorpusEntry(name: String(file.dropLast(5))) }
    }

    init(name: String) throws {
        self.name = name
        json = try String(contentsOf: Self.folder.appendingPathComponent("\(name).json"), encoding: .utf8)
        let lines = try String(contentsOf: Self.folder.appendingPathComponent("\(name).paths"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        var guards: [String: Bool] = [:]
        for line in lines {
            if line.hasPrefix("delay: ") {
                let parts = line.dropFirst(7).split(separator: "=").map(String.init)
                delays[parts[0]] = SCXMLTime.duration(parts[1])
            } else if line.hasPrefix("guard: ") {
                let parts = line.dropFirst(7).split(separator: "=").map(String.init)
                guards[parts[0]] = parts[1] == "true"
            } else if line.hasPrefix("path") {
                var overrides = guards
                if let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") {
                    for pair in line[line.index(after: open)..<close].split(separator: ",") {
                        let parts = pair.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                        overrides[parts[0]] = parts[1] == "true"
                    }
                }
                let body = line[line.index(after: line.firstIndex(of: ":") ?? line.startIndex)...]
                let halves = body.components(separatedBy: "=>")
                let steps = halves[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                paths.append(
                    Path(steps: steps, guards: overrides, expected: halves[1].trimmingCharacters(in: .whitespaces)))
            }
        }
    }

    /// Runs `path` on `chart` in a session; where it ends.
    func run(_ path: Path, on chart: SCXMLChart, invokers: [String: SCXMLInvoker] = [:]) throws -> String {
        let guards = path.guards.mapValues { SCXMLNamedGuard.constant($0) }
        var session = SCXMLSession(chart: chart, options: .init(invokers: invokers, guards: guards))
        try session.start()
        for step in path.steps where session.status != .finished {
            if step.hasPrefix("wait "), let duration = SCXMLTime.duration(String(step.dropFirst(5))) {
                try session.advance(by: duration)
            } else {
                try session.send(SCXMLEvent(step))
            }
        }
        return session.status == .finished ? "finished" : session.activeStates.joined(separator: " ")
    }
}

@Suite struct XStateImportTests {
    @Test("every path of the corpus ends in the configuration XState's semantics gives")
    func corpus() throws {
        let entries = try XStateCorpusEntry.all()
        #expect(entries.count == 5)
        var paths = 0
        for entry in entries {
            let document = try XStateImporter.document(
                fromJSON: entry.json, file: entry.name, options: .init(delays: entry.delays))
            let chart = try document.makeChart()
            #expect(!entry.paths.isEmpty, "\(entry)")
            for path in entry.paths {
                #expect(try entry.run(path, on: chart) == path.expected, "\(entry): \(path.steps)")
                paths += 1
            }
        }
        #expect(paths >= 20)
    }

    @Test("the corpus uses every construct the importer maps at least once")
    func corpusCoversEveryConstruct() throws {
        let text = try XStateCorpusEntry.all().map(\.json).joined()
        let constructs = [
            #""id""#, #""initial""#, #""states""#, #""type": "parallel""#, #""type": "final""#,
            #""type": "history""#, #""history": "deep""#, #""on""#, #""target": ["#, #""reenter": true"#,
            #""after": { "3000""#, #""paymentTimeout""#, #""always""#, #""entry""#, #""exit""#, #""guard": "#,
            #""guard": { "type""#, #""actions": [{ "type""#, #""invoke""#, #""src""#, #""input""#, #""onDone""#,
            #""onError""#, #""tags""#, #""meta""#, #""description""#, #""output""#, #""mouse.*""#, #""*""#,
            ##""#bullets""##, #"".bold.off""#,
        ]
        for construct in constructs { #expect(text.contains(construct), "the corpus has no \(construct)") }
    }

    @Test("import, then graph --format xstate, then import again gives the same SCXML")
    func roundTrip() throws {
        for entry in try XStateCorpusEntry.all() {
            let options = XStateImporter.Options(delays: entry.delays)
            let first = try XStateImporter.document(fromJSON: entry.json, file: entry.name, options: options)
            let json = try XStateWriter.json(first)
            let second = try XStateImporter.document(fromJSON: json, file: entry.name, options: options)
            #expect(SCXMLWriter.write(second) == SCXMLWriter.write(first), "\(entry):\n\(json)")
        }
    }

    @Test("the imported SCXML reads back as the same document: the named actions and guards are kept")
    func importedDocumentReadsBack() throws {
        for entry in try XStateCorpusEntry.all() {
            let document = try XStateImporter.document(
                fromJSON: entry.json, file: entry.name, options: .init(delays: entry.delays))
            let text = SCXMLWriter.write(document)
            let reread = try SCXMLReader.read(text, file: entry.name).get()
            #expect(SCXMLWriter.write(reread) == text, "\(entry)")
            #expect(try XStateWriter.json(reread) == XStateWriter.json(document), "\(entry)")
        }
    }

    @Test("an invocation runs the Swift work registered for its src, with its input; onDone takes its end")
    func invocationRunsSwiftWork() async throws {
        let entry = try XStateCorpusEntry(name: "fetch")
        let chart = try XStateImporter.document(fromJSON: entry.json, file: "fetch").makeChart()
        let received = Locked<String?>(nil)
        let fetchUser = SCXMLInvoker { request in
            received.withLock { $0 = request.source }
            return .object(["name": .string("Ada")])
        }
        var session = SCXMLSession(chart: chart, options: .init(invokers: ["fetchUser": fetchUser]))
        try session.start()
        try session.send("FETCH")
        #expect(session.activeStates == ["fetch.loading"])
        #expect(session.runningInvocations == ["getUser"])
        for _ in 0..<200 where session.status != .finished {
            try await session.settle(upTo: .seconds(1))
        }
        #expect(session.status == .finished)
        #expect(received.withLock { $0 } == #"{"userId":42}"#)
    }

    @Test("a named guard without code is an error of the run: the transition is not taken")
    func namedGuardWithoutCode() throws {
        let entry = try XStateCorpusEntry(name: "checkout")
        let chart = try XStateImporter.document(
            fromJSON: entry.json, file: "checkout", options: .init(delays: entry.delays)
        ).makeChart()
        var session = SCXMLSession(chart: chart, options: .init(recordsMicrosteps: true))
        try session.start()
        let step = try session.send("CHECKOUT")
        #expect(session.activeStates == ["checkout.cart"])
        #expect(step.errors.contains { $0.message.contains("the guard 'hasItems' has no code") })
    }

    @Test("a named action runs the session's code for it, with its parameters; what the code throws is error.execution")
    func namedActionsRunSwiftCode() throws {
        let entry = try XStateCorpusEntry(name: "checkout")
        let chart = try XStateImporter.document(
            fromJSON: entry.json, file: "checkout", options: .init(delays: entry.delays)
        ).makeChart()
        let messages = Locked<[SCXMLValue]>([])
        let notify = SCXMLNamedAction { request in
            messages.withLock { $0.append(request.parameters ?? .null) }
            #expect(request.event?.name == "CHECKOUT")
        }
        let options = SCXMLSession.Options(
            guards: ["hasItems": .constant(false)], actions: ["notify": notify], recordsMicrosteps: true)
        var session = SCXMLSession(chart: chart, options: options)
        try session.start()
        try session.send("CHECKOUT")
        #expect(messages.withLock { $0 } == [.object(["message": .string("The cart is empty")])])
        struct Refused: Error, CustomStringConvertible { var description: String { "no message today" } }
        var failing = SCXMLSession(
            chart: chart,
            options: .init(
                guards: ["hasItems": .constant(false)], actions: ["notify": SCXMLNamedAction { _ in throw Refused() }],
                recordsMicrosteps: true))
        try failing.start()
        let step = try failing.send("CHECKOUT")
        #expect(step.errors.contains { $0.message.contains("no message today") })
        #expect(failing.activeStates == ["checkout.cart"])
    }

    @Test("what a JSON export cannot hold, or SCXML cannot say, is an error at its JSON path and position")
    func errorsAtTheirPaths() throws {
        func problems(_ json: String, delays: [String: Duration] = [:]) -> [String] {
            do {
                _ = try XStateImporter.document(fromJSON: json, file: "m.json", options: .init(delays: delays))
                return []
            } catch {
                return error.errors.map(\.description)
            }
        }
        let functionAction = """
            {
              "id": "m",
              "initial": "a",
              "states": { "a": { "entry": ["named", null] } }
            }
            """
        #expect(
            problems(functionAction) == [
                "m.json:4:41: error: $.states.a.entry[1]: an action is null: an inline function, which a JSON export cannot hold; give it a name"
            ])
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"on":{"GO":"nowhere"}}}}"#).first?.contains(
                "$.states.a.on.GO: the target \"nowhere\" names no state") == true)
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"after":{"slow":"a"}}}}"#).first?.contains(
                "the named delay \"slow\" has no duration") == true)
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"after":{"slow":"a"}}}}"#, delays: ["slow": .seconds(2)])
                .isEmpty)
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"onEnter":["x"]}}}"#).first?.contains(
                "$.states.a.onEnter: a state node has no key \"onEnter\"") == true)
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"invoke":{"src":null}}}}"#).first?.contains(
                "$.states.a.invoke.src: an invocation needs 'src' naming its actor") == true)
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"after":{"99999999999999999999":"a"}}}}"#).first?
                .contains(
                    "longer than a billion seconds") == true)
        #expect(
            problems(#"{"id":"m","states":{"two words":{"on":{"A B":"x"}}}}"#).first?.contains(
                #"$.states["two words"].on["A B"]: an event's name cannot be empty or hold white space"#) == true)
        // What XML cannot hold would come back changed: it is refused, and shown escaped.
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a\u0001\n":{}}}"#).contains {
                $0.contains(#"$.states["a\u0001\n"]: "a\u0001\n" holds a control character that SCXML cannot hold"#)
            })
        #expect(
            problems(#"{"id":"m","initial":"a","states":{"a":{"after":{"two words":"a"}}}}"#).first?.contains(
                "a delay's name cannot be empty or hold white space") == true)
        // Several problems are all reported.
        #expect(problems(#"{"id":"m","initial":"z","states":{"a":{"on":{"GO":"b"}},"c":{"x":1}}}"#).count == 3)
    }

    @Test("a self-transition re-enters only with reenter: true, as in XState v5; type internal only where it matters")
    func reentry() throws {
        let json = """
            {"id": "m", "initial": "a", "states": {
              "a": {"initial": "a1", "on": {"STAY": "a", "RESTART": {"target": "a", "reenter": true}, "IN": ".a2", "OUT": "b"},
                    "states": {"a1": {"on": {"SELF": "a1"}}, "a2": {}}},
              "b": {}}}
            """
        let document = try XStateImporter.document(fromJSON: json, file: "m.json")
        let a = try #require(document.states.first)
        let byEvent = Dictionary(uniqueKeysWithValues: a.transitions.map { ($0.events[0], $0) })
        // Without reenter, a target that is the source enters its initial child again, inside it.
        #expect(byEvent["STAY"]?.targets == ["m.a.a1"])
        #expect(byEvent["STAY"]?.type == .internal)
        #expect(byEvent["RESTART"]?.targets == ["m.a"])
        #expect(byEvent["RESTART"]?.type == .external)
        #expect(byEvent["IN"]?.type == .internal)
        #expect(byEvent["OUT"]?.type == .external)
        // An atomic state's self-transition without reenter leaves nothing: it is targetless.
        #expect(a.children.first?.transitions.first?.targets == [])
        var session = SCXMLSession(chart: try document.makeChart())
        try session.start()
        try session.send("IN")
        try session.send("STAY")
        #expect(session.activeStates == ["m.a.a1"])
        // The way back writes reenter only where it re-enters.
        let written = try XStateWriter.json(document)
        #expect(written.contains(#""reenter": true"#))
        #expect(written.components(separatedBy: "reenter").count == 2)
    }

    @Test("broken JSON is an error at its line and column, never a crash")
    func brokenJSON() throws {
        func problem(_ json: String) -> String? {
            do {
                _ = try XStateImporter.document(fromJSON: json, file: "m.json")
                return nil
            } catch {
                return error.errors.first?.description
            }
        }
        #expect(
            problem("{\n  \"id\": \"m\",\n  \"states\": {\n    \"a\": {,}\n  }\n}")
                == "m.json:4:11: error: the file is not valid JSON: an object's key must be a string in double quotes")
        #expect(problem(#"{"id": "m", "id": "n"}"#)?.contains("the key \"id\" is given twice") == true)
        #expect(
            problem("{\"id\": \"é\u{1F600}\", x}")
                == "m.json:1:14: error: the file is not valid JSON: an object's key must be a string in double quotes")
        #expect(problem(String(repeating: "[", count: 100_000))?.contains("nested more than 200 deep") == true)
        #expect(problem(#"{"id": "\ud800"}"#)?.contains("a high surrogate is not followed by a low one") == true)
        #expect(problem("[1, 2") != nil)
        #expect(problem("\"unterminated") != nil)
        #expect(problem("01") != nil)
        #expect(problem("{} {}")?.contains("more text after") == true)
        #expect(problem("") != nil)
    }

    @Test("a hand-written document that XState's JSON cannot say is refused at its places")
    func writerRefusesWhatItCannotSay() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <state id="a">
                <onentry><raise event="go"/></onentry>
                <transition event="go" cond="x &gt; 1" target="b"/>
              </state>
              <final id="b"/>
            </scxml>
            """
        let document = try SCXMLReader.read(text, file: "hand.scxml").get()
        do {
            _ = try XStateWriter.json(document)
            Issue.record("the document was written")
        } catch {
            let messages = error.errors.map(\.description)
            #expect(messages.contains("hand.scxml:3:14: error: <raise> cannot be written as an XState configuration"))
            #expect(
                messages.contains(
                    "hand.scxml:4:5: error: a 'cond' expression cannot be written as an XState configuration"))
        }
    }
}
