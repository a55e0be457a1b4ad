import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart run [CHART] [--events a,b,c | --script FILE] [--json] [--http]`: runs an SCXML
/// document in a session on a virtual clock, with the sessions it invokes, and prints where it is
/// after each step.
public struct RunCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an SCXML chart, step by step, on a virtual clock.",
        discussion: """
            A step is an event name, sent as an external event, or `wait DURATION` (5s, 250ms, 2m, 1h; \
            +5s for short), which moves the clock forward and fires the timers that fall due. After the \
            start and after each step, the active states are printed, with those of the sessions the \
            document invokes; <log> output is printed as it happens. The document runs as `statechart \
            test` and the library run it: invoked documents, events between sessions, delayed events. \
            Without a CHART, the bundled media player (Examples/media-player.scxml) runs, with a short \
            demonstration when no steps are given.
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// Steps, comma-separated.
    @Option(name: .shortAndLong, help: "Steps, separated by commas: play,wait 2s,pause.")
    public var events: String?

    /// A file of steps.
    @Option(name: .shortAndLong, help: "A file of steps, one per line; # starts a comment.")
    public var script: String?

    /// Whether to print every microstep.
    @Flag(help: "Print every microstep: the states exited and entered.")
    public var trace = false

    /// Whether to print JSON.
    @Flag(help: "Print the steps as JSON.")
    public var json = false

    /// Whether to give the document the Basic HTTP Event I/O Processor.
    @Flag(
        help: """
            Give the document the Basic HTTP Event I/O Processor, on loopback: it can then send and \
            receive events over HTTP (its <send type="basichttp">). Off by default: a document reaches \
            nothing outside the process unless you say so.
            """)
    public var http = false

    /// A command ready to parse.
    public init() {}

    /// Checks that at most one source of steps is given.
    public func validate() throws {
        if events != nil && script != nil { throw ValidationError("give --events or --script, not both") }
    }

    /// Runs the chart and prints its configuration after each step.
    public func run() async throws {
        let source = try ChartSource.load(chart)
        source.printWarnings()
        let steps = try self.steps(for: source)
        let processors = try await EventProcessorSetup.start(http: http)
        var session = ChartSession(source: source, eventProcessors: processors.processors)
        for warning in session.warnings { printToStandardError("\(warning)") }
        var outcomes: [ChartSession.Outcome] = []
        func report(_ outcome: ChartSession.Outcome) {
            outcomes.append(outcome)
            guard !json else { return }
            for line in outcome.logs { print("  log \(line)") }
            if trace { for microstep in outcome.microsteps { print("  \(microstep)") } }
            print(Self.line(outcome))
        }
        do {
            report(try await session.start())
            for step in steps {
                if session.session.status == .finished { break }
                report(try await session.take(step))
            }
        } catch {
            await processors.stop()
            if json { print(Self.json(outcomes)) }
            throw error
        }
        await processors.stop()
        if json { print(Self.json(outcomes)) }
        if session.session.status == .finished && !json { print("finished") }
    }

    /// `step → [active states]`, with the invoked sessions' active states after them.
    static func line(_ outcome: ChartSession.Outcome) -> String {
        let step = outcome.handled == false ? "\(outcome.step) (not handled)" : outcome.step
        let invoked = outcome.invoked.keys.sorted().map { id in
            " \(id) [\((outcome.invoked[id] ?? []).joined(separator: ", "))]"
        }
        let children = invoked.isEmpty ? "" : ", invoked:" + invoked.joined(separator: ",")
        return "\(step) → [\(outcome.active.joined(separator: ", "))]\(children)"
    }

    func steps(for source: ChartSource) throws -> [Step] {
        if let events {
            return try events.split(separator: ",").map { try Step(parsing: String($0)) }
        }
        if let script {
            guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
                throw CommandError("no such file: \(script)")
            }
            return try Step.script(text, file: script)
        }
        return source.isBundled ? try BundledCharts.mediaPlayerDemo.map { try Step(parsing: $0) } : []
    }

    static func json(_ outcomes: [ChartSession.Outcome]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(outcomes) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
