import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// Input built to hurt: huge, deep, wide or looping charts and enormous names. Each gets a clear
/// error or works; none crashes, overflows the stack or hangs.
// A test's time limit counts its wait for one of the `.ownThread` slots (as many as cores), behind
// the other suites that compute for seconds: 3 minutes, where each of these ends in seconds alone.
@Suite(.ownThread) struct HostileInputTests {
    static let header = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">"#

    @Test("a document of 100,000 states is read, built and run")
    func hundredThousandStates() throws {
        let count = 100_000
        var text = Self.header
        text.reserveCapacity(count * 64)
        for index in 0..<count {
            text += #"<state id="s\#(index)"><transition event="next" target="s\#((index + 1) % count)"/></state>"#
        }
        text += "</scxml>"
        let chart = try SCXMLChart.load(text, file: "huge.scxml")
        var machine = SCXMLSession(chart: chart)
        try machine.start()
        try machine.send("next")
        try machine.send("next")
        #expect(machine.activeStates == ["s2"])
    }

    @Test("a document nested 10,000 deep gets one diagnostic at the first element too deep")
    func deepDocument() {
        let depth = 10_000
        let text =
            Self.header + (0..<depth).map { #"<state id="d\#($0)">"# }.joined()
            + String(repeating: "</state>", count: depth) + "</scxml>"
        do {
            _ = try SCXMLChart.load(text, file: "deep.scxml")
            Issue.record("a document nested 10,000 deep was accepted")
        } catch {
            #expect(error.diagnostics.count == 1)
            #expect(error.description.contains("deep.scxml:1:"))
            #expect(error.description.contains("nested more than \(SCXMLReader.maximumDepth) deep"))
        }
    }

    @Test("a chart built in code nested 10,000 deep is rejected, not overflowed")
    func deepChartInCode() {
        var element = ChartElement<String, SCXMLEvent, Void>.state("leaf")
        for level in 0..<10_000 { element = .state("level\(level)", elements: [element]) }
        do {
            _ = try Statechart<String, SCXMLEvent, Void>(name: "deep", elements: [element])
            Issue.record("a chart nested 10,000 deep was accepted")
        } catch {
            #expect(error.problems.contains { $0.code == .nestingTooDeep })
        }
    }

    @Test("a transition with 5,000 targets, one in each region of a parallel state, is taken")
    func thousandsOfTargets() throws {
        let regions = 5_000
        var text = Self.header + #"<state id="idle"><transition event="go" target=""#
        text += (0..<regions).map { "b\($0)" }.joined(separator: " ") + #""/></state><parallel id="p">"#
        for index in 0..<regions {
            text += #"<state id="r\#(index)"><state id="a\#(index)"/><state id="b\#(index)"/></state>"#
        }
        text += "</parallel></scxml>"
        let chart = try SCXMLChart.load(text, file: "wide.scxml")
        var machine = SCXMLSession(chart: chart)
        try machine.start()
        try machine.send("go")
        #expect(machine.activeStates.count == regions)
        #expect(machine.activeStates.allSatisfy { $0.hasPrefix("b") })
    }

    @Test("5,000 targets that cannot be active together are reported, not taken")
    func thousandsOfConflictingTargets() {
        var text = Self.header + #"<state id="idle"><transition event="go" target=""#
        text += (0..<5_000).map { "t\($0)" }.joined(separator: " ") + #""/></state>"#
        for index in 0..<5_000 { text += #"<state id="t\#(index)"/>"# }
        text += "</scxml>"
        do {
            _ = try SCXMLChart.load(text, file: "targets.scxml")
            Issue.record("incompatible targets were accepted")
        } catch {
            #expect(error.description.contains("targets.scxml:1:"))
        }
    }

    @Test("an event name of a megabyte is matched, refused or ignored like any other")
    func megabyteEventName() throws {
        let name = String(repeating: "x", count: 1 << 20)
        let text =
            Self.header + #"<state id="a"><transition event="\#(name)" target="b"/></state><state id="b"/></scxml>"#
        let chart = try SCXMLChart.load(text, file: "long.scxml")
        var machine = SCXMLSession(chart: chart, options: .init(unhandledEvents: .reject))
        try machine.start()
        #expect(throws: (any Error).self) { try machine.send(SCXMLEvent(name + "y")) }
        try machine.send(SCXMLEvent(name))
        #expect(machine.activeStates == ["b"])
    }

    @Test("an eventless loop stops at the microstep limit with an error naming the configuration")
    func eventlessLoop() throws {
        let text =
            Self.header + #"""
                <state id="a"><transition target="b"/></state>
                <state id="b"><transition target="a"/></state>
                </scxml>
                """#
        let chart = try SCXMLChart.load(text, file: "loop.scxml")
        var machine = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(microsteps: 10_000)))
        do {
            try machine.start()
            Issue.record("an eventless loop did not stop")
        } catch {
            guard case .microstepLimitExceeded(let limit, let configuration) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(limit == 10_000)
            #expect(configuration == ["a"] || configuration == ["b"])
        }
    }

    @Test("raised events that feed each other stop at the microstep limit too")
    func raisedEventLoop() throws {
        let text =
            Self.header + #"""
                <state id="a">
                  <onentry><raise event="again"/></onentry>
                  <transition event="again" target="a"/>
                </state>
                </scxml>
                """#
        let chart = try SCXMLChart.load(text, file: "raise.scxml")
        var machine = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(microsteps: 5_000)))
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try machine.start() }
    }

    @Test(
        "a state that sends itself an event it re-enters on stops at the limit, and the session goes on",
        .timeLimit(.minutes(3)))
    func sentEventLoop() throws {
        // Found by the fuzzer: each delivery is a call of its own to the machine, so only the
        // session's count of the whole cascade can stop it.
        let text =
            Self.header + #"""
                <state id="idle"><transition event="go" target="looping"/></state>
                <state id="looping">
                  <onentry><send event="again" delay="0s"/></onentry>
                  <transition event="again" target="looping"/>
                  <transition event="stop" target="idle"/>
                </state>
                </scxml>
                """#
        var session = SCXMLSession(
            chart: try SCXMLChart.load(text, file: "send.scxml"), options: .init(limits: SCXMLLimits(microsteps: 2_000))
        )
        try session.start()
        do {
            try session.send("go")
            Issue.record("a loop of sent events did not stop")
        } catch {
            guard case .microstepLimitExceeded(let limit, let configuration) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(limit == 2_000)
            #expect(configuration == ["looping"])
        }
        // The abandoned cascade left nothing behind: the next event is processed.
        try session.send("stop")
        #expect(session.activeStates == ["idle"])
    }

    @Test(
        "a parent and a child that answer each other for ever stop at the limit of the whole cascade",
        .timeLimit(.minutes(3)))
    func sessionsPingPong() throws {
        let text =
            Self.header + #"""
                <state id="talking">
                  <invoke id="echo" type="scxml">
                    <content>
                      <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
                        <state id="echoing">
                          <onentry><send event="ping" target="#_parent"/></onentry>
                          <transition event="pong"><send event="ping" target="#_parent"/></transition>
                        </state>
                      </scxml>
                    </content>
                  </invoke>
                  <transition event="ping"><send event="pong" target="#_echo"/></transition>
                </state>
                </scxml>
                """#
        var session = SCXMLSession(
            chart: try SCXMLChart.load(text, file: "ping.scxml"), options: .init(limits: SCXMLLimits(microsteps: 3_000))
        )
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try session.start() }
    }

    // MARK: - Inputs the fuzzer found

    static let fuzzFindings = SharedMaterial.packageRoot.appendingPathComponent(
        "Tests/StatechartsSCXMLTests/Fixtures/Fuzz")

    /// Each file of `Fixtures/Fuzz` once crashed or hung the reader or a session (see
    /// Scripts/fuzz.sh); now each gets diagnostics, or builds and runs the steps the fuzzer ran.
    @Test(
        "inputs the fuzzer found are read and run without a crash or a hang", .timeLimit(.minutes(3)),
        arguments: (try? FileManager.default.contentsOfDirectory(atPath: fuzzFindings.path))?.sorted() ?? [])
    func fuzzFinding(name: String) throws {
        let data = try Data(contentsOf: Self.fuzzFindings.appendingPathComponent(name))
        let result = SCXMLReader.read(data, file: name)
        if let document = result.document, let chart = try? document.makeChart() {
            var machine = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(microsteps: 1_000)))
            _ = try? machine.start()
            for event in chart.statechart.eventNames.prefix(8) where machine.status == .running {
                _ = try? machine.send(SCXMLEvent(event))
                _ = try? machine.advance(by: .seconds(1))
            }
        } else {
            #expect(result.diagnostics.contains { $0.severity == .error } || result.document != nil)
        }
    }

    @Test("a name that is not valid UTF-8 is reported at its line and column")
    func invalidUTF8() throws {
        let data = try Data(contentsOf: Self.fuzzFindings.appendingPathComponent("invalid-utf8-element-name.scxml"))
        let result = SCXMLReader.read(data, file: "bad.scxml")
        #expect(result.document == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "bad.scxml:14:17: error: the document is not valid UTF-8 here"
            ])
        var latin = Data(
            #"<?xml version="1.0" encoding="ISO-8859-1"?><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null"><state id="caf"#
                .utf8)
        latin.append(0xE9)
        latin.append(contentsOf: Data(#""/></scxml>"#.utf8))
        let declared = SCXMLReader.read(latin, file: "latin.scxml")
        #expect(declared.document?.states.first?.id == "café", "a declared encoding is converted")
    }

    @Test("a processing instruction without content is reported, not handed to the XML parser")
    func emptyProcessingInstruction() {
        let result = SCXMLReader.read(Self.header + "\n  <?note?>\n</scxml>", file: "pi.scxml")
        #expect(result.document == nil)
        #expect(
            result.diagnostics.map(\.description) == [
                "pi.scxml:2:3: error: a processing instruction without content (<?name?>) is not read; add content or remove it"
            ])
        let commented = SCXMLReader.read(Self.header + "<!-- <?note?> --><state id=\"a\"/></scxml>", file: "ok.scxml")
        #expect(commented.document != nil, "inside a comment it is text")
    }
}
