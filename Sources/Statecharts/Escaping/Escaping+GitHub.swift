extension Escaping {
    /// Where text goes in a GitHub Actions workflow command: `::error file=PATH,line=3::MESSAGE`.
    package enum WorkflowCommandPart: Sendable {
        /// The message, after the second `::`: it may span lines.
        case message
        /// A property's value, such as `file` or `title`: one line, and no `,` or `:` of its own.
        case property
    }

    /// `text` as a part of a GitHub Actions workflow command, which the runner reads back as
    /// ``terminal(_:keepingLineBreaks:)`` shows it (line feeds kept in a message only), on one line
    /// of the log.
    ///
    /// The runner splits a command at its first `::` after the name, its properties at `,` and
    /// `=`, and undoes `%0D`, `%0A` and `%25` (with `%3A` and `%2C` in properties): so `%`, carriage
    /// returns and line feeds are written that way, and `:` and `,` in a property too. What a log
    /// or a terminal would obey (escape sequences, bidirectional controls) is first shown as
    /// `\u{HEX}`. Two scalars of a property have no escape the runner undoes, and it would drop
    /// them: an `=` that starts the value, and white space that ends the last property; both are
    /// shown as `\u{HEX}` too. An empty property is dropped by the runner: leave it out.
    package static func workflowCommand(_ text: String, as part: WorkflowCommandPart) -> String {
        let shown = terminal(text, keepingLineBreaks: part == .message).unicodeScalars
        var result = ""
        result.unicodeScalars.reserveCapacity(shown.count)
        for index in shown.indices {
            let scalar = shown[index]
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case ":" where part == .property: result += "%3A"
            case "," where part == .property: result += "%2C"
            case "=" where part == .property && index == shown.startIndex: result += braced(scalar)
            case _
            where part == .property && scalar.properties.isWhitespace && shown.index(after: index) == shown.endIndex:
                result += braced(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
