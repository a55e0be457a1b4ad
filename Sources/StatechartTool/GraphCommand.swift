#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// `statechart graph [CHART] --format mermaid|dot|scxml|svg [--layout library|dot]`: a picture of a
/// chart.
public struct GraphCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract:
            "Draw an SCXML chart as Mermaid, Graphviz DOT or SVG, or write it back as SCXML or as an XState machine.",
        discussion: """
            mermaid prints a stateDiagram-v2 for Markdown; dot prints a Graphviz digraph; svg draws \
            the chart with the library's own layout (nested boxes, as the inspector shows it), or with \
            --layout dot runs Graphviz's dot (Debian package graphviz) on the digraph; scxml writes the \
            chart as an SCXML document; xstate writes it as an XState v5 machine configuration (JSON) that \
            Stately Studio opens and `statechart import` reads back.
            """)

    /// Who lays out an SVG picture.
    public enum Layout: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// The library's own renderer (`Statechart.svg()`): no other program needed.
        case library
        /// Graphviz's `dot`, on the DOT the library writes.
        case dot
    }

    /// The output formats.
    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// A Mermaid `stateDiagram-v2`.
        case mermaid
        /// A Graphviz `digraph`.
        case dot
        /// SVG, laid out by the library or by Graphviz (``Layout``).
        case svg
        /// An SCXML document.
        case scxml
        /// An XState v5 machine configuration, as JSON, for XState and Stately Studio.
        case xstate
    }

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// The output format.
    @Option(help: "mermaid, dot, svg, scxml or xstate.")
    public var format: Format = .mermaid

    /// Who lays out `--format svg`.
    @Option(help: "For svg: library (the default, needs nothing else) or dot (Graphviz).")
    public var layout: Layout = .library

    /// Where to write; standard output when omitted.
    @Option(name: .shortAndLong, help: "A file to write instead of standard output.")
    public var output: String?

    /// A command ready to parse.
    public init() {}

    /// Writes the picture.
    public func run() throws {
        let source = try ChartSource.load(chart)
        let statechart = source.chart.statechart
        let text: String
        switch format {
        case .mermaid: text = statechart.mermaid()
        case .dot: text = statechart.dot()
        case .svg: text = layout == .dot ? try Self.render(statechart.dot()) : statechart.svg()
        case .scxml: text = SCXMLWriter.write(source.chart.document)
        case .xstate:
            do {
                text = try XStateWriter.json(source.chart.document)
            } catch {
                throw CommandError(error)
            }
        }
        try OutputFile.write(text, to: output)
    }

    /// SVG from DOT, by Graphviz's `dot`.
    static func render(_ dot: String) throws -> String {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard
            let executable = paths.map({ "\($0)/dot" }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw CommandError("--format svg needs Graphviz's dot, which is not installed (apt-get install graphviz)")
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess(executable: URL(fileURLWithPath: executable), arguments: ["-Tsvg"])
                .run(input: Data(dot.utf8))
        } catch {
            throw CommandError(error.message)
        }
        guard result.status == 0, !result.killedBySignal else {
            throw CommandError("Graphviz's dot \(result.ending): \(result.lastError)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}
#endif
