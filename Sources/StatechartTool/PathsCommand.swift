#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// `statechart paths [CHART] [--cover states|transitions] [--json]`: paths through a chart, for
/// tests generated from it.
public struct PathsCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract:
            "Print paths through an SCXML chart: the shortest to every configuration, or a set taking every transition.",
        discussion: """
            The search runs sessions of the document: from each state it sends every event the \
            document handles and lets time pass to the next timer, so guards are evaluated on the \
            data each path made. A path is its events, in the syntax `statechart run --events` \
            takes (a wait as `wait 5s`), and the configuration it ends in; replayed with run, it \
            ends there. Transitions no path took are listed after the paths (on standard error \
            with --json), each with why: a guard no path made hold, or a source never reached.
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// What the paths must cover.
    @Option(help: "states: the shortest path to every configuration; transitions: paths that take every transition.")
    public var cover: PathCoverage = .transitions

    /// Whether to print JSON.
    @Flag(help: "Print a JSON array of objects with events, configuration and transitions.")
    public var json = false

    /// The most steps in a path.
    @Option(help: "The most steps in a path (16).")
    public var maximumDepth = 16

    /// The most distinct states the search visits.
    @Option(help: "The most distinct states the search visits (20000).")
    public var maximumStates = 20_000

    /// The most time the search takes.
    @Option(help: "The most time the search may take (60s; `none` for no limit): it prints what it found by then.")
    public var searchTime: String?

    /// The limits of each session.
    @OptionGroup(title: "Limits") public var limitOptions: LimitOptions

    /// A command ready to parse.
    public init() {}

    /// Searches and prints.
    public func run() throws {
        guard maximumDepth > 0, maximumStates > 0 else {
            throw ValidationError("--maximum-depth and --maximum-states must be positive")
        }
        var timeLimit: Duration? = .seconds(60)
        if let searchTime {
            if searchTime == "none" {
                timeLimit = nil
            } else if let duration = Step.duration(searchTime), duration > .zero {
                timeLimit = duration
            } else {
                throw CommandError("--search-time '\(searchTime)' is not a duration such as 500ms, 2m or none")
            }
        }
        let limits = try limitOptions.limits()
        let source = try ChartSource.load(chart, limits: limits)
        let search: PathSearch<String, SCXMLEvent>
        do {
            search = try source.chart.searchPaths(
                covering: cover, limits: limits, maximumDepth: maximumDepth, maximumStates: maximumStates,
                timeLimit: timeLimit)
        } catch {
            throw CommandError("the chart cannot start: \(error)")
        }
        if json {
            printJSON(Self.json(search.paths))
            for line in Self.notes(search) { printToStandardError(line) }
        } else {
            let statechart = source.chart.statechart
            for path in search.paths {
                let events = path.steps.isEmpty ? "(start)" : path.steps.map(\.written).joined(separator: ", ")
                // The active atomic states, as `run` prints where the replayed path ends.
                let active = path.configuration.filter { !statechart.hasChildStates($0) }
                printLine("\(events) → \(TerminalOutput.configuration(active))")
            }
            for line in Self.notes(search) { printLine(line) }
            if search.paths.isEmpty && search.unreached.isEmpty {
                printLine("no paths: the chart has no transitions to take")
            }
        }
    }

    /// One line per transition no path took, and one if the search was cut short.
    static func notes(_ search: PathSearch<String, SCXMLEvent>) -> [String] {
        var lines = search.unreached.map { transition in
            let place = transition.location.map { "\(ConformanceRunner.shortLocation($0)): " } ?? ""
            let events = transition.events.isEmpty ? "eventless" : "on \(transition.events.joined(separator: " "))"
            let source = transition.source ?? "(document)"
            let why =
                switch transition.reason {
                case .unresolvedGuard: "its guard held on no path found"
                case .notReached: "no path found reached it"
                }
            return "\(place)not covered: the transition of \(source) \(events): \(why)"
        }
        if search.isTruncated {
            lines.append(
                "the search stopped at its bound (--maximum-depth, --maximum-states, --search-time); more paths may exist"
            )
        }
        return lines
    }

    /// The paths as a JSON array.
    static func json(_ paths: [ChartPath<String, SCXMLEvent>]) -> String {
        struct Transition: Encodable {
            var source: String?
            var event: String?
            var targets: [String]
        }
        struct Path: Encodable {
            var events: [String]
            var configuration: [String]
            var transitions: [Transition]
        }
        let encoded = paths.map { path in
            Path(
                events: path.steps.map(\.written), configuration: path.configuration,
                transitions: path.transitions.map {
                    Transition(source: $0.source, event: $0.event, targets: $0.targets)
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(encoded) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension PathCoverage: ExpressibleByArgument {}
#endif
