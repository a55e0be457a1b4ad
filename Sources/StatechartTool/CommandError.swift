#if Tools
import Statecharts
import StatechartsSCXML

/// An error a command reports with a non-zero status: `Error: ...` on one line, or, for a document
/// that cannot be read or built, one `FILE:LINE:COLUMN: error: MESSAGE` line per problem, as
/// compilers write them (so that editors and CI annotations find them); under `--json`, as one JSON
/// object with every problem (``StatechartCommand/errorJSON(_:)``).
public struct CommandError: Error, CustomStringConvertible {
    /// One problem of the error, with its place in a document when it has one.
    public struct Problem: Sendable, Hashable {
        /// `error` or `warning`.
        public var severity: String
        /// The problem alone, without its position.
        public var message: String
        /// Where the problem is, when it is in a document.
        public var location: SourcePosition?

        /// A problem saying `message`.
        public init(severity: String = "error", message: String, location: SourcePosition? = nil) {
            self.severity = severity
            self.message = message
            self.location = location
        }
    }

    /// What the command prints: plain sentences, one problem per line.
    public var description: String
    /// The first problem alone, without its position: the `message` of the JSON form.
    public var message: String
    /// Where the first problem is, when it is in a document.
    public var location: SourcePosition?
    /// Every problem, in document order: one for an error that is not about a document.
    public var problems: [Problem]

    /// Whether the error is about places in a document: its lines then start with the place.
    public var isInDocument: Bool { problems.contains { $0.location != nil } }

    /// An error saying `description`, not about a place in a document.
    public init(_ description: String) {
        self.description = description
        message = description
        location = nil
        problems = [Problem(message: description)]
    }

    /// An error about one place in a document: `FILE:LINE:COLUMN: error: MESSAGE`.
    public init(_ message: String, at place: SourcePosition) {
        description = "\(place): error: \(message)"
        self.message = message
        location = place
        problems = [Problem(message: message, location: place)]
    }

    /// An error for a document that cannot be read or built: every problem, each with its
    /// position, in the text and in the JSON form.
    public init(_ error: SCXMLError) {
        description = error.description
        let found = error.errors.isEmpty ? error.diagnostics : error.errors
        problems = found.map { Problem(severity: $0.severity.rawValue, message: $0.message, location: $0.location) }
        message = problems.first?.message ?? description
        location = problems.first?.location
        if problems.isEmpty { problems = [Problem(message: description)] }
    }
}
#endif
