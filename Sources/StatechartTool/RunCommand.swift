#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart run [CHART] [-e STEP ... | --events a,b,c | --script FILE] [--json] [--http]`: runs
/// an SCXML document in a session on a virtual clock, with the sessions it invokes, and prints where
/// it is after each step.
public struct RunCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an SCXML chart, step by step, on a virtual clock or the real one.",
        discussion: """
            A step is an event name, sent as an external event, with its data as JSON after `=` if it has \
            any (login={"user": "ann"}), or `wait DURATION` (5s, 250ms, 2m, 1h; +5s for short), which \
            moves the clock forward and fires the timers that fall due. After the \
            start and after each step, the active states are printed, with those of the sessions the \
            document invokes; <log> output is printed as it happens. The document runs as `statechart \
            test` and the library run it: invoked documents, events between sessions, delayed events. \
            Without a CHART, the bundled media player (Examples/media-player.scxml) runs, with a short \
            demonstration when no steps are given.
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// Steps, one per option, in order.
    @Option(
        name: [.customShort("e"), .customLong("event")],
        help: """
            A step: NAME, NAME=JSON (the event with its data) or `wait DURATION`; repeat it for more \
            steps, which run in order: -e play -e 'seek={"to": 30}' -e 'wait 2s'.
            """)
    public var event: [String] = []

    /// Steps, comma-separated.
    @Option(help: "Steps, separated by commas: play,wait 2s,pause (data with commas needs -e).")
    public var events: String?

    /// A file of steps.
    @Option(name: .shortAndLong, help: "A file of steps, one per line; # starts a comment.")
    public var script: String?

    /// Whether to print every microstep.
    @Flag(help: "Print every microstep: the states exited and entered.")
    public var trace = false

    /// Whether to print JSON Lines.
    @Flag(
        help: """
            Print JSON Lines as the run goes: one object per step and per instant at which timers \
            fire (step, event with its data, handled, transitions, exited, entered, active, \
            configuration, invoked, time, status, logs, errors). A failure is one object {"error": ...}.
            """)
    public var json = false

    /// The clock the session's time follows.
    @Option(
        help: """
            The clock: `virtual` (the default) moves time only at `wait` steps, at once; `real` follows \
            the wall clock, so `wait 1s` takes a second and timers fire when their time comes.
            """)
    public var clock: RunClock = .virtual

    /// Whether to give the document the Basic HTTP Event I/O Processor.
    @Flag(
        help: """
            Give the document the Basic HTTP Event I/O Processor, on loopback: it can then send and \
            receive events over HTTP (its <send type="basichttp">). Off by default: a document reaches \
            nothing outside the process unless you say so.
            """)
    public var http = false

    /// The limits the document runs within.
    @OptionGroup(title: "Limits")
    public var limits: LimitOptions

    /// The answers of named guards.
    @Option(
        name: .customLong("guard"),
        help: """
            What a guard the document names (sc:guard, as an imported XState machine's) answers, \
            NAME=true or NAME=false; repeatable. A named guard not given is an error when evaluated.
            """)
    public var guards: [String] = []

    /// How many steps the run may take.
    @Option(
        help: """
            Stop the run after this many steps: events, and instants at which timers fire (100000). \
            A timer that re-arms itself every millisecond fires 3.6 million times in `wait 1h`.
            """)
    public var maxSteps = 100_000

    /// A command ready to parse.
    public init() {}

    /// Checks that at most one source of steps is given.
    public func validate() throws {
        let sources = [!event.isEmpty, events != nil, script != nil].filter { $0 }.count
        if sources > 1 { throw ValidationError("give the steps one way: -e/--event, --events or --script") }
        if maxSteps < 1 { throw ValidationError("--max-steps must be at least 1") }
        _ = try namedGuards()
    }

    /// The named guards of `--guard NAME=true|false`.
    func namedGuards() throws -> [String: SCXMLNamedGuard] {
        var result: [String: SCXMLNamedGuard] = [:]
        for given in guards {
            let parts = given.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let value = Bool(parts[1]) else {
                throw ValidationError("--guard takes NAME=true or NAME=false; '\(given)' is not one")
            }
            result[parts[0]] = .constant(value)
        }
        return result
    }

    /// Runs the chart and prints its configuration after each step.
    public func run() async throws {
        let limits = try self.limits.limits()
        let source = try ChartSource.load(chart, limits: limits)
        source.printWarnings()
        let steps = try self.steps(for: source)
        let processors = try await EventProcessorSetup.start(http: http)
        var session = ChartSession(
            source: source, eventProcessors: processors.processors, limits: limits, maximumSteps: maxSteps,
            guards: try namedGuards())
        if clock == .real { session.followWallClock() }
        for warning in session.warnings { printToStandardError("\(warning)") }
        var problemsShown = session.warnings.count
        // Each step is printed as it happens, and none is kept: a run takes the same memory
        // however long it is. Under --json, each is one line of JSON.
        // What a wait does at each instant is printed as it happens.
        func progress(_ outcome: ChartSession.Outcome) {
            if json {
                printJSON(Self.json(outcome))
                return
            }
            // A document's own text: its control characters are shown, not obeyed, and a log's
            // line feeds too, so that each log is one line.
            for line in outcome.logs { printLine("  log \(Escaping.terminal(line))") }
            // Why a document went where it did: the errors it raised, on standard error.
            for error in outcome.errors.prefix(Self.errorsShown) { printToStandardError(Escaping.terminal(error)) }
            if outcome.errors.count > Self.errorsShown {
                printToStandardError("... and \(outcome.errors.count - Self.errorsShown) more errors in this step")
            }
            if trace { for microstep in outcome.microsteps { printLine("  \(Escaping.terminal("\(microstep)"))") } }
        }
        func report(_ outcome: ChartSession.Outcome) {
            for problem in session.session.problems.dropFirst(problemsShown) { printToStandardError("\(problem)") }
            problemsShown = session.session.problems.count
            progress(outcome)
            if !json { printLine(Self.line(outcome)) }
        }
        do {
            report(try await session.start())
            for step in steps {
                if session.session.status == .finished { break }
                report(try await session.take(step, progress: progress))
            }
        } catch {
            await processors.stop()
            throw error
        }
        await processors.stop()
        if session.session.status == .finished && !json { print("finished") }
    }

    /// How many of a step's errors are printed; the others are counted.
    static let errorsShown = 20

    /// `step → [active states]`, with the invoked sessions' active states after them.
    static func line(_ outcome: ChartSession.Outcome) -> String {
        let step = outcome.handled == false ? "\(outcome.step) (not handled)" : outcome.step
        let invoked = outcome.invoked.keys.sorted().map { id in
            " \(id) \(TerminalOutput.configuration(outcome.invoked[id] ?? []))"
        }
        let children = invoked.isEmpty ? "" : ", invoked:" + invoked.joined(separator: ",")
        return "\(step) → \(TerminalOutput.configuration(outcome.active))\(children)"
    }

    func steps(for source: ChartSource) throws -> [Step] {
        if !event.isEmpty {
            return try event.map { try Step(parsing: $0) }
        }
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

    /// One line of JSON.
    static func json(_ outcome: ChartSession.Outcome) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(outcome) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The clock a run's time follows (`statechart run --clock`).
public enum RunClock: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Time moves only at `wait` steps, at once.
    case virtual
    /// Time follows the wall clock.
    case real
}
#endif
