#if Tools
import Foundation
import Statecharts

// Every line the tool writes that a document, a file name or a user's input influenced goes
// through one of these, so that none of it reaches the terminal as a control sequence: state ids,
// event names, logs, traces, errors and warnings are written with `Escaping.terminal`, and JSON
// with `Escaping.jsonText`. The generator's Swift and the graph's DOT, SVG, SCXML and Mermaid
// are escaped for their own language, and hold no control scalar either.

/// Writes `text` and a line feed on standard output, made printable (line feeds kept).
func printLine(_ text: String = "") {
    print(Escaping.terminal(text, keepingLineBreaks: true))
}

/// Writes JSON text from an encoder and a line feed on standard output, with the control scalars
/// the encoder leaves raw (C1, DEL, U+2028, U+2029) escaped as JSON escapes.
func printJSON(_ text: String) {
    print(Escaping.jsonText(text))
}

/// Writes `text` and a line feed on standard error, made printable (line feeds kept); the severity
/// of each diagnostic line (`FILE:LINE:COLUMN: error: …`) is coloured when standard error takes
/// colour.
func printToStandardError(_ text: String) {
    guard TerminalColor.error else {
        return writeUnbuffered(Escaping.terminal(text, keepingLineBreaks: true) + "\n", to: .standardError)
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { StyledLine.styling(String($0)) }
    writeUnbuffered(lines.map { $0.rendered(coloured: true) }.joined(separator: "\n") + "\n", to: .standardError)
}

/// Writes `text` as it is, unbuffered (a prompt, or what a script waits for): a reader that has gone
/// away (a closed pipe) ends the write, not the tool.
func writeUnbuffered(_ text: String, to handle: FileHandle = .standardOutput) {
    try? handle.write(contentsOf: Data(text.utf8))
}

/// How the tool writes a configuration, everywhere: `[on, dim]`, as a machine prints itself.
enum TerminalOutput {
    static func configuration(_ states: [String]) -> String { "[" + states.joined(separator: ", ") + "]" }
}
#endif
