import Foundation
import Statecharts
import StatechartsSCXML
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Markup of other namespaces survives reading and writing: a document drawn in Qt Creator keeps
/// its layout through any tool here.
@Suite struct ForeignMarkupTests {
    static let qtCreator = SharedMaterial.packageRoot.appendingPathComponent(
        "Tests/StatechartsSCXMLTests/Fixtures/QtCreator/trafficlight.scxml")
    static let qtNamespace = "http://www.qt.io/2015/02/scxml-ext"

    /// Every attribute with a prefix other than `xmlns`, as written: `qt:editorversion="4.14.0"`.
    static func prefixedAttributes(in text: String) -> [String] {
        matches(of: #"\s([A-Za-z_][\w.-]*:[\w.-]+="[^"]*")"#, in: text).filter { !$0.hasPrefix("xmlns:") }
    }

    /// Every `<qt:editorinfo …/>` element, as written.
    static func editorInfo(in text: String) -> [String] {
        matches(of: #"(<qt:editorinfo\b[^>]*/>)"#, in: text)
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test("a Qt Creator document is written back with every qt:editorinfo and foreign attribute byte for byte")
    func qtCreatorLayoutKept() throws {
        let original = try String(contentsOf: Self.qtCreator, encoding: .utf8)
        let document = try SCXMLReader.read(original, file: Self.qtCreator.path).get()
        let written = SCXMLWriter.write(document)
        #expect(Self.editorInfo(in: original).count == 12)
        #expect(Self.editorInfo(in: written) == Self.editorInfo(in: original))
        #expect(Self.prefixedAttributes(in: written) == Self.prefixedAttributes(in: original))
        #expect(written.contains(#"xmlns:qt="http://www.qt.io/2015/02/scxml-ext""#))
        // Each element stays where it was: the document's, a state's, a transition's.
        #expect(document.extensions.attribute("qt:editorversion") == "4.14.0")
        #expect(document.namespaces == [SCXMLNamespace(prefix: "qt", uri: Self.qtNamespace)])
        #expect(document.extensions.elements.map(\.localName) == ["editorinfo"])
        let working = try #require(document.states.first)
        #expect(
            working.extensions.elements.first?.attribute("geometry") == "-113.28;-33.48;-89.61;-153.07;547.71;434.14")
        guard case .foreign(let layout) = working.transitions.first?.actions.first?.kind else {
            Issue.record("the transition's qt:editorinfo is not kept among its content")
            return
        }
        #expect(layout.attribute("movePoint") == "12.24;-4.08")
        #expect(working.extensions.elements.first?.namespace == Self.qtNamespace)
    }

    @Test("writing a Qt Creator document is a fixed point, and reads back as the same document")
    func fixedPoint() throws {
        let document = try SCXMLReader.read(contentsOf: Self.qtCreator).get()
        let written = SCXMLWriter.write(document)
        let reread = try SCXMLReader.read(written, file: Self.qtCreator.path).get()
        #expect(reread.placeless == document.placeless)
        #expect(SCXMLWriter.write(reread) == written)
    }

    @Test("a document changed by a tool here keeps the layout of what it did not change")
    func changedDocumentKeepsLayout() throws {
        let original = try String(contentsOf: Self.qtCreator, encoding: .utf8)
        var document = try SCXMLReader.read(original, file: Self.qtCreator.path).get()
        // A tool renames an event and adds a state.
        document.states[1].transitions[0].events = ["repaired"]
        document.states[1].children.append(SCXMLNode(kind: .final, id: "scrapped", location: document.location))
        let written = SCXMLWriter.write(document)
        #expect(Self.editorInfo(in: written) == Self.editorInfo(in: original))
        #expect(written.contains(#"<transition event="repaired" target="working"/>"#))
        #expect(written.contains(#"<final id="scrapped"/>"#))
    }

    @Test("the layout changes nothing the chart does: the traffic light runs as written")
    func qtCreatorDocumentRuns() throws {
        let chart = try SCXMLChart.load(contentsOf: Self.qtCreator)
        var session = SCXMLSession(chart: chart)
        try session.start()
        #expect(session.activeStates == ["red"])
        try session.advance(by: .seconds(3))
        #expect(session.activeStates == ["redGoingGreen"])
        try session.advance(by: .seconds(1))
        #expect(session.activeStates == ["green"])
        try session.send("switch")
        #expect(session.activeStates == ["blinking"])
        try session.advance(by: .seconds(1))
        #expect(session.activeStates == ["unlit"])
    }

    @Test("foreign elements in executable content keep their place among the actions, and are not run")
    func foreignActions() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:sc="\(SCXMLExtensions.namespace)" version="1.0">
              <state id="a">
                <onentry>
                  <raise event="first"/>
                  <sc:action name="startTimer"><sc:param name="ms" value="500"/></sc:action>
                  <if cond="In('a')"><sc:action name="inside"/><else/><raise event="never"/></if>
                </onentry>
                <transition event="first" target="b"/>
              </state>
              <final id="b"/>
            </scxml>
            """
        let document = try SCXMLReader.read(text, file: "actions.scxml").get()
        let actions = try #require(document.states.first?.onEntry.first?.actions)
        #expect(actions.map(\.tagName) == ["raise", "sc:action", "if"])
        guard case .foreign(let action) = actions[1].kind else {
            Issue.record("the second action is \(actions[1].kind)")
            return
        }
        #expect(action.attribute("name") == "startTimer")
        #expect(action.namespace == SCXMLExtensions.namespace)
        #expect(action.children.first?.attribute("value") == "500")
        guard case .if(let branches) = actions[2].kind else {
            Issue.record("the third action is \(actions[2].kind)")
            return
        }
        #expect(branches.first?.actions.map(\.tagName) == ["sc:action"])
        let written = SCXMLWriter.write(document)
        #expect(written.contains(#"<sc:action name="startTimer"><sc:param name="ms" value="500"/></sc:action>"#))
        let reread = try SCXMLReader.read(written, file: "actions.scxml").get()
        #expect(reread.placeless == document.placeless)
        var session = SCXMLSession(chart: try SCXMLChart.load(text, file: "actions.scxml"))
        try session.start()
        #expect(session.status == .finished)
    }

    @Test("namespaces are declared where they are needed: a prefix bound twice, and a default namespace")
    func namespacesWrittenCorrectly() throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:a="urn:first" version="1.0" a:top="1">
              <state id="s" xmlns:a="urn:second" a:mark="2">
                <layout xmlns="urn:default" size="3"><inner/></layout>
                <a:note>text &amp; more</a:note>
              </state>
            </scxml>
            """
        let document = try SCXMLReader.read(text, file: "namespaces.scxml").get()
        let state = try #require(document.states.first)
        #expect(
            document.extensions.attributes == [SCXMLForeignAttribute(name: "a:top", namespace: "urn:first", value: "1")]
        )
        #expect(
            state.extensions.attributes == [SCXMLForeignAttribute(name: "a:mark", namespace: "urn:second", value: "2")])
        #expect(state.extensions.elements.map(\.namespace) == ["urn:default", "urn:second"])
        #expect(state.extensions.elements.first?.children.first?.namespace == "urn:default")
        #expect(state.extensions.elements.last?.text == "text & more")
        let written = SCXMLWriter.write(document)
        let reread = try SCXMLReader.read(written, file: "namespaces.scxml").get()
        #expect(reread.placeless == document.placeless, "\(written)")
    }

    @Test("names that XML cannot carry, made in code, are left out and the document stays well-formed")
    func unwritableNamesLeftOut() throws {
        var document = SCXMLDocument(states: [
            SCXMLNode(kind: .final, id: "done", location: SourcePosition(file: "", line: 1, column: 1))
        ])
        document.extensions.attributes = [
            SCXMLForeignAttribute(name: "x:ok", namespace: "urn:x", value: "1 \" < & \n"),
            SCXMLForeignAttribute(name: "x:bad\" onload=\"", namespace: "urn:x", value: "2"),
        ]
        document.extensions.elements = [
            SCXMLForeignElement(
                name: "x:el><script", namespace: "urn:x", location: SourcePosition(file: "", line: 1, column: 1)),
            SCXMLForeignElement(
                name: "x:fine", namespace: "urn:x", text: "]]> <!-- -->",
                location: SourcePosition(file: "", line: 1, column: 1)),
        ]
        let written = SCXMLWriter.write(document)
        let parser = XMLParser(data: Data(written.utf8))
        #expect(parser.parse(), "\(written)")
        let reread = try SCXMLReader.read(written, file: "made.scxml").get()
        #expect(reread.extensions.attributes.map(\.name) == ["x:ok"])
        #expect(reread.extensions.attribute("x:ok") == "1 \" < & \n")
        #expect(reread.extensions.elements.map(\.name) == ["x:fine"])
        #expect(reread.extensions.elements.first?.text == "]]> <!-- -->")
    }
}
