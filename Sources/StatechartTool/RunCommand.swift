import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart run [CHART] [--events a,b,c | --script FILE] [--json]`: runs an SCXML chart on a
/// virtual clock and prints where it is after each step.
public struct RunCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an SCXML chart, step by step, on a virtual clock.",
        discussion: """
            A step is an event name, sent as an external event, or `wait DURATION` (5s, 250ms, 2m, 1h; \
            +5s for short), which moves the clock forward and fires the timers that fall due. After the \
            start and after each step, the active states are printed; <log> output is printed as it \
            happens. Without a CHART, the bundled media player (Examples/media-player.scxml) runs, with a \
            short demonstration when no steps are given.
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

    /// A command ready to parse.
    public init() {}

    /// Checks that at most one source of steps is given.
    public func validate() throws {
        if events != nil && script != nil { throw ValidationError("give --events or --script, not both") }
    }

    /// Runs the chart and prints its configuration after each step.
    public func run() throws {
        let source = try ChartSource.load(chart)
        source.printWarnings()
        let steps = try self.steps(for: source)
        var session = ChartSession(source: source)
        var outcomes: [ChartSession.Outcome] = []
        func report(_ outcome: ChartSession.Outcome) {
            outcomes.append(outcome)
            guard !json else { return }
            for line in outcome.logs { print("  log \(line)") }
            if trace { for microstep in outcome.microsteps { print("  \(microstep)") } }
            let step = outcome.handled == false ? "\(outcome.step) (not handled)" : outcome.step
            print("\(step) → [\(outcome.active.joined(separator: ", "))]")
        }
        defer {
            if json { print(Self.json(outcomes)) }
        }
        report(try session.start())
        for step in steps {
            if session.machine.status == .finished { break }
            report(try session.take(step))
        }
        if session.machine.status == .finished && !json { print("finished") }
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
