import Foundation
import Statecharts
import StatechartsSCXML

/// Runs conformance tests, each in an `SCXMLSession` on a virtual clock.
///
/// A mandatory test always runs: only an optional or manual test is skipped, and only for a
/// feature this build does not have (the XPath data model, an event I/O processor the runner was
/// not given). A test the suite lists but whose files this copy lacks is reported as absent.
public struct ConformanceRunner: Sendable {
    /// The data models charts may use.
    public var dataModels: [any SCXMLDataModel.Type]
    /// How much virtual time a W3C test may take before it counts as stuck.
    public var timeLimit: Duration
    /// Whether to interrupt the session after every step: archive it, encode the archive as JSON,
    /// decode it and go on with a session restored from it, children and all. A test must give
    /// the same trace either way.
    public var archivesEveryStep = false
    /// Where the charts' `<log>` elements write; `nil` to discard them.
    public var log: (@Sendable (SCXMLLogRecord) -> Void)?
    /// The event I/O processors the sessions get besides SCXML's: the Basic HTTP one for the W3C
    /// suite's optional tests. None by default.
    public var eventProcessors: [any SCXMLEventProcessor] = []
    /// How long, in real time, to wait after each step for events on their way through the
    /// processors, before the virtual clock moves on.
    public var eventWaitLimit: Duration = .seconds(5)
    /// Whether each result records what its runs exercised of each chart (``ConformanceResult/coverage``).
    public var recordsCoverage = false

    /// A runner with the given data models.
    public init(
        dataModels: [any SCXMLDataModel.Type] = BuiltDataModels.all, timeLimit: Duration = .seconds(3600)
    ) {
        self.dataModels = dataModels
        self.timeLimit = timeLimit
    }

    /// Runs every test, in order, letting other tasks run between two tests: a suite's run takes
    /// seconds of one thread of the cooperative pool, which has one per core.
    public func run(_ tests: [ConformanceTest]) async -> [ConformanceResult] {
        var results: [ConformanceResult] = []
        for test in tests {
            results.append(await run(test))
            await Task.yield()
        }
        return results
    }

