#if Tools
import Foundation
import StatechartsTesting
import Testing

/// `statechart test`, run as a built binary.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct TestCommandTests {
    @Test(
        "one line per test, with the step and the configurations of a failure and the reason of a skip, then the totals; status 1"
    )
    func textReport() async throws {
        let output = try await CommandLine.run(["test", "Tests/StatechartToolTests/Fixtures/suite"])
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

    @Test("--format github adds each failed test as an annotation on its chart")
    func githubAnnotations() async throws {
        let output = try await CommandLine.run([
            "test", "--format", "github", "Tests/StatechartToolTests/Fixtures/suite",
        ])
        #expect(output.status == 1)
        let annotations = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::") }
        let folder = "Tests/StatechartToolTests/Fixtures/suite"
        #expect(
            annotations == [
                "::error file=\(folder)/scion-fail.scxml,line=1,col=1,title=statechart test%3A scion-fail::step 1 (event 't'): expected [c], got [b]",
                "::error file=\(folder)/w3c-fail.scxml,line=1,col=1,title=statechart test%3A w3c-fail::finished in [fail]",
            ])
        #expect(output.standardOutput.contains("2 passed, 2 failed, 1 skipped"), "the report is still written")
    }

    @Test("tests that all pass exit with status 0")
    func allPass() async throws {
        let output = try await CommandLine.run(
            ["test", "scion-pass.scxml", "w3c-pass.scxml"], in: CommandLine.fixtures.appendingPathComponent("suite"))
        #expect(output.status == 0)
        #expect(output.standardOutput.hasSuffix("2 passed, 0 failed, 0 skipped\n"))
    }

    @Test("--json prints the results and the totals for programs")
    func json() async throws {
        let output = try await CommandLine.run(["test", "--json", "Tests/StatechartToolTests/Fixtures/suite"])
        let report = try JSONDecoder().decode(ConformanceReport.self, from: Data(output.standardOutput.utf8))
        #expect(report.summary == ConformanceSummary(passed: 2, failed: 2, skipped: 1))
        #expect(report.results.map(\.outcome) == [.skipped, .failed, .passed, .failed, .passed])
        #expect(output.status == 1)
    }

    @Test("a W3C suite gets its mandatory and optional totals on lines of their own; a mandatory test is never skipped")
    func mandatoryAndOptional() async throws {
        let output = try await CommandLine.run(["test", "Tests/StatechartToolTests/Fixtures/w3c-suite"])
        #expect(output.status == 1, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "PASS test1 (mandatory, category a)")
        // A mandatory test whose data model is not available fails; it is not skipped.
        #expect(
            lines.dropFirst().first?.hasPrefix("FAIL test2 (mandatory, category a): the chart cannot be read: ") == true
        )
        #expect(
            lines.dropFirst().first?.hasSuffix("m2.scxml:3:1: error: the data model 'xpath' is not available") == true)
        #expect(
            lines.contains {
                $0.hasPrefix("SKIP test3 (optional, category n/a-xpath): the test needs the obsolete XPath")
            })
        #expect(
            lines.contains(
                "ABSENT test5 (mandatory, category absent): this copy of the suite has no file for it (manifest.xml lists it)"
            ))
        #if ECMAScript && HTTP
        #expect(lines.contains("PASS test4 (optional, category d)"))
        #expect(
            Array(lines.suffix(3)) == [
                "mandatory: 1 passed, 1 failed, 0 skipped, 1 absent", "optional: 1 passed, 0 failed, 1 skipped",
                "2 passed, 1 failed, 1 skipped, 1 absent",
            ])
        #endif
    }

    @Test("--no-http skips the optional tests of the HTTP processor, with their reason; never a mandatory one")
    func withoutHTTP() async throws {
        let output = try await CommandLine.run([
            "test", "--no-http", "--json", "Tests/StatechartToolTests/Fixtures/w3c-suite",
        ])
        let report = try JSONDecoder().decode(ConformanceReport.self, from: Data(output.standardOutput.utf8))
        #expect(report.mandatory == ConformanceSummary(passed: 1, failed: 1, skipped: 0, absent: 1))
        #expect(report.optional == ConformanceSummary(passed: 0, failed: 0, skipped: 2))
        let test4 = try #require(report.results.first { $0.name == "test4" })
        #expect(test4.outcome == .skipped)
        #expect(test4.detail?.contains("needs the Basic HTTP Event I/O Processor") == true, "\(test4.line)")
    }

    #if ECMAScript && HTTP
    @Test("--json carries the mandatory and optional totals")
    func jsonTotals() async throws {
        let output = try await CommandLine.run(["test", "--json", "Tests/StatechartToolTests/Fixtures/w3c-suite"])
        let report = try JSONDecoder().decode(ConformanceReport.self, from: Data(output.standardOutput.utf8))
        #expect(report.mandatory == ConformanceSummary(passed: 1, failed: 1, skipped: 0, absent: 1))
        #expect(report.optional == ConformanceSummary(passed: 1, failed: 0, skipped: 1))
        #expect(report.summary == ConformanceSummary(passed: 2, failed: 1, skipped: 1, absent: 1))
        #expect(output.status == 1)
    }
    #endif

    @Test("a chart that is not a test is said to be one, with what a test looks like; not a FAIL")
    func notATest() async throws {
        let output = try await CommandLine.run(["test", "Examples/lamp.scxml"])
        #expect(output.status != 0)
        #expect(
            output.standardError.hasPrefix(
                "Error: Examples/lamp.scxml is not a test: a SCION test has its script (lamp.json) beside it"))
        #expect(output.standardError.contains("run it with `statechart run`"))
        #expect(!output.standardOutput.contains("FAIL"))
    }

    @Test("a path that does not exist is one clear line and a non-zero status")
    func missingPath() async throws {
        let output = try await CommandLine.run(["test", "no/such/folder"])
        #expect(output.status != 0)
        #expect(output.standardError == "Error: there is no file or folder at no/such/folder\n")
        #expect(output.standardOutput.isEmpty)
    }
}
#endif
