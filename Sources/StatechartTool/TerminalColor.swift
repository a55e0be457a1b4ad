#if Tools
import Foundation
import Statecharts

/// When the tool colours what it writes: `--color auto` (the default) colours a stream that is a
/// terminal, unless `NO_COLOR` is set (https://no-color.org) or `TERM` is `dumb`; `always` and
/// `never` say so whatever the stream.
enum ColorMode: String, CaseIterable, Sendable {
    /// Colour on a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`: the default.
    case auto
    /// Colour whatever the stream, such as a CI log that shows it.
    case always
    /// No colour.
    case never

    /// Takes `--color MODE` or `--color=MODE` out of `arguments` (before a `--`), so that every
    /// command accepts it.
    ///
    /// - Returns: The mode, `auto` when none is given, and the arguments without it.
    /// - Throws: ``UsageError`` for a value that is not a mode, or a `--color` without one.
    static func extract(from arguments: [String]) throws(UsageError) -> (ColorMode, [String]) {
        var mode = ColorMode.auto
        var remaining: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                remaining += arguments[index...]
                break
            }
            var value: String?
            if argument == "--color" {
                guard index + 1 < arguments.count else {
                    throw UsageError("--color needs a value: auto, always or never")
                }
                value = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--color=") {
                value = String(argument.dropFirst("--color=".count))
            }
            if let value {
                guard let parsed = ColorMode(rawValue: value) else {
                    throw UsageError("--color takes auto, always or never, not '\(value)'")
                }
                mode = parsed
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        return (mode, remaining)
    }

    /// Whether to colour what goes to `descriptor`, with this environment.
    func colours(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isatty(descriptor) == 1
        }
    }
}

/// A wrong use of the command line found before the arguments are parsed: status 64, as the
/// argument parser's own.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// How a piece of a line is shown when colour is on: as compilers and test runners show them.
enum TerminalStyle: Sendable {
    /// `error:`, `FAIL`: bold red.
    case error
    /// `warning:`: bold magenta, as swiftc and clang write it.
    case warning
    /// `PASS`: green.
    case success
    /// A configuration, a location: bold.
    case emphasis

    var code: String {
        switch self {
        case .error: "1;31"
        case .warning: "1;35"
        case .success: "32"
        case .emphasis: "1"
        }
    }
}

/// Where the tool's colour choice lives: set once by `StatechartCommand.main` before a command
/// runs, read by every write after.
enum TerminalColor {
    /// Whether standard output and standard error are coloured.
    nonisolated(unsafe) static var output = false
    nonisolated(unsafe) static var error = false

    /// Decides for both streams.
    static func configure(_ mode: ColorMode) {
        output = mode.colours(STDOUT_FILENO)
        error = mode.colours(STDERR_FILENO)
    }
}

/// A line made of pieces, each made printable (`Escaping.terminal`) and then, when colour is on,
/// wrapped in its style's escape sequence: the only escape sequences written are the tool's own, and
/// a document's text, escaped piece by piece, never reaches the terminal as a control sequence.
struct StyledLine: ExpressibleByStringLiteral {
    var pieces: [(text: String, style: TerminalStyle?)] = []

    init(stringLiteral text: String) { pieces = [(text, nil)] }
    init(_ text: String = "", _ style: TerminalStyle? = nil) { pieces = text.isEmpty ? [] : [(text, style)] }

    /// This line with `text` after it.
    static func + (line: StyledLine, piece: StyledLine) -> StyledLine {
        var joined = line
        joined.pieces += piece.pieces
        return joined
    }

    /// The line for a terminal: coloured when `coloured`.
    func rendered(coloured: Bool) -> String {
        pieces.map { text, style in
            let printable = Escaping.terminal(text, keepingLineBreaks: true)
            guard coloured, let style else { return printable }
            return "\u{1B}[\(style.code)m\(printable)\u{1B}[0m"
        }.joined()
    }

    /// A line the tool wrote as text, with its diagnostic's severity styled when it is one:
    /// `FILE:LINE:COLUMN: error: MESSAGE`, `warning: …`, or the argument parser's `Error: …`.
    static func styling(_ line: String) -> StyledLine {
        for (marker, style) in [(": error: ", TerminalStyle.error), (": warning: ", .warning)] {
            guard let range = line.range(of: marker) else { continue }
            let place = String(line[..<range.lowerBound])
            let severity = String(marker.dropFirst(2).dropLast())
            return StyledLine(place, .emphasis) + StyledLine(": ") + StyledLine(severity, style)
                + StyledLine(" " + line[range.upperBound...])
        }
        for (prefix, style) in [("Error: ", TerminalStyle.error), ("error: ", .error), ("warning: ", .warning)]
        where line.hasPrefix(prefix) {
            return StyledLine(String(prefix.dropLast()), style) + StyledLine(" " + line.dropFirst(prefix.count))
        }
        return StyledLine(line)
    }

    /// A diagnostic as compilers write it, `FILE:LINE:COLUMN: error: MESSAGE`, with its severity
    /// styled; without a place, `error: MESSAGE`.
    static func diagnostic(at place: String?, severity: String, message: String) -> StyledLine {
        let style: TerminalStyle? =
            switch severity {
            case "error": .error
            case "warning": .warning
            default: nil
            }
        return StyledLine(place.map { "\($0)" } ?? "", .emphasis) + StyledLine(place == nil ? "" : ": ")
            + StyledLine("\(severity):", style) + StyledLine(" \(message)")
    }
}

/// Writes `line` and a line feed on standard output, coloured when standard output takes colour.
func printLine(_ line: StyledLine) {
    print(line.rendered(coloured: TerminalColor.output))
}
#endif
