import Statecharts

/// A problem found in an SCXML document: what, where, and how serious.
public struct SCXMLDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Whether the document can still be used.
    public var severity: Severity
    /// A plain sentence.
    public var message: String
    /// Where in the document.
    public var location: SourcePosition
    /// Whether the document is at fault, or is valid but uses something this engine (or the data
    /// model chosen) cannot run.
    public var kind: Kind

    /// Who is at fault.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The document breaks a rule of XML or SCXML.
        case document
        /// The document is valid but needs something not available here, such as a data model.
        case unsupported
    }

    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The document cannot be run.
        case error
        /// The document can be run; something in it is probably a mistake or is ignored.
        case warning
    }

    /// A diagnostic from its parts.
    public init(_ severity: Severity, _ message: String, at location: SourcePosition, kind: Kind = .document) {
        self.severity = severity
        self.message = message
        self.location = location
        self.kind = kind
    }

    /// `file:line:column: error: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// An SCXML document that cannot be read or run, with every problem found.
public struct SCXMLError: Error, Sendable, CustomStringConvertible {
    /// The diagnostics, errors and warnings, in document order.
    public var diagnostics: [SCXMLDiagnostic]

    /// An error from its diagnostics.
    public init(diagnostics: [SCXMLDiagnostic]) { self.diagnostics = diagnostics }

    /// The errors only.
    public var errors: [SCXMLDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Whether every error is about something unsupported rather than a fault of the document.
    public var isUnsupportedOnly: Bool { !errors.isEmpty && errors.allSatisfy { $0.kind == .unsupported } }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
