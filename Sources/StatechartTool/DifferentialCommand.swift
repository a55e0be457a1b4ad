#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// `statechart differential`: runs random charts here and in a reference interpreter, and compares
/// the configurations after every event.
public struct DifferentialCommand: ParsableCommand, Sendable {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "differential",
        abstract: "Compare random charts run here and in a reference SCXML interpreter.",
        discussion: """
            Generates COUNT random charts without a data model (nested, parallel and final states, \
            history, eventless, internal and guarded transitions, raised and delayed events) from SEED, \
            runs each with random events here and with ORACLE (a command that takes a chart and events \
            and prints one JSON line per step, as ../shared/oracle/psm_trace.py does), and compares the \
            active states after every event. A chart that loops is compared up to the microstep limit, \
            where both engines must stop in the same configuration (Scripts/bounded_oracle.py gives \
            python-statemachine the limit). Scripts/differential.sh sets the oracle up.
            """)

    /// The reference interpreter's command line.
    @Option(help: "The oracle's command, split at spaces; the chart and the events are appended.")
    public var oracle: String

    /// How many charts.
    @Option(help: "How many charts to run.")
    public var count = 100

    /// The first seed.
    @Option(help: "The seed of the first chart; chart i uses SEED + i.")
    public var seed: UInt64 = 1

    /// Events per chart.
    @Option(help: "Events per chart.")
    public var events = 8

    /// Where to keep diverging charts.
    @Option(help: "A folder where each diverging chart and its events are written.")
    public var keep: String?

    /// Whether to leave out time.
    @Flag(help: "No delayed events and no waits: for oracles that run on real time, such as Qt SCXML.")
    public var noTimers = false

    /// Whether to leave out guards.
    @Flag(
        help:
            "No guards (In()) and so no eventless transitions: for oracles without In() in the null data model, such as Qt SCXML."
    )
    public var noGuards = false

    /// How long the oracle may take on one chart.
    @Option(help: "Seconds the oracle may take on one chart before it is stopped and the chart skipped.")
    public var oracleTimeout = 20

    /// The microstep limit of both engines.
    @Option(
        help: """
            The microsteps one call may take here (the start, an event, or the timers of one instant). \
            A chart that loops stops there, and is compared there: give the oracle the same limit \
            (Scripts/bounded_oracle.py --limit N does for python-statemachine).
            """)
    public var microstepLimit = 1_000

    /// Whether to skip the charts that stop at the limit here.
    @Flag(help: "Skip the charts that stop at the microstep limit here: for oracles without a limit, such as Qt SCXML.")
    public var skipStopped = false

    /// How many charts run at once.
    @Option(help: "How many charts to run at once (each runs the oracle in its own process).")
    public var jobs = 1

    /// Whether to say why each skipped chart was skipped.
    @Flag(help: "Say why each chart was skipped, or which known departure of the oracle it stopped at.")
    public var showSkips = false

    /// A command ready to parse.
    public init() {}

    /// Checks the numbers.
    public func validate() throws {
        if microstepLimit < 1 { throw ValidationError("--microstep-limit must be at least 1") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// One line of a run: the configuration after the start or an event; `stopped` when the call
    /// was stopped at the microstep limit (the last line of a run).
    struct OracleLine: Decodable {
        var configuration: [String]
        var done: Bool
        var stopped: Bool

        init(configuration: [String], done: Bool, stopped: Bool = false) {
            self.configuration = configuration
            self.done = done
            self.stopped = stopped
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            configuration = try container.decode([String].self, forKey: .configuration)
            done = try container.decode(Bool.self, forKey: .done)
            stopped = try container.decodeIfPresent(Bool.self, forKey: .stopped) ?? false
        }

        enum CodingKeys: String, CodingKey {
            case configuration, done, stopped
        }
    }

    /// What became of one chart.
    enum Verdict: Sendable {
        case skipped(String)
        case compared(steps: Int, stopped: Bool)
        /// The oracle departed from the W3C algorithm in a known way (the reason, without the step).
        case departure(step: Int, Departure)
        case diverged(report: String, chart: String, events: [String])
    }

    /// Runs the charts and fails if any diverges.
    public func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statechart-differential-\(seed)-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var compared = 0
        var stopped = 0
        var skipped = 0
        var steps = 0
        var divergent: [String] = []
        var departures: [String: Int] = [:]
        // In batches, so that what each chart did is printed in order as the run goes.
        let batch = max(jobs * 8, 1)
        var first = 0
        while first < count {
            let indices = Array(first..<min(first + batch, count))
            first += batch
            let verdicts = VerdictBox(count: indices.count)
            let command = self
            DispatchQueue.concurrentPerform(iterations: indices.count) { position in
                let chartSeed = command.seed &+ UInt64(indices[position])
                verdicts.set(position, command.verdict(chartSeed: chartSeed, work: work))
            }
            for (position, verdict) in verdicts.all.enumerated() {
                let chartSeed = seed &+ UInt64(indices[position])
                switch verdict {
                case .skipped(let reason):
                    skipped += 1
                    if showSkips { print("SKIP seed \(chartSeed): \(reason)") }
                case .compared(let taken, let atLimit):
                    compared += 1
                    steps += taken
                    if atLimit { stopped += 1 }
                case .departure(let step, let departure):
                    departures[departure.kind, default: 0] += 1
                    if showSkips { print("DEPARTURE seed \(chartSeed) at step \(step): \(departure)") }
                case .diverged(let report, let chart, let events):
                    divergent.append("seed \(chartSeed)")
                    print(report)
                    if let keep {
                        let folder = URL(fileURLWithPath: keep)
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        try chart.write(
                            to: folder.appendingPathComponent("chart\(chartSeed).scxml"), atomically: true,
                            encoding: .utf8)
                        try (events.joined(separator: "\n") + "\n").write(
                            to: folder.appendingPathComponent("chart\(chartSeed).events"), atomically: true,
                            encoding: .utf8)
                    }
                }
            }
        }
        print(
            "\(compared) charts compared (\(steps) steps; \(stopped) stopped at the limit of \(microstepLimit) microsteps in both), \(skipped) skipped (invalid or rejected by the oracle), \(departures.values.reduce(0, +)) stopped at a known departure of the oracle, \(divergent.count) diverged"
        )
        for (reason, charts) in departures.sorted(by: { $0.key < $1.key }) {
            print("  \(charts) at a known departure: \(reason)")
        }
        if !divergent.isEmpty { throw ExitCode.failure }
    }

    /// Generates the chart of `chartSeed`, runs it here and in the oracle, and compares.
    func verdict(chartSeed: UInt64, work: URL) -> Verdict {
        var random = SplitMix64(seed: chartSeed)
        let chart = RandomChart(tape: random.tape(count: 300), timers: !noTimers, conditions: !noGuards)
        let run = RandomChart.events(tape: random.tape(count: 2 * events), count: events, waits: !noTimers)
        let text = chart.scxml
        let parents = Self.parents(of: chart.states)
        let ours: [OracleLine]
        do {
            ours = try Self.runHere(text, run, microstepLimit: microstepLimit)
        } catch {
            return .skipped("not run here: \(error)")
        }
        if skipStopped, ours.last?.stopped == true {
            return .skipped("stopped at the limit of \(microstepLimit) microsteps here; the oracle has no limit")
        }
        let file = work.appendingPathComponent("chart\(chartSeed).scxml")
        let theirs: [OracleLine]
        let problem: String
        do {
            try text.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            (theirs, problem) = try runOracle(file, run)
        } catch {
            return .skipped("the oracle could not run: \(error)")
        }
        let eventList = run.map { $0.after > 0 ? "\($0.name)@\($0.after)" : $0.name }
        // Lines to compare: all of them, or up to where one engine stopped at the limit (and the
        // other must have stopped there too).
        let stop = ours.firstIndex(where: \.stopped) ?? theirs.firstIndex(where: \.stopped)
        guard theirs.count == ours.count || stop != nil else {
            // The oracle could not run the chart (it reported an error): nothing to compare.
            return .skipped("the oracle stopped: \(problem)")
        }
        let length = min(ours.count, theirs.count)
        if let step = (0..<length).first(where: { !Self.agree(ours[$0], theirs[$0]) }) {
            if let departure = Self.knownDeparture(here: ours[step], oracle: theirs[step], parents: parents) {
                return .departure(step: step, departure)
            }
            return .diverged(
                report: Self.report(chartSeed, step: step, events: eventList, ours, theirs), chart: text,
                events: eventList)
        }
        guard ours.count == theirs.count else {
            let which = ours.count < theirs.count ? "here" : "in the oracle"
            return .diverged(
                report: Self.report(chartSeed, step: length - 1, events: eventList, ours, theirs)
                    + "\n  (the run stopped at the microstep limit \(which) only)",
                chart: text, events: eventList)
        }
        return .compared(steps: ours.count, stopped: stop != nil)
    }

    /// The lines of a diverging run, side by side.
    static func report(
        _ chartSeed: UInt64, step: Int, events: [String], _ ours: [OracleLine], _ theirs: [OracleLine]
    ) -> String {
        var lines = ["DIVERGE seed \(chartSeed) at step \(step): events \(events.joined(separator: " "))"]
        func show(_ line: OracleLine?) -> String {
            guard let line else { return "-" }
            return
                "\(TerminalOutput.configuration(line.configuration))\(line.done ? " done" : "")\(line.stopped ? " stopped" : "")"
        }
        for position in 0..<max(ours.count, theirs.count) {
            let here = position < ours.count ? ours[position] : nil
            let there = position < theirs.count ? theirs[position] : nil
            let mark = here.flatMap { here in there.map { agree(here, $0) } } == true ? " " : "≠"
            lines.append("  \(mark) \(position): here \(show(here)) oracle \(show(there))")
        }
        return lines.joined(separator: "\n")
    }

    /// A known departure of the oracle from the W3C algorithm: its kind, which the summary counts,
    /// and what this chart showed of it.
    struct Departure: Equatable, CustomStringConvertible {
        var kind: String
        var detail: String?
        var description: String { detail.map { "\(kind) (\($0))" } ?? kind }
    }

    /// Why a disagreement is the oracle's known departure from the W3C algorithm, if it is one;
    /// `parents` gives each state's parent.
    static func knownDeparture(here: OracleLine, oracle there: OracleLine, parents: [String: String]) -> Departure? {
        // python-statemachine ends the run when a top-level parallel state completes; SCXML ends it
        // only on entering a <final> child of <scxml> (3.7, and exitInterpreter in Appendix D).
        if there.done && !here.done && here.configuration == there.configuration {
            return Departure(kind: "the oracle finished without entering a top-level final state")
        }
        // Appendix D computes a transition's domain twice: in exitStates, and again in
        // computeEntrySet, after exitStates recorded the history the transition targets. When the
        // recorded states give a smaller domain, the parallel state that owns the history is exited
        // but not entered again, and its children are active without it, which a configuration may
        // not be (3.11). We compute the domain once; python-statemachine follows the letter.
        if Self.isLegal(here.configuration, parents: parents),
            let orphan = Self.orphan(in: there.configuration, parents: parents)
        {
            return Departure(
                kind:
                    "the oracle's configuration is not legal: Appendix D recomputes a transition's domain after recording the history it targets",
                detail: "\(orphan.child) is active, its parent \(orphan.parent) is not")
        }
        return nil
    }

    /// Each state's parent, in a random chart.
    static func parents(of nodes: [RandomChart.Node], parent: String? = nil) -> [String: String] {
        var result: [String: String] = [:]
        for node in nodes {
            if let parent { result[node.id] = parent }
            result.merge(parents(of: node.children, parent: node.id)) { first, _ in first }
        }
        return result
    }

    /// A state of `configuration` whose parent is not in it, if there is one.
    static func orphan(in configuration: [String], parents: [String: String]) -> (child: String, parent: String)? {
        let active = Set(configuration)
        for state in configuration.sorted() {
            if let parent = parents[state], !active.contains(parent) { return (state, parent) }
        }
        return nil
    }

    /// Whether every state of `configuration` has its parent in it.
    static func isLegal(_ configuration: [String], parents: [String: String]) -> Bool {
        orphan(in: configuration, parents: parents) == nil
    }

    static func agree(_ here: OracleLine, _ there: OracleLine) -> Bool {
        if here.done && there.done { return true }
        return here.done == there.done && here.stopped == there.stopped && here.configuration == there.configuration
    }

    /// The configuration after the start and after each event, here; a call stopped at the
    /// microstep limit ends the run with a line marked `stopped`.
    static func runHere(_ text: String, _ run: [(name: String, after: Int)], microstepLimit: Int) throws -> [OracleLine]
    {
        let chart = try SCXMLChart.load(text, file: "random.scxml")
        var session = SCXMLSession(
            chart: chart, options: .init(sessionID: "differential", limits: SCXMLLimits(microsteps: microstepLimit)))
        func line(stopped: Bool = false) -> OracleLine {
            OracleLine(
                configuration: session.configuration.sorted(), done: session.status == .finished, stopped: stopped)
        }
        var lines: [OracleLine] = []
        do {
            try session.start()
            lines.append(line())
            for step in run {
                if session.status == .running && step.after > 0 {
                    try session.advance(by: .milliseconds(step.after))
                }
                if session.status == .running { try session.send(SCXMLEvent(step.name)) }
                lines.append(line())
            }
        } catch {
            guard case .microstepLimitExceeded = error else { throw error }
            lines.append(line(stopped: true))
        }
        return lines
    }

    /// The oracle's lines for the same run.
    func runOracle(_ file: URL, _ run: [(name: String, after: Int)]) throws -> (lines: [OracleLine], problem: String) {
        var parts = oracle.split(separator: " ").map(String.init)
        guard !parts.isEmpty else { throw CommandError("--oracle is empty") }
        let executable = parts.removeFirst()
        let child = ChildProcess(
            executable: URL(fileURLWithPath: executable),
            arguments: parts + [file.path] + run.map { $0.after > 0 ? "\($0.name)@\($0.after)" : $0.name })
        // An oracle that runs away (one without a microstep limit, say) is stopped: the chart is skipped.
        let result: ChildProcess.Result
        do {
            result = try child.run(timeout: .seconds(oracleTimeout))
        } catch {
            throw CommandError("cannot run the oracle \(executable): \(error.message)")
        }
        if result.killedBySignal {
            return ([], "stopped after \(oracleTimeout) s without finishing (it \(result.ending))")
        }
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            try? JSONDecoder().decode(OracleLine.self, from: Data(line.utf8))
        }
        return (lines, result.lastError)
    }
}

/// The verdicts of one batch, written by the threads that run it, each at its own position.
private final class VerdictBox: @unchecked Sendable {
    private let lock = NSLock()
    private var verdicts: [DifferentialCommand.Verdict?]

    init(count: Int) { verdicts = Array(repeating: nil, count: count) }

    func set(_ position: Int, _ verdict: DifferentialCommand.Verdict) {
        lock.withLock { verdicts[position] = verdict }
    }

    var all: [DifferentialCommand.Verdict] {
        lock.withLock { verdicts.map { $0 ?? .skipped("not run") } }
    }
}
#endif
