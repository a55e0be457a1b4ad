import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// The transition cover of `SCXMLChart.searchPaths(covering:events:limits:maximumDepth:maximumStates:)`
/// on the SCION suite: what the suite's own tests show reachable, the cover reaches.
@Suite(.enabled(if: SharedMaterial.isPresent, SharedMaterial.absent), .timeLimit(.minutes(5)), .ownThread)
struct PathCoverTests {
    #if ECMAScript
    @Test(
        "on every SCION chart whose guards the search resolves, the cover takes each transition the chart's own test takes"
    )
    func coverTakesWhatTheSuiteTakes() async throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.scion.path)
        var runner = ConformanceRunner()
        runner.recordsCoverage = true
        let results = await runner.run(tests)
        var resolved = 0
        for (test, result) in zip(tests, results) {
            guard let file = test.charts.first else { continue }
            let record = result.coverage?.first {
                URL(fileURLWithPath: $0.key).lastPathComponent == file.lastPathComponent
            }
            let taken = try #require(record?.value.takenTransitions, "\(test.name) recorded its coverage")
            let chart = try SCXMLChart.load(contentsOf: file, dataModels: BuiltDataModels.all)
            let search = try chart.searchPaths(covering: .transitions)
            // Each transition is either on a path or reported with why.
            let all = Set(chart.statechart.allTransitions.map(\.id))
            let onPaths = Set(search.paths.flatMap { $0.transitions.map(\.id) }).intersection(all)
            let reported = Set(search.unreached.map(\.id))
            #expect(
                onPaths.union(reported) == all,
                "\(test.name): every transition is taken or reported")
            #expect(onPaths.isDisjoint(with: reported), "\(test.name)")
            guard !search.isTruncated, !search.unreached.contains(where: { $0.reason == .unresolvedGuard }) else {
                continue
            }
            resolved += 1
            // (The start's own transition, into the initial state, is not one of the chart's.)
            let missed = taken.intersection(all).subtracting(onPaths)
            #expect(missed.isEmpty, "\(test.name): the suite takes transitions \(missed.sorted()) that no path takes")
        }
        // 91 of the 95: the others have a guard no path made hold (one that reads event data
        // the search does not send, for instance).
        #expect(resolved >= 91, "\(resolved) of \(tests.count) charts resolved")
    }
    #endif
}