    /// Runs one test.
    public func run(_ test: ConformanceTest) async -> ConformanceResult {
        let conformance = test.w3c.map { "\($0.conformance), category \($0.category)" }
        let mandatory = test.w3c?.conformance == "mandatory"
        var trace: [String] = []
        var coverage: [String: CoverageRecord] = [:]
        func result(_ outcome: ConformanceResult.Outcome, _ detail: String?) -> ConformanceResult {
            var result = ConformanceResult(name: test.name, outcome: outcome, detail: detail, conformance: conformance)
            result.trace = trace
            if recordsCoverage { result.coverage = coverage }
            return result
        }
        if test.charts.isEmpty {
            if test.w3c?.category == "n/a-xpath" {
                return result(
                    .skipped, "the test needs the obsolete XPath data model, which this library does not have")
            }
            return result(.absent, "this copy of the suite has no file for it (manifest.xml lists it)")
        }
        var notes: [String] = []
        for chartFile in test.charts {
            let chart: SCXMLChart
            switch load(chartFile) {
            case .failure(let error):
                let problem = error.errors.first?.description ?? "\(error)"
                if error.isUnsupportedOnly && !mandatory {
                    let reason =
                        error.errors.first.map { "\($0.message) at \(Self.shortLocation($0.location))" }
                        ?? "unsupported"
                    return result(.skipped, reason)
                }
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
            if !mandatory, let missing = missingFeature(of: chart) {
                return result(.skipped, "\(missing.message) at \(Self.shortLocation(missing.location))")
            }
            var record = CoverageRecord()
            let outcome =
                test.kind == .scion
                ? await runSCION(chart, file: chartFile, trace: &trace, coverage: &record)
                : await runW3C(chart, manual: test.w3c?.manual ?? false, trace: &trace, coverage: &record)
            coverage[chartFile.path, default: CoverageRecord()].merge(record)
            if outcome.outcome != .passed { return result(outcome.outcome, outcome.detail) }
            if let detail = outcome.detail { notes.append(detail) }
        }
        return result(.passed, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// The coverage of each chart `results` ran, their records merged, in the order of the charts'
    /// paths: for results of a run with ``recordsCoverage`` set.
    public func coverage(of results: [ConformanceResult], relativeTo folder: URL? = nil) -> [ChartCoverage] {
        var records: [String: CoverageRecord] = [:]
        for result in results {
            for (path, record) in result.coverage ?? [:] { records[path, default: CoverageRecord()].merge(record) }
        }
        return records.keys.sorted().compactMap { path in
            guard case .success(let chart) = load(URL(fileURLWithPath: path)), let record = records[path] else {
                return nil
            }
            var name = path
            if let folder, path.hasPrefix(folder.standardizedFileURL.path + "/") {
                name = String(path.dropFirst(folder.standardizedFileURL.path.count + 1))
            }
            return ChartCoverage(chart, named: name, record: record)
        }
    }

    /// What the chart uses that this runner's sessions cannot do, if anything.
    func missingFeature(of chart: SCXMLChart) -> SCXMLDiagnostic? {
        if let warning = chart.warnings.first(where: { $0.kind == .unsupported }) { return warning }
        var session = SCXMLSession(chart: chart, options: options(sessionID: "check"))
        defer { session.close() }
        return session.problems.first { $0.kind == .unsupported }
    }

    /// Whether a diagnostic says a `src` file could not be read (see `SCXMLDocument.resolvingSources()`).
    static func isUnreadableSource(_ diagnostic: SCXMLDiagnostic) -> Bool {
        diagnostic.kind == .document
            && (diagnostic.message.contains("cannot be read") || diagnostic.message.contains("is not read:"))
    }

    /// `file.scxml:line:column`, without the folder.
    public static func shortLocation(_ location: SourcePosition) -> String {
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

    func options(sessionID: String) -> SCXMLSession.Options {
        var options = SCXMLSession.Options(
            sessionID: sessionID, dataModels: dataModels, eventProcessors: eventProcessors, log: log)
        options.recordsMicrosteps = recordsCoverage
        return options
    }

    // MARK: - SCION

    /// A wait a SCION script gives, in milliseconds, as a duration: a negative or not-a-number
    /// wait is none, and one beyond a thousand years is a thousand years (a `Double` such as
    /// `1e300` has no `Duration`).
    static func clampedMilliseconds(_ milliseconds: Double) -> Duration {
        guard milliseconds.isFinite || milliseconds == .infinity, milliseconds > 0 else { return .zero }
        let thousandYears = 1000.0 * 365.25 * 24 * 3600 * 1000
        return .milliseconds(min(milliseconds, thousandYears))
    }

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
        _ chart: SCXMLChart, file: URL, trace: inout [String], coverage: inout CoverageRecord
    ) async -> (outcome: ConformanceResult.Outcome, detail: String?) {
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
        var session = SCXMLSession(chart: chart, options: options(sessionID: "scion"))
        defer { session.close() }
        do {
            coverage.record(try session.start())
            coverage.record(try await session.settle(upTo: eventWaitLimit))
            try interrupt(&session, of: chart, trace: &trace)
        } catch {
            return (.failed, "at start: \(error)")
        }
        if let mismatch = Self.compare(session.activeStates, script.initialConfiguration) {
            return (.failed, "at start: \(mismatch)")
        }
        for (index, step) in script.events.enumerated() {
            do {
                if let after = step.after { coverage.record(try session.advance(by: Self.clampedMilliseconds(after))) }
                if session.status == .running {
                    coverage.record(try session.send(SCXMLEvent(step.event.name, data: step.event.data)))
                }
                coverage.record(try await session.settle(upTo: eventWaitLimit))
                try interrupt(&session, of: chart, trace: &trace)
            } catch {
                return (.failed, "step \(index + 1) (event '\(step.event.name)'): \(error)")
            }
            if let mismatch = Self.compare(session.activeStates, step.nextConfiguration) {
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
        _ chart: SCXMLChart, manual: Bool, trace: inout [String], coverage: inout CoverageRecord
    ) async -> (outcome: ConformanceResult.Outcome, detail: String?) {
        var session = SCXMLSession(chart: chart, options: options(sessionID: "w3c"))
        defer { session.close() }
        do {
            coverage.record(try session.start())
            coverage.record(try await session.settle(upTo: eventWaitLimit))
            try interrupt(&session, of: chart, trace: &trace)
            while session.status == .running, let deadline = session.nextDeadline, deadline <= timeLimit {
                coverage.record(try session.advance(to: deadline))
                coverage.record(try await session.settle(upTo: eventWaitLimit))
                try interrupt(&session, of: chart, trace: &trace)
            }
        } catch {
            return (.failed, "\(error)")
        }
        let states = session.activeStates
        if session.status == .finished {
            if states == ["pass"] { return (.passed, nil) }
            if manual && states != ["fail"] { return (.passed, nil) }
            return (.failed, "finished in [\(states.joined(separator: ", "))]")
        }
        let waiting = session.nextDeadline.map { " (next timer at \($0))" } ?? ""
        return (.failed, "stopped in [\(states.joined(separator: ", "))] without reaching pass\(waiting)")
    }

    // MARK: - Interruptions

    /// Records the step in the trace and, when ``archivesEveryStep`` is set, replaces the session
    /// by one restored from its archive, through JSON: the top session, its children, and the
    /// events between them.
    func interrupt(_ session: inout SCXMLSession, of chart: SCXMLChart, trace: inout [String]) throws {
        let children = session.childSessionIDs.map { id in
            "\(id)[\((session.activeStates(ofSession: id) ?? []).joined(separator: " "))]"
        }
        let invoked = children.isEmpty ? "" : " children \(children.joined(separator: " "))"
        trace.append(
            "\(session.now) \(session.status.rawValue) [\(session.configuration.joined(separator: " "))]\(invoked)")
        guard archivesEveryStep, session.status == .running else { return }
        let data = try JSONEncoder().encode(session.archive())
        let archive = try chart.archiveDecoder(dataModels: dataModels).decode(SCXMLSessionArchive.self, from: data)
        session.close()
        session = try SCXMLSession(chart: chart, restoring: archive, options: options(sessionID: archive.sessionID))
    }
}
