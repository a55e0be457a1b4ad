import Foundation
import Statecharts

/// Reads SCXML documents (W3C, 2015) into ``SCXMLDocument``s, collecting every problem found.
///
/// The reader never traps and never stops at the first problem: a document that is not
/// well-formed XML gets one diagnostic where the XML breaks; a well-formed one gets a diagnostic
/// for each unknown element, bad attribute value, missing attribute or misplaced element, each
/// at its line and column. Elements and attributes of other namespaces are extensions: engines
/// ignore them, and the reader keeps them as written (``SCXMLExtensions``, ``SCXMLAction/Kind/foreign(_:)``)
/// so that ``SCXMLWriter`` gives them back, such as the layout Qt Creator keeps in
/// `<qt:editorinfo>`. Unknown attributes without a namespace are reported as warnings.
public enum SCXMLReader {
    /// The SCXML namespace.
    public static let namespace = "http://www.w3.org/2005/07/scxml"

    /// The deepest element nesting read; deeper documents are reported, not followed.
    public static let maximumDepth = 500

    /// Reads the document at `url`; a file larger than `maximumSize` bytes is refused unread.
    public static func read(
        contentsOf url: URL, maximumSize: Int = SCXMLLimits.default.documentSize
    ) -> SCXMLReadResult {
        let path = url.path
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int, size > maximumSize {
            return tooLarge(size, maximumSize, file: path)
        }
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
        return read(data, file: path, maximumSize: maximumSize)
    }

    static func tooLarge(_ size: Int, _ maximumSize: Int, file: String) -> SCXMLReadResult {
        SCXMLReadResult(
            document: nil,
            diagnostics: [
                SCXMLDiagnostic(
                    .error,
                    "the document has \(size) bytes, more than the limit documentSize of \(maximumSize) bytes; it is not read",
                    at: SourcePosition(file: file, line: 1, column: 1))
            ])
    }

    /// Reads a document from its text.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - file: The name diagnostics give the document.
    ///   - maximumSize: The most bytes the document may have.
    public static func read(
        _ text: String, file: String = "<string>", maximumSize: Int = SCXMLLimits.default.documentSize
    ) -> SCXMLReadResult {
        read(Data(text.utf8), file: file, maximumSize: maximumSize)
    }

    /// Reads a document from its bytes.
    ///
    /// - Parameters:
    ///   - data: The document's bytes, in the encoding its XML declaration names (UTF-8 by default).
    ///   - file: The name diagnostics give the document.
    ///   - maximumSize: The most bytes the document may have.
    public static func read(
        _ data: Data, file: String, maximumSize: Int = SCXMLLimits.default.documentSize
    ) -> SCXMLReadResult {
        guard data.count <= maximumSize else { return tooLarge(data.count, maximumSize, file: file) }
        let utf8: Data
        switch utf8Document(from: data, file: file) {
        case .success(let converted): utf8 = converted
        case .failure(let error): return SCXMLReadResult(document: nil, diagnostics: error.diagnostics)
        }
        let markup = MarkupBytes(utf8)
        if let offset = firstEmptyProcessingInstruction(in: markup) {
            return SCXMLReadResult(
                document: nil,
                diagnostics: [
                    SCXMLDiagnostic(
                        .error,
                        "a processing instruction without content (<?name?>) is not read; add content or remove it",
                        at: position(of: offset, in: utf8, file: file))
                ])
        }
        if let offset = firstEntityDeclaration(in: markup) {
            return SCXMLReadResult(
                document: nil,
                diagnostics: [
                    SCXMLDiagnostic(
                        .error,
                        "the document declares an entity (<!ENTITY ...>); documents that declare entities are refused, since an entity can expand to any size and the reader would not keep its text as written",
                        at: position(of: offset, in: utf8, file: file))
                ])
        }
        if let offset = markup.firstElement(withMoreAttributesThan: MarkupBytes.maximumAttributes) {
            return SCXMLReadResult(
                document: nil,
                diagnostics: [
                    SCXMLDiagnostic(
                        .error,
                        "an element has more than \(MarkupBytes.maximumAttributes) attributes; the document is not read",
                        at: position(of: offset, in: utf8, file: file))
                ])
        }
        let builder = XMLTreeBuilder(data: utf8, file: file, maximumDepth: maximumDepth)
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

extension SCXMLReader {
    // MARK: - Encoding

    /// The document as valid UTF-8, for the XML parser (the parser of swift-corelibs-foundation
    /// traps on names that are not valid UTF-8, so no other bytes reach it).
    ///
    /// UTF-8 is checked; UTF-16 (with a byte order mark), ISO-8859-1, US-ASCII and Windows-1252
    /// are converted, with the XML declaration's encoding changed to UTF-8; other encodings are
    /// reported.
    static func utf8Document(from data: Data, file: String) -> Result<Data, SCXMLError> {
        let start = SourcePosition(file: file, line: 1, column: 1)
        func problem(_ severity: SCXMLDiagnostic.Severity, _ message: String, at location: SourcePosition) -> SCXMLError
        {
            SCXMLError(diagnostics: [SCXMLDiagnostic(severity, message, at: location)])
        }
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            guard let text = String(data: data, encoding: .utf16) else {
                return .failure(problem(.error, "the document is not valid UTF-16", at: start))
            }
            return .success(Data(declaringUTF8(text.drop { $0 == "\u{FEFF}" }).utf8))
        }
        let declared = declaredEncoding(in: data)?.lowercased() ?? "utf-8"
        let encodings: [String: String.Encoding] = [
            "iso-8859-1": .isoLatin1, "iso_8859-1": .isoLatin1, "latin1": .isoLatin1, "latin-1": .isoLatin1,
            "us-ascii": .ascii, "ascii": .ascii, "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252,
        ]
        if declared == "utf-8" || declared == "utf8" {
            if let invalid = firstInvalidUTF8(in: data) {
                return .failure(
                    problem(
                        .error, "the document is not valid UTF-8 here", at: position(of: invalid, in: data, file: file))
                )
            }
            return .success(data)
        }
        guard let encoding = encodings[declared] else {
            return .failure(
                problem(
                    .error,
                    "the document declares the encoding '\(declared.prefix(40))', which is not read; use UTF-8",
                    at: start))
        }
        guard let text = String(data: data, encoding: encoding) else {
            return .failure(problem(.error, "the document is not valid \(declared)", at: start))
        }
        return .success(Data(declaringUTF8(Substring(text)).utf8))
    }

    /// `text` with the encoding of its XML declaration, if it has one, changed to UTF-8.
    static func declaringUTF8(_ text: Substring) -> String {
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>"),
            let key = text[..<end.lowerBound].range(of: "encoding")
        else { return String(text) }
        let afterKey = text[key.upperBound..<end.lowerBound]
        guard let open = afterKey.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return String(text) }
        let quote = text[open]
        guard let close = text[text.index(after: open)..<end.lowerBound].firstIndex(of: quote) else {
            return String(text)
        }
        return String(text[..<text.index(after: open)]) + "UTF-8" + String(text[close...])
    }

