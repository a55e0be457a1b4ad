import Foundation
import StatechartTool
import StatechartsSCXML
import Testing

/// The external suites, run as `statechart test` runs them.
@Suite(.enabled(if: SharedMaterial.isPresent, SharedMaterial.absent))
struct ConformanceSuiteTests {
    #if ECMAScript
    @Test("every SCION test passes (two with the suite's known erratum, which their results name)")
    func scion() throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.scion.path)
        let results = ConformanceRunner().run(tests)
        for failure in results where failure.outcome != .passed { Issue.record("\(failure.line)") }
        #expect(tests.count == 95)
        #expect(ConformanceSummary(results) == ConformanceSummary(passed: 95, failed: 0, skipped: 0))
        let errata = results.filter { $0.detail?.hasPrefix("erratum") == true }.map(\.name)
        #expect(errata == ["more-parallel/test10", "more-parallel/test10b"])
    }

    @Test("every mandatory W3C test with a file here passes; each optional one passes or is skipped with its reason")
    func w3c() throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.w3c.path)
        let results = ConformanceRunner().run(tests)
        for failure in results where failure.outcome == .failed { Issue.record("\(failure.line)") }
        let mandatory = results.filter { $0.conformance?.hasPrefix("mandatory") == true }
        let withFiles = tests.filter { $0.w3c?.conformance == "mandatory" && !$0.charts.isEmpty }.map(\.name)
        #expect(withFiles.count == 148)
        for result in mandatory where withFiles.contains(result.name) {
            #expect(result.outcome == .passed, "\(result.line)")
        }
        // The manifest lists 167 mandatory tests; this copy of the suite has files for 148.
        #expect(mandatory.count == 167)
        for skip in results where skip.outcome == .skipped {
            #expect(skip.detail?.isEmpty == false, "\(skip.line)")
            let reason = skip.detail ?? ""
            #expect(
                reason.contains("BasicHTTP") || reason.contains("DOM") || reason.contains("does not have")
                    || reason.contains("no chart to run"), "\(skip.line)")
        }
        print("W3C: \(ConformanceSummary(results).line)")
    }
    #else
    @Test("without the ECMAScript trait, every SCION test that needs no data model passes; the others are skipped")
    func scion() throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.scion.path)
        let results = ConformanceRunner().run(tests)
        for failure in results where failure.outcome == .failed { Issue.record("\(failure.line)") }
        #expect(ConformanceSummary(results).passed >= 66)
        for skip in results where skip.outcome == .skipped {
            #expect(skip.detail?.contains("needs the ecmascript data model") == true, "\(skip.line)")
        }
    }

    @Test("without the ECMAScript trait, every W3C test of category a passes")
    func w3c() throws {
        let tests = try ConformanceDiscovery.tests(at: SharedMaterial.w3c.path)
        let results = ConformanceRunner().run(tests)
        let categoryA = tests.filter { $0.w3c?.category == "a" }.map(\.name)
        #expect(categoryA.count == 25)
        for result in results where categoryA.contains(result.name) {
            #expect(result.outcome == .passed, "\(result.line)")
        }
    }
    #endif
}
