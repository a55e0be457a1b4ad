import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// `statechart differential`: runs random charts here and in a reference interpreter, and compares
/// the configurations after every event.
public struct DifferentialCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "differential",
        abstract: "Compare random charts run here and in a reference SCXML interpreter.",
        discussion: """
            Generates COUNT random charts without a data model (nested, parallel and final states, \
            history, eventless, internal and guarded transitions, raised and delayed events) from SEED, \
            runs each with random events here and with ORACLE (a command that takes a chart and events \
            and prints one JSON line per step, as ../shared/oracle/psm_trace.py does), and compares the \
            active states after every event. Scripts/differential.sh sets the oracle up.
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

    /// Whether to say why each skipped chart was skipped.
    @Flag(help: "Say why each skipped chart was skipped.")
    public var showSkips = false

    /// A command ready to parse.
    public init() {}

    struct OracleLine: Decodable {
        var configuration: [String]
        var done: Bool
    }

    /// Runs the charts and fails if any diverges.
    public func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-differential-\(seed)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var compared = 0
        var skipped = 0
        var steps = 0
        var divergent: [String] = []
        var departures = 0
        for index in 0..<UInt64(count) {
            let chartSeed = seed &+ index
            var random = SplitMix64(seed: chartSeed)
            let chart = RandomChart(tape: random.tape(count: 300), timers: !noTimers, conditions: !noGuards)
            let run = RandomChart.events(tape: random.tape(count: 2 * events), count: events, waits: !noTimers)
            let text = chart.scxml
            let ours: [OracleLine]
            do {
                ours = try Self.runHere(text, run)
            } catch {
                skipped += 1
                if showSkips { print("SKIP seed \(chartSeed): not run here: \(error)") }
                continue
            }
            let file = work.appendingPathComponent("chart\(chartSeed).scxml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let (theirs, problem) = try runOracle(file, run)
            guard theirs.count == ours.count else {
                // The oracle could not run the chart (it reported an error): nothing to compare.
                skipped += 1
                if showSkips { print("SKIP seed \(chartSeed): the oracle stopped: \(problem)") }
                continue
            }
            compared += 1
            steps += ours.count
            if let step = ours.indices.first(where: { !Self.agree(ours[$0], theirs[$0]) }),
                Self.knownDeparture(here: ours[step], oracle: theirs[step]) != nil
            {
                departures += 1
                if showSkips {
                    print(
                        "DEPARTURE seed \(chartSeed) at step \(step): \(Self.knownDeparture(here: ours[step], oracle: theirs[step]) ?? "")"
                    )
                }
            } else if let step = ours.indices.first(where: { !Self.agree(ours[$0], theirs[$0]) }) {
                let eventList = run.map { $0.after > 0 ? "\($0.name)@\($0.after)" : $0.name }
                divergent.append("seed \(chartSeed)")
                print("DIVERGE seed \(chartSeed) at step \(step): events \(eventList.joined(separator: " "))")
                for (position, (here, there)) in zip(ours, theirs).enumerated() {
                    let mark = Self.agree(here, there) ? " " : "≠"
                    print(
                        "  \(mark) \(position): here [\(here.configuration.joined(separator: " "))]\(here.done ? " done" : "") oracle [\(there.configuration.joined(separator: " "))]\(there.done ? " done" : "")"
                    )
                }
                if let keep {
                    let folder = URL(fileURLWithPath: keep)
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try text.write(
                        to: folder.appendingPathComponent("chart\(chartSeed).scxml"), atomically: true, encoding: .utf8)
                    try (eventList.joined(separator: "\n") + "\n").write(
                        to: folder.appendingPathComponent("chart\(chartSeed).events"), atomically: true, encoding: .utf8
                    )
                }
            }
        }
        print(
            "\(compared) charts compared (\(steps) steps), \(skipped) skipped (invalid or rejected by the oracle), \(departures) stopped at a known departure of the oracle, \(divergent.count) diverged"
        )
        if !divergent.isEmpty { throw ExitCode.failure }
    }

    /// Why a disagreement is the oracle's known departure from the W3C algorithm, if it is one.
    static func knownDeparture(here: OracleLine, oracle there: OracleLine) -> String? {
        // python-statemachine ends the run when a top-level parallel state completes; SCXML ends it
        // only on entering a <final> child of <scxml> (3.7, and exitInterpreter in Appendix D).
        if there.done && !here.done && here.configuration == there.configuration {
            return "the oracle finished without entering a top-level final state"
        }
        return nil
    }

    static func agree(_ here: OracleLine, _ there: OracleLine) -> Bool {
        if here.done && there.done { return true }
        return here.done == there.done && here.configuration == there.configuration
    }

    /// The configuration after the start and after each event, here.
    static func runHere(_ text: String, _ run: [(name: String, after: Int)]) throws -> [OracleLine] {
        let chart = try SCXMLChart.load(text, file: "random.scxml")
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "differential"))
        try session.start()
        func line() -> OracleLine {
            OracleLine(configuration: session.configuration.sorted(), done: session.status == .finished)
        }
        var lines = [line()]
        for step in run {
            if session.status == .running && step.after > 0 { try session.advance(by: .milliseconds(step.after)) }
            if session.status == .running { try session.send(SCXMLEvent(step.name)) }
            lines.append(line())
        }
        return lines
    }

    /// The oracle's lines for the same run.
    func runOracle(_ file: URL, _ run: [(name: String, after: Int)]) throws -> (lines: [OracleLine], problem: String) {
        var parts = oracle.split(separator: " ").map(String.init)
        guard !parts.isEmpty else { throw CommandError("--oracle is empty") }
        let executable = parts.removeFirst()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = parts + [file.path] + run.map { $0.after > 0 ? "\($0.name)@\($0.after)" : $0.name }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw CommandError("cannot run the oracle \(executable): \(error.localizedDescription)")
        }
        // An oracle that loops (on an eventless cycle, say) is stopped: the chart is skipped.
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { process.terminate() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(oracleTimeout), execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal {
            return ([], "stopped after \(oracleTimeout) s without finishing")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            try? JSONDecoder().decode(OracleLine.self, from: Data(line.utf8))
        }
        let lastProblem = String(decoding: problem, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return (lines, lastProblem)
    }
}
