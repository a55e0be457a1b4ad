import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// `statechart generate`'s generator: names, what each element becomes, and its diagnostics.
@Suite struct SwiftGeneratorTests {
    static func document(_ body: String, attributes: String = "datamodel=\"null\"") -> String {
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" \(attributes)>
        \(body)
        </scxml>
        """
    }

    static func generate(
        _ body: String, attributes: String = "datamodel=\"null\"", name: String? = nil
    ) throws(SCXMLError) -> GeneratedSwift {
        try SwiftGenerator(typeName: name).generate(document(body, attributes: attributes), file: "dir/chart.scxml")
    }

    static func errors(_ body: String, attributes: String = "datamodel=\"null\"") -> [SCXMLDiagnostic] {
        do {
            _ = try generate(body, attributes: attributes)
            return []
        } catch {
            return error.errors
        }
    }

    @Test(arguments: [
        ("media-player", "mediaPlayer"), ("done.state.x", "doneStateX"), ("HTTP.POST", "httpPOST"),
        ("s0", "s0"), ("1st", "_1st"), ("Idle", "idle"), ("wait_for-reply.2", "waitForReply2"),
    ])
    func idsBecomeLowerCamelCaseCases(id: String, name: String) throws {
        let generated = try Self.generate("<state id=\"\(id)\"/>")
        let declaration = id == name ? "case \(name)\n" : "case \(name) = \"\(id)\"\n"
        #expect(generated.source.contains(declaration))
        #expect(generated.source.contains("StateNode(.\(name))"))
    }

    @Test func theNamespaceIsNamedAfterTheDocumentThenItsFileThenTheOption() throws {
        #expect(try Self.generate("<state id=\"a\"/>", attributes: "name=\"order-flow\"").typeName == "OrderFlow")
        #expect(try Self.generate("<state id=\"a\"/>").typeName == "Chart")
        #expect(try Self.generate("<state id=\"a\"/>", name: "Checkout").typeName == "Checkout")
        #expect(throws: SCXMLError.self) { try Self.generate("<state id=\"a\"/>", name: "not a name") }
    }

    @Test func swiftKeywordsAreWrittenInBackticks() throws {
        let generated = try Self.generate(
            """
            <state id="default"><transition event="switch" target="in"/></state>
            <state id="in"/>
            """)
        #expect(generated.source.contains("case `default` = \"default\""))
        #expect(generated.source.contains("case `switch` = \"switch\""))
        #expect(generated.source.contains("StateNode(.`default`) {"))
        #expect(generated.source.contains("On(.`switch`, to: .`in`)"))
    }

    @Test func idsWithTheSameCaseNameAreReportedWithBothPositions() {
        let errors = Self.errors(
            """
            <state id="a-b"/>
            <state id="a_b"/>
            """)
        #expect(errors.count == 1)
        #expect(errors.first?.location == SourcePosition(file: "dir/chart.scxml", line: 3, column: 1))
        #expect(errors.first?.message.contains("'a-b' (dir/chart.scxml:2:1) and 'a_b'") == true)
        #expect(errors.first?.message.contains("State.aB") == true)
    }

    @Test func swiftWorkBecomesAnInvokersPropertyPerTypeAndKeepsItsSource() throws {
        let generated = try Self.generate(
            """
            <state id="a">
              <invoke type="download" src="https://example.com/a"/>
              <invoke type="com.example.check-sum"/>
              <invoke type="download"/>
            </state>
            """)
        #expect(generated.source.contains("var download: SCXMLInvoker"))
        #expect(generated.source.contains("var comExampleCheckSum: SCXMLInvoker"))
        #expect(generated.source.contains("init(download: SCXMLInvoker, comExampleCheckSum: SCXMLInvoker)"))
        #expect(generated.source.contains(#"["download": download, "com.example.check-sum": comExampleCheckSum]"#))
        // An SCXML child read from a path is still refused: the app has no file to read it from.
        #expect(
            Self.errors(#"<state id="a"><invoke type="scxml" src="child.scxml"/></state>"#).first?.message.contains(
                "cannot invoke a document read from a path") == true)
    }

    @Test func aHostileInvokeTypeStaysInsideItsLiteralAndComment() throws {
        let generated = try Self.generate(
            #"<state id="a"><invoke type="x&#10;} evil() /* &quot;\"/></state>"#)
        #expect(generated.source.contains(#"var xEvil: SCXMLInvoker"#), "\(generated.source)")
        #expect(generated.source.contains(#"["x\n} evil() /* \"\\": xEvil]"#), "\(generated.source)")
        #expect(!generated.source.contains("\n} evil()"), "the type's newline must not start a line of code")
    }

    @Test func invokeTypesWithTheSameSwiftNameAreReported() {
        let errors = Self.errors(
            """
            <state id="a">
              <invoke type="check-sum"/>
              <invoke type="check_sum"/>
              <invoke type="byType"/>
            </state>
            """)
        #expect(errors.count == 2)
        #expect(errors.contains { $0.message.contains("'check-sum' (dir/chart.scxml:3:3) and 'check_sum'") })
        #expect(errors.contains { $0.message.contains("'byType' makes no Swift property name") })
    }

    @Test func namesTheEnumsHaveAlreadyAreReported() {
        let errors = Self.errors("<state id=\"a\"><transition event=\"kind\" target=\"a\"/></state>")
        #expect(errors.map(\.message).contains { $0.contains("'kind' would be the case kind") })
        #expect(Self.errors("<state id=\"rawValue\"/>").count == 1)
    }

    @Test func exactDescriptorsBecomeKindsAndOthersStayDescriptors() throws {
        let generated = try Self.generate(
            """
            <state id="a">
              <onentry><raise event="foo.bar"/></onentry>
              <transition event="play stop" target="b"/>
              <transition event="foo" target="b"/>
              <transition event="foo.bar" target="b"/>
              <transition event="error" target="b"/>
              <transition event="done.state.a" target="b"/>
              <transition event="*" target="b"/>
              <transition event="play.*" target="b"/>
            </state>
            <state id="b"/>
            """)
        let source = generated.source
        #expect(source.contains("On(.play, .stop, to: .b)"))
        #expect(source.contains("On(named: \"foo\", to: .b)"), "foo also matches foo.bar")
        #expect(source.contains("On(.fooBar, to: .b)"))
        #expect(source.contains("On(named: \"error\", to: .b)"))
        #expect(source.contains("On(named: \"done.state.a\", to: .b)"))
        #expect(source.contains("On(named: \"*\", to: .b)"))
        #expect(source.contains("On(.play, to: .b)"), "play.* is play")
        // Platform events are not cases; events the document raises or handles are.
        #expect(!source.contains("case error"))
        #expect(!source.contains("doneStateA"))
        #expect(source.contains("case fooBar = \"foo.bar\""))
    }

    @Test func executableContentBecomesTheEnginesActions() throws {
        let source = try Self.generate(
            """
            <state id="a">
              <onentry>
                <send event="tick" delay="1500ms" id="t"/>
                <send event="now"/>
                <send event="inner" target="#_internal"/>
                <cancel sendid="t"/>
                <log label="at" expr="'a'"/>
                <if cond="In('b')"><raise event="x"/>
                <elseif cond="In(a)"/><raise event="y"/>
                <else/><raise event="z"/></if>
              </onentry>
              <transition cond="In('b')" target="b"/>
              <transition event="tick" type="internal"/>
            </state>
            <state id="b"/>
            """
        ).source
        #expect(source.contains("scope.send(.tick, after: .milliseconds(1500), id: \"t\")"))
        #expect(source.contains("scope.send(.now)\n"))
        #expect(source.contains("scope.raise(.inner)"))
        #expect(source.contains("scope.cancel(id: \"t\")"))
        #expect(source.contains("scope.log(\"a\", label: \"at\")"))
        #expect(source.contains("if scope.isActive(.b) {"))
        #expect(source.contains("} else if scope.isActive(.a) {"))
        #expect(source.contains("} else {"))
        #expect(source.contains("Always(to: .b, guard: { $0.isActive(.b) })"))
        #expect(source.contains("On(.tick, type: .internal)"))
        #expect(!source.contains("ExecutionError"), "nothing throws")
    }

    @Test func sendsThatCannotRunThrowAndWhatFollowsIsLeftOut() throws {
        let generated = try Self.generate(
            """
            <state id="a">
              <onentry>
                <send event="e" target="!nowhere"/>
                <raise event="never"/>
              </onentry>
              <onentry><send event="f" target="#_parent"/><raise event="after"/></onentry>
            </state>
            """)
        let source = generated.source
        #expect(source.contains("throw ExecutionError("))
        #expect(source.contains("\"the target '!nowhere' is not one SCXML's event I/O processor accepts"))
        #expect(!source.contains("scope.raise(.never)"))
        #expect(source.contains("nonisolated struct ExecutionError: Error"))
        #expect(source.contains("scope.raiseCommunicationError("))
        #expect(source.contains("at: SourcePosition(file: \"chart.scxml\", line: 7, column: 12)"))
        #expect(source.contains("scope.raise(.after)"))
        #expect(generated.warnings.map(\.location.line) == [4, 7])
    }

    @Test func aDocumentWithoutEventsHasAnEnumWithoutRawType() throws {
        let source = try Self.generate("<state id=\"a\"/>").source
        #expect(source.contains("nonisolated enum Event: StatechartEvent, Hashable, Sendable, CaseIterable {}"))
    }

    @Test func aDocumentOfTheNullDataModelWithVariablesIsReportedWhereItUsesThem() {
        let errors = Self.errors(
            """
            <datamodel><data id="count" expr="0"/></datamodel>
            <state id="a"><transition cond="count &gt; 1" target="a"/></state>
            """)
        #expect(errors.contains { $0.location.line == 2 })
        #expect(errors.contains { $0.location.line == 3 && $0.message.contains("count > 1") })
        #expect(errors.allSatisfy { $0.location.file == "dir/chart.scxml" })
    }

    static let counter = """
        <datamodel><data id="count" expr="0"/></datamodel>
        <state id="idle">
          <transition event="add" cond="count &lt; 2" target="idle"><assign location="count" expr="count + 1"/></transition>
          <transition event="add" target="full"/>
        </state>
        <final id="full"/>
        """

    @Test func aDocumentThatNeedsADataModelIsGeneratedAsSwiftValues() throws {
        let generated = try Self.generate(Self.counter, attributes: "datamodel=\"ecmascript\" name=\"counter\"")
        let source = generated.source
        #expect(source.contains("import StatechartsSCXML"))
        #expect(source.contains("case idle"))
        #expect(source.contains("case add"))
        #expect(source.contains("nonisolated static var document: SCXMLDocument {\n        SCXMLDocument("))
        #expect(source.contains("SCXMLExpression(\"count < 2\", location: at(4, 27))"))
        #expect(source.contains(".assign("))
        #expect(
            source.contains("static func chart(dataModels: [any SCXMLDataModel.Type]) throws(SCXMLError) -> SCXMLChart")
        )
        #expect(source.contains("SourcePosition(file: \"chart.scxml\", line: line, column: column)"))
        #expect(!source.contains("Statechart<State, Event, Void>"))
    }

    @Test("a document generated as Swift values keeps its markup of other namespaces: a named guard still guards")
    func documentFormKeepsExtensions() async throws {
        let body = """
            <state id="a" xmlns:sc="\(SCXMLExtensions.namespace)" sc:tags="start">
              <transition event="go" target="b" cond="true" sc:guard="ready"/>
            </state>
            <final id="b"/>
            """
        let generated = try Self.generate(
            body, attributes: "datamodel=\"ecmascript\" xmlns:conf=\"http://www.w3.org/2005/scxml-conformance\"")
        #expect(generated.source.contains(#"SCXMLNamespace(prefix: "conf""#))
        #expect(generated.source.contains(#"name: "sc:guard""#))
        #expect(generated.source.contains(#"name: "sc:tags""#))
        try await Self.parses(generated.source)
        // The values written are the document read: its transition still names the guard.
        let document = try SCXMLReader.read(Self.document(body, attributes: "datamodel=\"ecmascript\""), file: "x")
            .get()
        #expect(document.states[0].transitions[0].extensions.attribute("sc:guard") == "ready")
    }

    @Test func aDocumentThatNeedsADataModelIsStillCheckedForWhatItGetsWrong() {
        let errors = Self.errors(
            """
            <state id="a"><transition event="go" cond="x" target="nowhere"/></state>
            """, attributes: "datamodel=\"ecmascript\"")
        #expect(errors.map(\.message).contains { $0.contains("nowhere") })
        let invoked = Self.errors(
            """
            <state id="a"><invoke type="scxml" src="child.scxml"/><transition cond="x" target="a"/></state>
            """, attributes: "datamodel=\"ecmascript\"")
        #expect(invoked.map(\.message).contains { $0.contains("read from a path") })
    }

    @Test func anInvokeOfAFileIsReported() {
        let errors = Self.errors(
            """
            <state id="a">
              <invoke type="scxml" src="child.scxml"/>
            </state>
            """)
        #expect(errors.count == 1)
        #expect(errors.first?.location.line == 3)
        #expect(errors.first?.message.contains("read from a path") == true)
    }

    @Test func aDocumentThatInvokesAnInlineChildStaysADocumentForASession() throws {
        let source = try Self.generate(
            """
            <state id="a">
              <invoke type="scxml"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null"><final id="f"/></scxml></content></invoke>
              <transition event="done.invoke" target="b"/>
            </state>
            <final id="b"/>
            """
        ).source
        #expect(source.contains("invocations: ["))
        #expect(
            source.contains("static func chart(dataModels: [any SCXMLDataModel.Type]) throws(SCXMLError) -> SCXMLChart")
        )
    }

    @Test func aBrokenDocumentIsReportedAsTheReaderDoes() {
        let errors = Self.errors("<state id=\"a\"><transition target=\"missing\"/></state>")
        #expect(errors.first?.message.contains("missing") == true)
    }

    @Test func stringsFromTheDocumentBecomeSwiftLiteralsThatMeanTheSame() throws {
        let source = try Self.generate(
            """
            <state id="a"><onentry><log label="q&quot;\\(x)" expr="'line\\none'"/></onentry></state>
            """
        ).source
        #expect(source.contains(#"scope.log("line\none", label: "q\"\\(x)")"#))
    }

    @Test func theOutputIsTheSameEveryTime() throws {
        let body = """
            <parallel id="p"><state id="x"><transition event="go" target="y"/></state><state id="y"/></parallel>
            """
        let first = try Self.generate(body).source
        for _ in 0..<5 { #expect(try Self.generate(body).source == first) }
    }

    @Test func publicAccessMakesEveryDeclarationPublic() throws {
        let source = try SwiftGenerator(access: .public).generate(
            Self.document("<state id=\"a\"/>"), file: "chart.scxml"
        ).source
        #expect(source.contains("public nonisolated enum Chart {"))
        #expect(source.contains("public nonisolated enum State:"))
        #expect(source.contains("public nonisolated static func chart()"))
    }

    @Test("A file name cannot break out of the generated comments: line breaks and controls are escapes")
    func fileNameCannotInject() async throws {
        let hostile = "dir/evil\nlet pwned = 1; \r\u{2028}\u{202E} *.scxml"
        let generated = try SwiftGenerator().generate(Self.document("<state id=\"a\"/>"), file: hostile)
        #expect(!generated.source.contains("\nlet pwned"))
        #expect(!generated.source.unicodeScalars.contains { $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{202E}" })
        let header = try #require(generated.source.split(separator: "\n").first)
        #expect(header.hasPrefix("// Generated by `statechart generate` from evil\\u{A}let pwned = 1; \\u{D}"))
        try await Self.parses(generated.source)
    }

    @Test(
        "Names are made of what Swift's grammar takes in an identifier, scalar by scalar",
        arguments: [
            ("a×b", "aB"), ("x\u{301}y", "x\u{301}y"), ("α-β", "αΒ"), ("n²", "n²"), ("a\u{200B}b", "aB"),
            ("a\u{202E}b", "aB"), ("e\u{301}", "e\u{301}"), ("\u{301}a", "_\u{301}a"), ("a→b", "aB"),
        ])
    func identifiersBySwiftsGrammar(id: String, name: String) async throws {
        let generated = try Self.generate("<state id=\"\(id)\"/>")
        let raw = Escaping.swiftLiteral(id)
        #expect(
            generated.source.contains("case \(name) = \(raw)\n")
                || (name == id && generated.source.contains("case \(name)\n")))
        try await Self.parses(generated.source)
    }

    /// Whether `swiftc -parse` reads `source` without an error; skipped without swiftc on PATH.
    static func parses(_ source: String) async throws {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
        guard let swiftc = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess(executable: URL(fileURLWithPath: swiftc), arguments: ["-parse", file.path])
            .run()
        #expect(result.status == 0 && !result.killedBySignal, "\(result.errorText)")
    }
}
