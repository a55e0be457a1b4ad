#if Tools
import StatechartsTesting
import Testing

@testable import StatechartTool

/// How `statechart differential` tells a divergence from a known departure of the oracle.
@Suite struct DifferentialCommandTests {
    typealias Line = DifferentialCommand.OracleLine
    let parents = ["p": "top", "a": "p", "a1": "a"]

    @Test("a configuration where a state is active without its parent is the oracle's known departure")
    func illegalOracleConfiguration() {
        let here = Line(configuration: ["a", "a1", "p", "top"], done: false)
        let there = Line(configuration: ["a", "a1", "top"], done: false)
        let reason = DifferentialCommand.knownDeparture(here: here, oracle: there, parents: parents)
        #expect(reason?.detail == "a is active, its parent p is not")
        #expect(reason?.kind.hasPrefix("the oracle's configuration is not legal") == true)
    }

    @Test("two legal configurations that differ are a divergence, and so is an illegal one of ours")
    func divergences() {
        let legal = Line(configuration: ["a", "a1", "p", "top"], done: false)
        let other = Line(configuration: ["p", "top"], done: false)
        #expect(DifferentialCommand.knownDeparture(here: legal, oracle: other, parents: parents) == nil)
        let illegal = Line(configuration: ["a", "a1", "top"], done: false)
        #expect(DifferentialCommand.knownDeparture(here: illegal, oracle: illegal, parents: parents) == nil)
        #expect(DifferentialCommand.knownDeparture(here: illegal, oracle: other, parents: parents) == nil)
    }

    @Test("the oracle finishing where the configuration is the same is its known departure")
    func finishedEarly() {
        let here = Line(configuration: ["p", "top"], done: false)
        let there = Line(configuration: ["p", "top"], done: true)
        #expect(DifferentialCommand.knownDeparture(here: here, oracle: there, parents: parents) != nil)
    }

    @Test("each state of a random chart has its parent, and top states have none")
    func parentsOfRandomChart() {
        var random = SplitMix64(seed: 20527)
        let chart = RandomChart(tape: random.tape(count: 300), timers: true, conditions: true)
        let parents = DifferentialCommand.parents(of: chart.states)
        #expect(parents["s1"] == "s0")
        #expect(parents["s2"] == "s1")
        #expect(parents["s0"] == nil)
        #expect(Set(parents.keys).union(chart.states.map(\.id)) == Set(chart.stateIDs))
    }
}
#endif
