import Foundation
import StatechartTool
import Testing

/// `statechart test`, run as a built binary.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct TestCommandTests {
    @Test(
        "one line per test, with the step and the configurations of a failure and the reason of a skip, then the totals; status 1"
    )
    func textReport() throws {
        let output = try CommandLine.run(["test", "Tests/StatechartToolTests/Fixtures/suite"])
        #expect(output.status == 1)
        #expect(
            output.standardOutput == """
                SKIP needs-xpath: the data model 'xpath' is not available at needs-xpath.scxml:1:1
                FAIL scion-fail: step 1 (event 't'): expected [c], got [b]
                PASS scion-pass
                FAIL w3c-fail: finished in [fail]
                PASS w3c-pass
                2 passed, 2 failed, 1 skipped

                """)
    }

    @Test("tests that all pass exit with status 0")
    func allPass() throws {
        let output = try CommandLine.run(
            ["test", "scion-pass.scxml", "w3c-pass.scxml"], in: CommandLine.fixtures.appendingPathComponent("suite"))
        #expect(output.status == 0)
        #expect(output.standardOutput.hasSuffix("2 passed, 0 failed, 0 skipped\n"))
    }

    @Test("--json prints the results and the totals for programs")
    func json() throws {
        let output = try CommandLine.run(["test", "--json", "Tests/StatechartToolTests/Fixtures/suite"])
        let report = try JSONDecoder().decode(ConformanceReport.self, from: Data(output.standardOutput.utf8))
        #expect(report.summary == ConformanceSummary(passed: 2, failed: 2, skipped: 1))
        #expect(report.results.map(\.outcome) == [.skipped, .failed, .passed, .failed, .passed])
        #expect(output.status == 1)
    }

    @Test("a path that does not exist is one clear line and a non-zero status")
    func missingPath() throws {
        let output = try CommandLine.run(["test", "no/such/folder"])
        #expect(output.status != 0)
        #expect(output.standardError == "Error: there is no file or folder at no/such/folder\n")
        #expect(output.standardOutput.isEmpty)
    }
}
