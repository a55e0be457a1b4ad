#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsTesting

/// `statechart test PATH...`: runs conformance tests.
public struct TestCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run SCION and W3C conformance tests on a virtual clock.",
        discussion: """
            PATH is an .scxml file or a folder searched for them. A chart with a JSON file of the same \
            name is a SCION test (expected configurations after each event); a chart with a top-level \
            <final id="pass"> is a W3C test, which passes when it reaches it; other charts are documents \
            that tests invoke. In a folder with a categories.tsv (the W3C suite), that table says which \
            charts are tests and which are mandatory or optional. Each test runs in a session as `run` and \
            the library run it; the sessions get the Basic HTTP Event I/O Processor, on loopback, for the \
            W3C tests of it. A mandatory test is never skipped; an optional one is skipped only for a \
            feature this build lacks, and a test whose file this copy of the suite lacks is reported as \
            absent. The totals of mandatory and optional tests are printed on lines of their own.
            """)

    /// The files and folders to test.
    @Argument(help: "Charts or folders of charts.")
    public var paths: [String]

    /// Whether to print JSON: the same as `--format json`.
    @Flag(help: "Print the results as JSON.")
    public var json = false

    /// How to print the results.
    @Option(
        help: """
            text (the default), json (as --json), or github: the text report, and each failed test as a \
            GitHub Actions annotation on its chart (::error file=…,title=…::…).
            """)
    public var format: OutputFormat = .text

    /// Whether to archive and restore the machine after every step.
    @Flag(
        help: """
            After every step, archive the machine, encode it as JSON, decode it and go on with a machine \
            restored from it: each test must pass as it does without interruption.
            """)
    public var archiveEveryStep = false

    /// Whether to print what the charts log.
    @Flag(help: "Print what each chart's <log> elements write, on standard error.")
    public var log = false

    /// Whether to report what the tests exercised of each chart.
    @Flag(
        help: """
            After the results, report for each chart the states entered, the transitions taken and the \
            delayed events fired, and list those no test exercised.
            """)
    public var coverage = false

    /// A command ready to parse.
    public init() {}

    /// Whether to leave the Basic HTTP Event I/O Processor out.
    @Flag(help: "Run without the Basic HTTP Event I/O Processor: the tests that need it are skipped.")
    public var noHttp = false

    /// Runs the tests and prints the results; fails when a test failed.
    public func run() async throws {
        var tests: [ConformanceTest] = []
        for path in paths {
            do {
                tests += try ConformanceDiscovery.tests(at: path)
            } catch {
                throw CommandError(error.description)
            }
        }
        var runner = ConformanceRunner()
        runner.archivesEveryStep = archiveEveryStep
        runner.recordsCoverage = coverage
        if log {
            runner.log = { record in
                let place = record.location.map { " (\(ConformanceRunner.shortLocation($0)))" } ?? ""
                printToStandardError("  log \(record)\(place)")
            }
        }
        let processors = try await EventProcessorSetup.start(http: !noHttp && EventProcessorSetup.hasHTTP)
        runner.eventProcessors = processors.processors
        var results = await runner.run(tests)
        await processors.stop()
        // Charts are named relative to the one folder tested, else to the current directory.
        var isFolder: ObjCBool = false
        let folder =
            paths.count == 1 && FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder)
                && isFolder.boolValue
            ? URL(fileURLWithPath: paths[0]) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let charts = coverage ? runner.coverage(of: results, relativeTo: folder) : nil
        // The records of each test are the report's input; the report shows each chart once.
        for index in results.indices { results[index].coverage = nil }
        let report = ConformanceReport(results: results, coverage: charts)
        if json || format == .json {
            printJSON(report.json)
        } else {
            for line in report.text.split(separator: "\n", omittingEmptySubsequences: false) {
                printLine(Self.styled(String(line)))
            }
            if format == .github {
                for annotation in Self.annotations(of: results, tests: tests) { printLine(annotation.command) }
            }
        }
        if report.summary.failed > 0 { throw ExitCode.failure }
    }

    /// Each failed test as a GitHub Actions annotation on its chart (the chart's path relative to
    /// the current directory, which is the repository's root in a workflow).
    static func annotations(of results: [ConformanceResult], tests: [ConformanceTest]) -> [GitHubAnnotation] {
        let here = FileManager.default.currentDirectoryPath + "/"
        return zip(results, tests).compactMap { result, test in
            guard result.outcome == .failed else { return nil }
            let location = test.charts.first.map { chart -> SourcePosition in
                let path = chart.standardizedFileURL.path
                return SourcePosition(
                    file: path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path, line: 1, column: 1)
            }
            return GitHubAnnotation(
                severity: "error", message: result.detail ?? "failed", location: location,
                title: "statechart test: \(result.name)")
        }
    }

    /// A line of the report, with its outcome coloured: `PASS` green, `FAIL` red, and the counts
    /// of failures in the summaries red when there are any.
    static func styled(_ line: String) -> StyledLine {
        for (label, style) in [("PASS", TerminalStyle.success), ("FAIL", .error)] where line.hasPrefix(label + " ") {
            return StyledLine(label, style) + StyledLine(String(line.dropFirst(label.count)))
        }
        if let range = line.range(of: " failed"), let count = line[..<range.lowerBound].split(separator: " ").last,
            let failed = Int(count), failed > 0
        {
            let start = line.index(range.lowerBound, offsetBy: -count.count)
            let before = StyledLine(String(line[..<start]))
            let failures = StyledLine(String(line[start..<range.upperBound]), .error)
            return before + failures + StyledLine(String(line[range.upperBound...]))
        }
        return StyledLine(line)
    }
}
#endif
