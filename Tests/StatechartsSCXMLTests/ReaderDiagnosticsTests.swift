import Foundation
import StatechartsSCXML
import Testing

/// Documents with each kind of problem, and the exact diagnostics they get (`NAME.diagnostics`).
@Suite struct ReaderDiagnosticsTests {
    static let folder = SharedMaterial.packageRoot.appendingPathComponent(
        "Tests/StatechartsSCXMLTests/Fixtures/Invalid")

    static let fixtures = [
        "mismatched-tag", "unclosed", "undefined-entity", "empty", "wrong-root", "unknown-elements", "bad-values",
        "missing-attributes", "exclusive-attributes", "misplaced-elements", "bad-targets", "duplicate-ids",
        "initial-cycles", "needs-data-model",
    ]

    @Test("each bad document gets exactly its diagnostics, with file, line and column", arguments: fixtures)
    func diagnostics(of fixture: String) {
        let file = Self.folder.appendingPathComponent("\(fixture).scxml")
        let lines: [String]
        do {
            _ = try SCXMLChart.load(contentsOf: file)
            lines = ["(loaded without errors)"]
        } catch {
            lines = error.diagnostics.map { $0.description.replacingOccurrences(of: Self.folder.path + "/", with: "") }
        }
        Golden.check(
            lines.joined(separator: "\n") + "\n", against: Self.folder.appendingPathComponent("\(fixture).diagnostics"))
    }

    @Test("a path without a file gets one diagnostic")
    func missingFile() {
        let result = SCXMLReader.read(contentsOf: Self.folder.appendingPathComponent("no-such-file.scxml"))
        #expect(result.document == nil)
        #expect(result.diagnostics.map(\.message) == ["there is no file at this path"])
    }

    @Test("unsupported diagnostics are told apart from faults of the document")
    func kinds() {
        do {
            _ = try SCXMLChart.load(contentsOf: Self.folder.appendingPathComponent("needs-data-model.scxml"))
            Issue.record("expected an error")
        } catch {
            #expect(error.isUnsupportedOnly)
        }
        do {
            _ = try SCXMLChart.load(contentsOf: Self.folder.appendingPathComponent("bad-targets.scxml"))
            Issue.record("expected an error")
        } catch {
            #expect(!error.isUnsupportedOnly)
            #expect(error.errors.allSatisfy { $0.kind == .document })
        }
    }
}
