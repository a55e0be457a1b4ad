import Foundation
import PropertyBased
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// Invariants of the semantics on generated charts, checked after every step, with failing inputs
/// shrunk to small counterexamples: the configuration is legal, a run is deterministic, an
/// interruption by archive and restore changes nothing, and the SCXML writer and reader round-trip.
@Suite(.ownThread) struct PropertyTests {
    /// A chart's choices, then a run's.
    static let chartTape = Gen.int(in: 0...999).array(of: 0...240)
    static let runTape = Gen.int(in: 0...999).array(of: 2...40)

    /// How the generated documents run: a session with a small microstep limit.
    static let options = SCXMLSession.Options(sessionID: "property", limits: SCXMLLimits(microsteps: 2_000))

    /// One step's record: the configuration, the status and the pending timers.
    static func record(_ session: SCXMLSession) -> String {
        "\(session.status.rawValue) [\(session.configuration.joined(separator: " "))] timers \(session.machine.pendingTimerCount)"
    }

    /// Why `machine`'s configuration is not legal, or `nil`.
    static func illegality<Event, Context>(_ machine: StateMachine<String, Event, Context>) -> String? {
        let chart = machine.statechart
        let active = Set(machine.configuration)
        func activeChildren(_ state: String?) -> [String] {
            chart.children(of: state).filter { chart.kind(of: $0) != .history && active.contains($0) }
        }
        guard machine.status != .notStarted else { return active.isEmpty ? nil : "active before the start" }
        if activeChildren(nil).count != 1 { return "\(activeChildren(nil).count) active top-level states" }
        for state in active {
            if chart.kind(of: state) == .history { return "the history state \(state) is active" }
            if let parent = chart.parent(of: state), !active.contains(parent) { return "\(state) without \(parent)" }
            let children = chart.children(of: state).filter { chart.kind(of: $0) != .history }
            if children.isEmpty { continue }
            let on = activeChildren(state).count
            if chart.kind(of: state) == .parallel ? on != children.count : on != 1 {
                return "\(state) has \(on) active children"
            }
        }
        return nil
    }

    /// Runs `chart` on the events of `runTape`, calling `after` on the machine after every step;
    /// `nil` when the chart loops (the microstep limit stops it).
    static func run(
        _ chart: SCXMLChart, _ runTape: [Int], after: (inout SCXMLSession) throws -> Void = { _ in }
    ) throws -> [String]? {
        var machine = SCXMLSession(chart: chart, options: options)
        var trace: [String] = []
        do {
            try machine.start()
            try after(&machine)
            trace.append(record(machine))
            for step in RandomChart.events(tape: runTape, count: runTape.count / 2) {
                if step.after > 0 { try machine.advance(by: .milliseconds(step.after)) }
                if machine.status == .running { try machine.send(SCXMLEvent(step.name)) }
                try after(&machine)
                trace.append(record(machine))
            }
        } catch let error as MachineError<String, SCXMLEvent> {
            if case .microstepLimitExceeded = error { return nil }
            throw error
        }
        return trace
    }

    /// The chart of a tape, or `nil` when the tape decides a chart SCXML does not allow.
    static func chart(_ tape: [Int]) -> SCXMLChart? {
        try? SCXMLChart.load(RandomChart(tape: tape).scxml, file: "generated.scxml")
    }

    @Test("after every step the configuration is legal")
    func legalConfigurations() async throws {
        await propertyCheck(count: 150, input: Self.chartTape, Self.runTape) { chartTape, runTape in
            guard let chart = Self.chart(chartTape) else { return }
            _ = try Self.run(chart, runTape) { machine in
                let problem = Self.illegality(machine.machine)
                #expect(problem == nil, "\(RandomChart(tape: chartTape).scxml)")
            }
        }
    }

    @Test("a run is deterministic")
    func determinism() async throws {
        await propertyCheck(count: 100, input: Self.chartTape, Self.runTape) { chartTape, runTape in
            guard let chart = Self.chart(chartTape) else { return }
            let first = try Self.run(chart, runTape)
            let second = try Self.run(chart, runTape)
            #expect(first == second)
        }
    }

    @Test("archiving and restoring after every step changes nothing")
    func archiveRoundTrip() async throws {
        await propertyCheck(count: 100, input: Self.chartTape, Self.runTape) { chartTape, runTape in
            guard let chart = Self.chart(chartTape) else { return }
            let plain = try Self.run(chart, runTape)
            let interrupted = try Self.run(chart, runTape) { machine in
                let data = try JSONEncoder().encode(machine.archive())
                let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
                machine = try SCXMLSession(chart: chart, restoring: archive, options: Self.options)
            }
            #expect(plain == interrupted)
        }
    }

