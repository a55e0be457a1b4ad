import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

// The examples of the article "From an editor to Swift": a checkout drawn in Stately Studio and
// exported as JSON (Examples/XState/checkout.json), imported as SCXML, generated as Swift
// (CheckoutGenerated.swift), implemented by the app and tested.

/// The app's context: what the design's guards read and its actions change.
struct CartContext: Equatable, Sendable {
    var items = 0
    var total = 0.0
    var messages: [String] = []
}

/// The app's implementation of what the design names.
struct Shop: Checkout.Implementation {
    typealias Context = CartContext

    var paymentTimeout: Duration { .seconds(30) }

    func hasItems(_ event: Checkout.Event?, _ context: CartContext) -> Bool {
        context.items > 0
    }

    func amountAtMost(_ event: Checkout.Event?, _ context: CartContext, parameters: String) -> Bool {
        // The design gives the limit: {"limit":100.00}.
        let limit = (try? JSONDecoder().decode([String: Double].self, from: Data(parameters.utf8)))?["limit"]
        return context.total <= limit ?? 0
    }

    func autoApprove(_ event: Checkout.Event?, _ context: CartContext) -> Bool {
        context.total < 20
    }

    func notify(_ event: Checkout.Event?, _ context: inout CartContext, parameters: String) throws {
        context.messages.append(parameters)
    }
}

@Suite("From an editor to Swift")
struct EditorToSwiftExamples {
    @Test("the generated file is what import and generate write for the exported machine")
    func generatedFileIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try XStateImporter.document(
            contentsOf: root.appending(path: "Examples/XState/checkout.json"),
            options: .init(delays: ["paymentTimeout": .seconds(30)]))
        let generated = try SwiftGenerator().generate(SCXMLWriter.write(document), file: "checkout.scxml")
        let checkedIn = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
                path: "CheckoutGenerated.swift"),
            encoding: .utf8)
        #expect(
            generated.source == checkedIn,
            "run: statechart import Examples/XState/checkout.json --delay paymentTimeout=30s -o checkout.scxml; statechart generate checkout.scxml -o \(#filePath)"
        )
    }

    @Test("a machine of the generated chart calls the app for each guard, action and delay")
    func machine() throws {
        var machine = try Checkout.chart(implementation: Shop()).makeMachine(context: CartContext())
        try machine.start()
        try machine.send(.checkout)
        #expect(machine.activeStates == [.checkoutCart])
        #expect(machine.context.messages == [#"{"message":"The cart is empty"}"#])

        var full = try Checkout.chart(implementation: Shop()).makeMachine(context: CartContext(items: 2, total: 42))
        try full.start()
        try full.send(.checkout)
        try full.send(.pay)
        #expect(full.activeStates == [.checkoutManual])
        try full.send(.approve)
        #expect(full.status == .finished)
    }

    @Test("the generated chart under the tester: the named delay is the app's")
    func tested() throws {
        let tester = try MachineTester(
            Checkout.chart(implementation: Shop()), context: CartContext(items: 1, total: 150))
        try tester.send(.checkout) { $0.configuration = [.checkoutPayment] }
        tester.expect(.armed("xstate.after.paymentTimeout.checkout.payment", dueIn: .seconds(30)))
        // Over the design's limit of 100: the guard keeps the machine where it is.
        try tester.send(.pay)
        try tester.advance(by: .seconds(30)) { $0.configuration = [.checkoutCart] }
        tester.expect(.fired("xstate.after.paymentTimeout.checkout.payment"))
    }
}

extension EditorToSwiftExamples {
    @Test("a document drawn in Qt Creator keeps its layout through a change (Reading and writing SCXML)")
    func qtCreatorLayout() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appending(path: "Tests/StatechartsSCXMLTests/Fixtures/QtCreator/trafficlight.scxml")
        var document = try SCXMLReader.read(contentsOf: url).get()  // drawn in Qt Creator
        document.states[0].transitions[0].events = ["repaired"]
        let text = SCXMLWriter.write(document)  // every qt:editorinfo as it was
        let original = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text.components(separatedBy: "<qt:editorinfo").count
                == original.components(separatedBy: "<qt:editorinfo").count)
        #expect(text.contains(#"qt:editorversion="4.14.0""#))
        #expect(text.contains(#"<transition event="repaired" target="broken">"#))
    }

    @Test("the article's pictures of the imported and the generated chart are current")
    func pictures() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let resources = root.appending(path: "Sources/StatechartsSCXML/StatechartsSCXML.docc/Resources")
        let imported = try XStateImporter.document(
            contentsOf: root.appending(path: "Examples/XState/checkout.json"),
            options: .init(delays: ["paymentTimeout": .seconds(30)])
        ).makeChart()
        let generated = try Checkout.chart(implementation: Shop())
        let article = try String(
            contentsOf: root.appending(path: "Sources/StatechartsSCXML/StatechartsSCXML.docc/FromAnEditorToSwift.md"),
            encoding: .utf8)
        for (picture, svg) in [
            ("editor-checkout-imported.svg", imported.statechart.svg()),
            ("editor-checkout-generated.svg", generated.svg()),
        ] {
            #expect(article.contains("](\(picture))"), "the article shows \(picture)")
            #expect(
                try CheckedInFile.isCurrent(svg, at: resources.appending(path: picture)),
                "\(picture) is stale: run Scripts/pictures.sh")
        }
    }
}
