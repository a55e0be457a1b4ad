import Foundation
import Statecharts

/// Reads SCXML documents (W3C, 2015) into ``SCXMLDocument``s, collecting every problem found.
///
/// The reader never traps and never stops at the first problem: a document that is not
/// well-formed XML gets one diagnostic where the XML breaks; a well-formed one gets a diagnostic
/// for each unknown element, bad attribute value, missing attribute or misplaced element, each
/// at its line and column. Elements and attributes of other namespaces are extensions and are
/// ignored. Unknown attributes without a namespace are reported as warnings.
public enum SCXMLReader {
    /// The SCXML namespace.
    public static let namespace = "http://www.w3.org/2005/07/scxml"

    /// The deepest element nesting read; deeper documents are reported, not followed.
    public static let maximumDepth = 500

    /// Reads the document at `url`.
    public static func read(contentsOf url: URL) -> SCXMLReadResult {
        let path = url.path
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            return SCXMLReadResult(
                document: nil,
                diagnostics: [
                    SCXMLDiagnostic(
                        .error, exists ? "the file cannot be read" : "there is no file at this path",
                        at: SourcePosition(file: path, line: 1, column: 1))
                ])
        }
        return read(data, file: path)
    }

    /// Reads a document from its text.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - file: The name diagnostics give the document.
    public static func read(_ text: String, file: String = "<string>") -> SCXMLReadResult {
        read(Data(text.utf8), file: file)
    }

    /// Reads a document from its bytes.
    ///
    /// - Parameters:
    ///   - data: The document's bytes, in the encoding its XML declaration names (UTF-8 by default).
    ///   - file: The name diagnostics give the document.
    public static func read(_ data: Data, file: String) -> SCXMLReadResult {
        let builder = XMLTreeBuilder(data: data, file: file, maximumDepth: maximumDepth)
        guard let root = builder.parse() else {
            return SCXMLReadResult(document: nil, diagnostics: builder.diagnostics)
        }
        var converter = SCXMLConverter(file: file)
        converter.diagnostics = builder.diagnostics
        let document = converter.document(from: root)
        let failed = converter.diagnostics.contains { $0.severity == .error }
        return SCXMLReadResult(document: failed ? nil : document, diagnostics: converter.diagnostics)
    }
}

/// What reading a document gave: the document, if it has no errors, and every diagnostic.
public struct SCXMLReadResult: Sendable {
    /// The document; `nil` when a diagnostic is an error.
    public var document: SCXMLDocument?
    /// Errors and warnings, in document order.
    public var diagnostics: [SCXMLDiagnostic]

    /// The document, or an ``SCXMLError`` with the diagnostics.
    public func get() throws(SCXMLError) -> SCXMLDocument {
        guard let document else { throw SCXMLError(diagnostics: diagnostics) }
        return document
    }
}
