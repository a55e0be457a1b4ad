#if Tools
import Statecharts

/// A problem as a GitHub Actions annotation: `::error file=PATH,line=L,col=C,title=TITLE::MESSAGE`.
/// A workflow step that writes it gets the problem shown on the file's line in the pull request,
/// and in the run's summary. `--format github` writes these.
///
/// Every part goes through `Escaping.workflowCommand(_:as:)`, which the Actions runner's own parser
/// reads back as written (EscapingPropertyTests checks it against that parser): a file name or a
/// message cannot end the command early, add properties, or write a second command.
struct GitHubAnnotation: Sendable, Hashable {
    /// `error`, `warning`, or anything else, written as `notice`.
    var severity: String
    /// What is wrong; it may span lines.
    var message: String
    /// Where, when the problem is in a document.
    var location: SourcePosition?
    /// A short title; `nil` for none.
    var title: String?

    /// The workflow command, on one line.
    var command: String {
        let name = ["error", "warning"].contains(severity) ? severity : "notice"
        var properties: [(String, String)] = []
        if let location {
            properties += [("file", location.file), ("line", "\(location.line)"), ("col", "\(location.column)")]
        }
        if let title { properties.append(("title", title)) }
        // The runner drops a property whose value is empty.
        let written = properties.filter { !$0.1.isEmpty }.map { key, value in
            "\(key)=\(Escaping.workflowCommand(value, as: .property))"
        }
        let head = written.isEmpty ? name : "\(name) \(written.joined(separator: ","))"
        return "::\(head)::\(Escaping.workflowCommand(message, as: .message))"
    }

    /// Whether `arguments` ask for annotations: `--format github` or `--format=github`.
    static func requested(by arguments: [String]) -> Bool {
        arguments.contains("--format=github")
            || zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "github" }
    }
}
#endif
