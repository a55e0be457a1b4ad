import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// The snapshot property on the external suites: interrupting a machine after every step (archive,
/// JSON, restore) changes nothing in any test's trace.
@Suite(.enabled(if: SharedMaterial.isPresent, SharedMaterial.absent), .ownThread)
struct ArchiveConformanceTests {
    @Test("archiving and restoring after every step gives the same trace", arguments: ["scion", "w3c"])
    func sameTrace(suite: String) async throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.conformance.appendingPathComponent(suite).path)
        let plain = await ConformanceRunner().run(tests)
        var interrupting = ConformanceRunner()
        interrupting.archivesEveryStep = true
        let interrupted = await interrupting.run(tests)
        var compared = 0
        var steps = 0
        for (original, restored) in zip(plain, interrupted)
        where original.outcome == .passed || original.outcome == .failed {
            #expect(
                restored.outcome == original.outcome, "\(restored.line); without interruptions: \(original.line)")
            #expect(restored.trace == original.trace, "\(original.name)")
            compared += 1
            steps += original.trace.count
        }
        #expect(compared >= (suite == "scion" ? 66 : 28))
        #expect(steps > compared, "the traces record every step")
        print("\(suite): \(compared) charts, \(steps) steps, each followed by an archive and a restore")
    }
}
