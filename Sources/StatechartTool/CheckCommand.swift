#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart check [CHART]`: what the checks find in a chart before it runs.
public struct CheckCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check an SCXML chart: unreachable states, traps, shadowed and conflicting transitions.",
        discussion: """
            Prints each finding as FILE:LINE:COLUMN: SEVERITY: MESSAGE [CODE], then a summary; with \
            --format github, as GitHub Actions annotations. The exit status is non-zero when there is \
            an error, or with --strict a warning. --table prints, for \
            each state, the events it handles and the events it ignores.
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// Whether to print the completeness table.
    @Flag(help: "Print the completeness table: for each state, the events it handles.")
    public var table = false

    /// Whether warnings fail the check.
    @Flag(help: "Exit with a non-zero status on warnings too.")
    public var strict = false

    /// Whether to print JSON: the same as `--format json`.
    @Flag(
        help: "Print the findings as JSON: {\"errors\": [...]}, each with its severity, message, file, line and column."
    )
    public var json = false

    /// How to print the findings.
    @Option(
        help: """
            text (the default), json (as --json), or github: each finding as a GitHub Actions annotation \
            (::warning file=…,line=…,col=…,title=…::…), shown on its line in a pull request.
            """)
    public var format: OutputFormat = .text

    /// A command ready to parse.
    public init() {}

    /// One finding; under `--json`, its place as `file`, `line` and `column`, as errors give it,
    /// and as one `location` string (`FILE:LINE:COLUMN`) too.
    struct Finding: Encodable {
        var severity: String
        var code: String
        var message: String
        var state: String?
        var place: SourcePosition?

        var location: String? { place.map { "\($0)" } }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(severity, forKey: .severity)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(state, forKey: .state)
            try container.encode(place?.file, forKey: .file)
            try container.encode(place?.line, forKey: .line)
            try container.encode(place?.column, forKey: .column)
            try container.encodeIfPresent(location, forKey: .location)
        }

        enum CodingKeys: String, CodingKey { case severity, code, message, state, file, line, column, location }
    }

    /// Prints the findings and fails as the severities say.
    public func run() throws {
        let source = try ChartSource.load(chart)
        let statechart = source.chart.statechart
        var findings = source.chart.warnings.map { warning in
            Finding(
                severity: warning.severity.rawValue, code: "document", message: warning.message, state: nil,
                place: warning.location)
        }
        findings += statechart.diagnostics().map { diagnostic in
            Finding(
                severity: diagnostic.severity.rawValue, code: diagnostic.code.rawValue, message: diagnostic.message,
                state: diagnostic.state, place: diagnostic.location)
        }
        if json || format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            printJSON(String(decoding: try encoder.encode(["errors": findings]), as: UTF8.self))
        } else {
            for finding in findings {
                if format == .github {
                    let annotation = GitHubAnnotation(
                        severity: finding.severity, message: finding.message, location: finding.place,
                        title: "statechart check: \(finding.code)")
                    printLine(annotation.command)
                    continue
                }
                printLine(
                    StyledLine.diagnostic(
                        at: finding.location, severity: finding.severity,
                        message: "\(finding.message) [\(finding.code)]"))
            }
            let errors = findings.filter { $0.severity == "error" }.count
            let warnings = findings.filter { $0.severity == "warning" }.count
            printLine(
                "\(source.name): \(statechart.reachableStates.count) states reachable, \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            )
            if table {
                printLine()
                printLine("\(statechart.completenessTable())")
            }
        }
        let failing = findings.contains { $0.severity == "error" || (strict && $0.severity == "warning") }
        if failing { throw ExitCode.failure }
    }
}
#endif
