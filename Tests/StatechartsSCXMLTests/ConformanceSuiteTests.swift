import Foundation
import StatechartTool
import StatechartsSCXML
import Testing

/// The external suites, run as `statechart test` runs them.
@Suite(.enabled(if: SharedMaterial.isPresent, SharedMaterial.absent))
struct ConformanceSuiteTests {
    @Test("every SCION test that needs no data model passes; the others are skipped for their data model")
    func scion() throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.scion.path)
        let results = ConformanceRunner().run(tests)
        let summary = ConformanceSummary(results)
        for failure in results where failure.outcome == .failed { Issue.record("\(failure.line)") }
        #expect(tests.count == 95)
        #expect(summary.failed == 0)
        #expect(summary.passed >= 66)
        for skip in results where skip.outcome == .skipped {
            #expect(skip.detail?.contains("needs the ecmascript data model") == true, "\(skip.line)")
        }
        print("SCION: \(summary.line)")
    }

    @Test("every W3C test of category a passes; the others are skipped with what they need")
    func w3c() throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.w3c.path)
        let results = ConformanceRunner().run(tests)
        let summary = ConformanceSummary(results)
        for failure in results where failure.outcome == .failed { Issue.record("\(failure.line)") }
        #expect(summary.failed == 0)
        let categoryA = tests.filter { $0.w3c?.category == "a" }.map(\.name)
        #expect(categoryA.count == 25)
        for result in results where categoryA.contains(result.name) {
            #expect(result.outcome == .passed, "\(result.line)")
        }
        for skip in results where skip.outcome == .skipped {
            #expect(skip.detail?.isEmpty == false, "\(skip.line)")
        }
        print("W3C: \(summary.line)")
    }
}