    @Test("a chart written as SCXML and read back runs the same, and writes the same text")
    func writerReaderRoundTrip() async throws {
        await propertyCheck(count: 100, input: Self.chartTape, Self.runTape) { chartTape, runTape in
            guard let chart = Self.chart(chartTape) else { return }
            let written = SCXMLWriter.write(chart.document)
            let reread = try SCXMLChart.load(written, file: "written.scxml")
            #expect(SCXMLWriter.write(reread.document) == written)
            #expect(try Self.run(chart, runTape) == Self.run(reread, runTape))
        }
    }

    @Test("most generated charts are valid and run, so the properties are not vacuous")
    func generatorYield() throws {
        var random = SplitMix64(seed: 7)
        var valid = 0
        var ran = 0
        var withParallel = 0
        var withHistory = 0
        var builtInSwift = 0
        for _ in 0..<200 {
            let tape = random.tape(count: 240)
            if Self.counterChart(tape) != nil { builtInSwift += 1 }
            let text = RandomChart(tape: tape).scxml
            guard let chart = Self.chart(tape) else { continue }
            valid += 1
            if text.contains("<parallel") { withParallel += 1 }
            if text.contains("<history") { withHistory += 1 }
            if try Self.run(chart, random.tape(count: 24)) != nil { ran += 1 }
        }
        #expect(valid >= 180, "valid \(valid) of 200")
        #expect(builtInSwift >= 180, "built in Swift \(builtInSwift) of 200")
        #expect(ran >= 120, "ran \(ran) of 200")
        #expect(withParallel >= 50 && withHistory >= 50, "parallel \(withParallel), history \(withHistory)")
    }

    // MARK: - Charts in Swift, with guards over a counter

    struct Counter: Sendable, Codable, Equatable {
        var value = 0
    }

    typealias CounterChart = Statechart<String, SCXMLEvent, Counter>
    typealias CounterMachine = StateMachine<String, SCXMLEvent, Counter>

    /// The generated chart built in Swift: a guard holds while the counter is not a multiple of 3,
    /// and every transition's action counts.
    static func counterChart(_ tape: [Int]) -> CounterChart? {
        let guardOnCounter: StatechartGuard<String, SCXMLEvent, Counter> = { $0.context.value % 3 != 0 }
        let elements = RandomChart(tape: tape).elements(
            event: { SCXMLEvent($0) }, guard: guardOnCounter, action: { $0.context.value += 1 })
        return try? CounterChart(name: "generated", elements: elements, microstepLimit: 2_000)
    }

    static func run(
        _ chart: CounterChart, _ runTape: [Int], after: (inout CounterMachine) throws -> Void = { _ in }
    ) throws -> [String]? {
        var machine = chart.makeMachine(context: Counter())
        var trace: [String] = []
        func record() { trace.append("[\(machine.configuration.joined(separator: " "))] \(machine.context.value)") }
        do {
            try machine.start()
            try after(&machine)
            record()
            for step in RandomChart.events(tape: runTape, count: runTape.count / 2) {
                if step.after > 0 { try machine.advance(by: .milliseconds(step.after)) }
                if machine.status == .running { try machine.send(SCXMLEvent(step.name)) }
                try after(&machine)
                record()
            }
        } catch let error as MachineError<String, SCXMLEvent> {
            if case .microstepLimitExceeded = error { return nil }
            throw error
        }
        return trace
    }

    @Test("charts built in Swift with guards over a counter: legal, deterministic, and unchanged by archives")
    func counterCharts() async throws {
        await propertyCheck(count: 150, input: Self.chartTape, Self.runTape) { chartTape, runTape in
            guard let chart = Self.counterChart(chartTape) else { return }
            let plain = try Self.run(chart, runTape) { machine in
                #expect(Self.illegality(machine) == nil)
            }
            #expect(try Self.run(chart, runTape) == plain)
            let interrupted = try Self.run(chart, runTape) { machine in
                let data = try JSONEncoder().encode(machine.archive())
                let archive = try JSONDecoder().decode(MachineArchive<String, SCXMLEvent, Counter>.self, from: data)
                machine = try CounterMachine(chart: chart, restoring: archive)
            }
            #expect(interrupted == plain)
        }
    }
}
