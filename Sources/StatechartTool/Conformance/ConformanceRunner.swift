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
    /// Where the charts' `<log>` elements write; `nil` to discard them.
    public var log: (@Sendable (SCXMLLogRecord) -> Void)?

    /// A runner with the given data models.
    public init(
        dataModels: [any SCXMLDataModel.Type] = ToolDataModels.all, timeLimit: Duration = .seconds(3600)
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
        var notes: [String] = []
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
                let problem = error.errors.first?.description ?? "\(error)"
                if test.w3c?.manual == true, error.errors.allSatisfy(Self.isUnreadableSource) {
                    // A person judges a manual test. SCXML asks for a document whose script
                    // cannot be fetched to be rejected (W3C 301); any other rejection fails.
                    return result(
                        .passed,
                        "the document was rejected (\(problem)); a person must check that the test asks for this")
                }
                return result(.failed, "the chart cannot be read: \(problem)")
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
            if let detail = outcome.detail { notes.append(detail) }
        }
        return result(.passed, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// Whether a diagnostic says a `src` file could not be read (see `SCXMLDocument.resolvingSources()`).
    static func isUnreadableSource(_ diagnostic: SCXMLDiagnostic) -> Bool {
        diagnostic.kind == .document
            && (diagnostic.message.contains("cannot be read") || diagnostic.message.contains("is not read:"))
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

        struct Expectations: Decodable {
            var initialConfiguration: [String]
            var events: [Step]
        }

        var initialConfiguration: [String]
        var events: [Step]
        var legacySemantics: Expectations?
    }

    /// SCION tests whose expected configurations are known to be wrong, with why. Each is checked
    /// against the expectations the reason names, and its result says so.
    static let scionErrata: [String: String] = [
        "more-parallel/test10.scxml": Self.swappedExpectations,
        "more-parallel/test10b.scxml": Self.swappedExpectations,
    ]

    static let swappedExpectations = """
        erratum: the suite's expected configurations are swapped with its legacySemantics ones (the chart's \
        comments, the W3C algorithm and both reference interpreters in ../shared/oracle agree), so the test is \
        checked against legacySemantics
        """

    static func erratum(for file: URL) -> String? {
        scionErrata.first { file.path.hasSuffix("/" + $0.key) }?.value
    }

    func runSCION(
        _ chart: SCXMLChart, file: URL, trace: inout [String]
    ) -> (outcome: ConformanceResult.Outcome, detail: String?) {
        let scriptFile = file.deletingPathExtension().appendingPathExtension("json")
        var script: SCIONScript
        do {
            script = try JSONDecoder().decode(SCIONScript.self, from: Data(contentsOf: scriptFile))
        } catch {
            return (.failed, "the script \(scriptFile.lastPathComponent) cannot be read: \(error)")
        }
        let erratum = Self.erratum(for: file)
        if erratum != nil, let legacy = script.legacySemantics {
            script.initialConfiguration = legacy.initialConfiguration
            script.events = legacy.events
        }
        var interpreter = SCXMLInterpreter(chart: chart, sessionID: "scion", log: log, dataModels: dataModels)
        do {
            try interpreter.start()
            try interrupt(&interpreter, of: chart, trace: &trace)
        } catch {
            return (.failed, "at start: \(error)")
        }
        if let mismatch = Self.compare(interpreter.machine.activeStates, script.initialConfiguration) {
            return (.failed, "at start: \(mismatch)")
        }
        for (index, step) in script.events.enumerated() {
            do {
                if let after = step.after { try interpreter.advance(by: .milliseconds(after)) }
                if interpreter.machine.status == .running {
                    try interpreter.send(SCXMLEvent(step.event.name, data: step.event.data))
                }
                try interrupt(&interpreter, of: chart, trace: &trace)
            } catch {
                return (.failed, "step \(index + 1) (event '\(step.event.name)'): \(error)")
            }
            if let mismatch = Self.compare(interpreter.machine.activeStates, step.nextConfiguration) {
                return (.failed, "step \(index + 1) (event '\(step.event.name)'): \(mismatch)")
            }
        }
        return (.passed, erratum)
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
        var interpreter = SCXMLInterpreter(chart: chart, sessionID: "w3c", log: log, dataModels: dataModels)
        do {
            try interpreter.start()
            try interrupt(&interpreter, of: chart, trace: &trace)
            while interpreter.machine.status == .running, let deadline = interpreter.nextDeadline,
                deadline <= timeLimit
            {
                try interpreter.advance(to: deadline)
                try interrupt(&interpreter, of: chart, trace: &trace)
            }
        } catch {
            return (.failed, "\(error)")
        }
        let machine = interpreter.machine
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

    /// Records the step in the trace and, when ``archivesEveryStep`` is set, replaces the top
    /// machine by one restored from its archive, through JSON. While invoked sessions run, the
    /// machine is not interrupted: an archive holds one session.
    func interrupt(_ interpreter: inout SCXMLInterpreter, of chart: SCXMLChart, trace: inout [String]) throws {
        let machine = interpreter.machine
        trace.append("\(machine.now) \(machine.status.rawValue) [\(machine.configuration.joined(separator: " "))]")
        guard archivesEveryStep else { return }
        _ = try interpreter.replaceMachine { machine in
            let data = try JSONEncoder().encode(machine.archive())
            let archive = try chart.archiveDecoder().decode(
                MachineArchive<String, SCXMLEvent, SCXMLSession>.self, from: data)
            return try chart.restoreMachine(from: archive, log: log)
        }
    }
}
