import Statecharts
import StatechartsSCXML

/// An error a command reports as one line, `Error: ...`, with a non-zero status; under `--json`,
/// as one JSON object (``StatechartCommand/errorJSON(_:)``).
public struct CommandError: Error, CustomStringConvertible {
    /// What the command prints: plain sentences, one problem per line.
    public var description: String
    /// The first problem alone, without its position: the `message` of the JSON form.
    public var message: String
    /// Where the first problem is, when it is in a document.
    public var location: SourcePosition?

    /// An error saying `description`.
    public init(_ description: String, location: SourcePosition? = nil) {
        self.description = description
        self.message = description
        self.location = location
    }

    /// An error for a document that cannot be read or built: every problem in the text, the first
    /// one's message and position in the JSON form.
    public init(_ error: SCXMLError) {
        description = error.description
        let problems = error.errors.isEmpty ? error.diagnostics : error.errors
        guard let first = problems.first else {
            message = description
            location = nil
            return
        }
        let more = problems.count - 1
        message = first.message + (more > 0 ? " (and \(more) more problem\(more == 1 ? "" : "s"))" : "")
        location = first.location
    }
}
