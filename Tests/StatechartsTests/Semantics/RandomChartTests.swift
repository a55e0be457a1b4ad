import StatechartsTesting
import Testing

@testable import Statecharts

/// Random charts, valid and invalid: building never traps, and running a valid one always leaves a
/// legal configuration and breaks none of the engine's checked invariants (asked explicitly here as
/// well, so that the test holds in a build without assertions).
@Suite(.ownThread) struct RandomChartTests {
    static let condition: StatechartGuard<String, NamedEvent, Log> = { $0.context.counter % 3 != 0 }
    static let action: StatechartAction<String, NamedEvent, Log> = { scope in
        scope.context.counter += 1
        if scope.context.counter % 7 == 0 { scope.raise("b") }
    }

    /// The chart of a seed, built in Swift from the shared generator (`RandomChart`, the one the
    /// SCXML property tests, the fuzzers and `statechart differential` use); with `faults`, damaged
    /// so that building it must report problems.
    static func chart(_ random: inout SplitMix64, seed: UInt64, faults: Bool) throws(ChartValidationError) -> TestChart
    {
        var generated = RandomChart(tape: random.tape(count: 240), maximumStates: 14)
        if faults { generated = generated.withFaults(tape: random.tape(count: 64)) }
        return try TestChart(
            name: "random\(seed)",
            elements: generated.elements(event: { NamedEvent($0) }, guard: condition, action: action),
            microstepLimit: 200)
    }

    /// Whether the machine's configuration is legal: the top has exactly one active state, every
    /// active compound state exactly one active child, every active parallel state all its
    /// children, and every active state's parent is active.
    func isLegal(_ machine: TestMachine, _ chart: TestChart) -> Bool {
        let active = Set(machine.configuration)
        func activeChildren(_ state: String?) -> [String] {
            chart.children(of: state).filter { chart.kind(of: $0) != .history && active.contains($0) }
        }
        if activeChildren(nil).count != 1 { return false }
        for state in active {
            if let parent = chart.parent(of: state), !active.contains(parent) { return false }
            let children = chart.children(of: state).filter { chart.kind(of: $0) != .history }
            if children.isEmpty { continue }
            let on = activeChildren(state).count
            if chart.kind(of: state) == .parallel ? on != children.count : on != 1 { return false }
        }
        return true
    }

    @Test(
        "random charts either build or report problems, and their machines keep legal configurations", arguments: 0..<4)
    func randomCharts(batch: Int) throws {
        var built = 0
        var rejected = 0
        for seed in UInt64(batch * 1000)..<UInt64(batch * 1000 + 1000) {
            var random = SplitMix64(seed: seed)
            let chart: TestChart
            do {
                chart = try Self.chart(&random, seed: seed, faults: seed % 2 == 1)
            } catch {
                #expect(!error.problems.isEmpty)
                rejected += 1
                continue
            }
            built += 1
            #expect(chart.storage.layout.tableProblem() == nil, "seed \(seed)")
            var machine = chart.makeMachine(context: Log())
            do { try machine.start() } catch { if case .microstepLimitExceeded = error {} else { throw error } }
            #expect(isLegal(machine, chart), "seed \(seed) after start: \(machine.configuration)")
            for step in RandomChart.events(tape: random.tape(count: 12), count: 12) where machine.status == .running {
                do {
                    if step.after > 0 { try machine.advance(by: .milliseconds(step.after)) }
                    if machine.status == .running { try machine.send(NamedEvent(step.name)) }
                } catch {
                    guard case .microstepLimitExceeded = error else { throw error }
                }
                #expect(isLegal(machine, chart), "seed \(seed): \(machine.configuration)")
                #expect(machine.invariantProblem() == nil, "seed \(seed): \(machine.invariantProblem() ?? "")")
            }
        }
        #expect(built > 500, "the generator should produce valid charts (built \(built))")
        #expect(rejected > 100, "the faults should be reported (rejected \(rejected))")
    }
}
