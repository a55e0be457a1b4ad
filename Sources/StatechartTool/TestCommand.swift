import ArgumentParser
import Foundation

/// `statechart test PATH...`: runs conformance tests.
public struct TestCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run SCION and W3C conformance tests on a virtual clock.",
        discussion: """
            PATH is an .scxml file or a folder searched for them. A chart with a JSON file of the same \
            name is a SCION test (expected configurations after each event); any other chart is a W3C \
            test, which passes when it reaches its top-level <final id="pass">. In a folder with a \
            categories.tsv (the W3C suite), that table says which charts are tests.
            """)

    /// The files and folders to test.
    @Argument(help: "Charts or folders of charts.")
    public var paths: [String]

    /// Whether to print JSON.
    @Flag(help: "Print the results as JSON.")
    public var json = false

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

    /// A command ready to parse.
    public init() {}

    /// Runs the tests and prints the results; fails when a test failed.
    public func run() throws {
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
        if log {
            runner.log = { record in
                printToStandardError("  log \(record) (\(ConformanceRunner.shortLocation(record.location)))")
            }
        }
        let report = ConformanceReport(results: runner.run(tests))
        print(json ? report.json : report.text)
        if report.summary.failed > 0 { throw ExitCode.failure }
    }
}
