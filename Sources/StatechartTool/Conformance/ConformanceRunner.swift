import Foundation
import Statecharts
import StatechartsSCXML

/// Runs conformance tests on a virtual clock.
public struct ConformanceRunner: Sendable {
    /// The data models charts may use.
    public var dataModels: [any SCXMLDataModel.Type]
    /// How much virtual time a W3C test may take before it counts as stuck.
    public var timeLimit: Duration
    /// Whether to interrupt the machine after every step: archive it, encode the archive as JSON,
    /// decode it and go on with a machine restored from it. A test must give the same trace
    /// either way.
    public var archivesEveryStep = false

    /// A runner with the given data models.
    public init(
        dataModels: [any SCXMLDataModel.Type] = SCXMLDocument.builtInDataModels, timeLimit: Duration = .seconds(3600)
    ) {
        self.dataModels = dataModels
        self.timeLimit = timeLimit
    }

    /// Runs every test, in order.
    public func run(_ tests: [ConformanceTest]) -> [ConformanceResult] { tests.map(run) }

    /// Runs one test.
    public func run(_ test: ConformanceTest) -> ConformanceResult {
        let conformance = test.w3c.map { "\($0.conformance), category \($0.category)" }
        var trace: [String] = []
        func result(_ outcome: ConformanceResult.Outcome, _ detail: String?) -> ConformanceResult {
            var result = ConformanceResult(name: test.name, outcome: outcome, detail: detail, conformance: conformance)
            result.trace = trace
            return result
        }
        if test.charts.isEmpty {
            return result(.skipped, "no chart to run: the test needs \(test.w3c?.categoryDescription ?? "a chart")")
        }
        for chartFile in test.charts {
            let chart: SCXMLChart
            switch load(chartFile) {
            case .failure(let error):
                if error.isUnsupportedOnly {
                    let reason =
                        error.errors.first.map { "\($0.message) at \(Self.shortLocation($0.location))" }
                        ?? "unsupported"
                    return result(.skipped, reason)
                }
                return result(.failed, "the chart cannot be read: \(error.errors.first?.description ?? "\(error)")")
            case .success(let loaded):
                chart = loaded
            }
            if let missing = chart.warnings.first(where: { $0.kind == .unsupported }) {
                return result(.skipped, "\(missing.message) at \(Self.shortLocation(missing.location))")
            }
            let outcome =
                test.kind == .scion
                ? runSCION(chart, file: chartFile, trace: &trace)
                : runW3C(chart, manual: test.w3c?.manual ?? false, trace: &trace)
            if outcome.outcome != .passed { return result(outcome.outcome, outcome.detail) }
        }
        return result(.passed, nil)
    }

    static func shortLocation(_ location: SourcePosition) -> String {
        "\(URL(fileURLWithPath: location.file).lastPathComponent):\(location.line):\(location.column)"
    }

    func load(_ file: URL) -> Result<SCXMLChart, SCXMLError> {
        do {
            let document = try SCXMLReader.read(contentsOf: file).get()
            return .success(try document.makeChart(dataModels: dataModels))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - SCION

    struct SCIONScript: Decodable {
        struct Step: Decodable {
            struct Event: Decodable {
                var name: String
                var data: SCXMLValue?
            }

            var event: Event
            var after: Double?
            var nextConfiguration: [String]
        }

        var initialConfiguration: [String]
        var events: [Step]
    }

    func runSCION(
        _ chart: SCXMLChart, file: URL, trace: inout [String]
    ) -> (outcome: ConformanceResult.Outcome, detail: String?) {
        let scriptFile = file.deletingPathExtension().appendingPathExtension("json")
        let script: SCIONScript
        do {
            script = try JSONDecoder().decode(SCIONScript.self, from: Data(contentsOf: scriptFile))
        } catch {
            return (.failed, "the script \(scriptFile.lastPathComponent) cannot be read: \(error)")
        }
        var machine = chart.makeMachine(sessionID: "scion")
        do {
            try machine.start()
            try interrupt(&machine, of: chart, trace: &trace)
        } catch {
            return (.failed, "at start: \(error)")
        }
        if let mismatch = Self.compare(machine.activeStates, script.initialConfiguration) {
            return (.failed, "at start: \(mismatch)")
        }
        for (index, step) in script.events.enumerated() {
            do {
                if let after = step.after { try machine.advance(by: .milliseconds(after)) }
                if machine.status == .running {
                    try machine.send(SCXMLEvent(step.event.name, data: step.event.data))
                }
                try interrupt(&machine, of: chart, trace: &trace)
            } catch {
                return (.failed, "step \(index + 1) (event '\(step.event.name)'): \(error)")
            }
            if let mismatch = Self.compare(machine.activeStates, step.nextConfiguration) {
                return (.failed, "step \(index + 1) (event '\(step.event.name)'): \(mismatch)")
            }
        }
        return (.passed, nil)
    }

    /// A sentence when `actual` and `expected` differ as sets.
    static func compare(_ actual: [String], _ expected: [String]) -> String? {
        guard Set(actual) != Set(expected) else { return nil }
        return
            "expected [\(expected.sorted().joined(separator: ", "))], got [\(actual.sorted().joined(separator: ", "))]"
    }

    // MARK: - W3C

    func runW3C(
        _ chart: SCXMLChart, manual: Bool, trace: inout [String]
    ) -> (outcome: ConformanceResult.Outcome, detail: String?) {
        var machine = chart.makeMachine(sessionID: "w3c")
        do {
            try machine.start()
            try interrupt(&machine, of: chart, trace: &trace)
            while machine.status == .running, let deadline = machine.nextDeadline, deadline <= timeLimit {
                try machine.advance(to: deadline)
                try interrupt(&machine, of: chart, trace: &trace)
            }
        } catch {
            return (.failed, "\(error)")
        }
        let states = machine.activeStates
        if machine.status == .finished {
            if states == ["pass"] { return (.passed, nil) }
            if manual && states != ["fail"] { return (.passed, nil) }
            return (.failed, "finished in [\(states.joined(separator: ", "))]")
        }
        let waiting = machine.nextDeadline.map { " (next timer at \($0))" } ?? ""
        return (.failed, "stopped in [\(states.joined(separator: ", "))] without reaching pass\(waiting)")
    }

    // MARK: - Interruptions

    /// Records the step in the trace and, when ``archivesEveryStep`` is set, replaces the machine
    /// by one restored from its archive, through JSON.
    func interrupt(
        _ machine: inout StateMachine<String, SCXMLEvent, SCXMLSession>, of chart: SCXMLChart, trace: inout [String]
    ) throws {
        trace.append("\(machine.now) \(machine.status.rawValue) [\(machine.configuration.joined(separator: " "))]")
        guard archivesEveryStep else { return }
        let data = try JSONEncoder().encode(machine.archive())
        let archive = try chart.archiveDecoder().decode(
            MachineArchive<String, SCXMLEvent, SCXMLSession>.self, from: data)
        machine = try chart.restoreMachine(from: archive)
    }
}