    /// The offset of the first entity declaration (`<!ENTITY`, general or parameter) in the
    /// document's prolog, where a document type declaration can hold one; `nil` when there is none.
    /// Comments and processing instructions are skipped; the prolog ends where the root element
    /// starts.
    static func firstEntityDeclaration(in markup: MarkupBytes) -> Int? {
        let bytes = markup.bytes
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if markup.starts(MarkupBytes.commentOpen, at: index) {
                index = markup.skip(past: MarkupBytes.commentClose, from: index + 4)
            } else if markup.starts(MarkupBytes.instructionOpen, at: index) {
                index = markup.skip(past: MarkupBytes.instructionClose, from: index + 2)
            } else if markup.starts(MarkupBytes.entityDeclaration, at: index) {
                return index
            } else if markup.starts(MarkupBytes.declarationOpen, at: index) {
                index += 2
            } else {
                return nil
            }
        }
        return nil
    }

    /// The offset of the first processing instruction without content (`<?name?>`), outside
    /// comments and CDATA sections, or `nil`: the XML parser of swift-corelibs-foundation
    /// dereferences the missing content and crashes, so such documents are stopped here.
    static func firstEmptyProcessingInstruction(in markup: MarkupBytes) -> Int? {
        let bytes = markup.bytes
        let delimiters: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: ">"), UInt8(ascii: "<")]
        let less = UInt8(ascii: "<")
        let question = UInt8(ascii: "?")
        let greater = UInt8(ascii: ">")
        var index = 0
        while index < bytes.count {
            guard bytes[index] == less, index + 1 < bytes.count else {
                index += 1
                continue
            }
            if markup.starts(MarkupBytes.commentOpen, at: index) {
                index = markup.skip(past: MarkupBytes.commentClose, from: index + 4)
            } else if markup.starts(MarkupBytes.cdataOpen, at: index) {
                index = markup.skip(past: MarkupBytes.cdataClose, from: index + 9)
            } else if bytes[index + 1] == question {
                var end = index + 2
                while end < bytes.count && !delimiters.contains(bytes[end]) { end += 1 }
                if end > index + 2 && end + 1 < bytes.count && bytes[end] == question && bytes[end + 1] == greater {
                    return index
                }
                index = end
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The offset of the first byte that is not valid UTF-8, or `nil`.
    static func firstInvalidUTF8(in data: Data) -> Int? {
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The `encoding` of the XML declaration, if the document starts with one.
    static func declaredEncoding(in data: Data) -> String? {
        let head = String(decoding: data.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The line and column of byte `offset`.
    static func position(of offset: Int, in data: Data, file: String) -> SourcePosition {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourcePosition(file: file, line: line, column: column)
    }
}
