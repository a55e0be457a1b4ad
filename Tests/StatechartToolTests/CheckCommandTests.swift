#if Tools
import Foundation
import Testing

/// `statechart check` on fixtures that each have exactly one defect, and on the shipped examples.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct CheckCommandTests {
    static let fixtures = "Tests/StatechartToolTests/Fixtures/checks"

    @Test(
        "each fixture gets exactly its finding, at its line and column",
        arguments: [
            ("unreachable", "6:3: warning: the state 'island' can never be entered", "unreachableState"),
            ("unreachable-final", "6:3: warning: the final state 'end' can never be entered", "unreachableFinalState"),
            ("trap", "5:3: warning: the state 'stuck' is a trap", "trap"),
            ("shadowed", "6:5: warning: the transition on 'go' of 'a' can never fire", "shadowedTransition"),
            ("conflicting", "6:5: warning: 'a' has two unguarded transitions on 'go'", "conflictingTransitions"),
            (
                "regions", "6:37: warning: on 'stop', the transitions of 'l' (5:36) and 'r' both leave",
                "conflictingRegions"
            ),
            ("never-completes", "13:5: warning: 'p' can never complete", "neverCompletes"),
        ])
    func fixture(name: String, finding: String, code: String) async throws {
        let path = "\(Self.fixtures)/\(name).scxml"
        let output = try await CommandLine.run(["check", path])
        #expect(output.status == 0, "warnings alone do not fail the check")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("\(path):\(finding)") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("[\(code)]") == true)
        #expect(lines.last?.hasSuffix("0 errors, 1 warning") == true)

        let strict = try await CommandLine.run(["check", "--strict", path])
        #expect(strict.status != 0, "--strict fails on warnings")
    }

    @Test(
        "the shipped examples and the bundled chart have no findings",
        arguments: [
            ["check"], ["check", "--strict", "Examples/lamp.scxml"],
            ["check", "--strict", "Examples/media-player.scxml"],
        ])
    func examplesAreClean(arguments: [String]) async throws {
        let output = try await CommandLine.run(arguments)
        #expect(output.status == 0)
        #expect(output.standardOutput.hasSuffix(", 0 errors, 0 warnings\n"), "\(output.standardOutput)")
    }

    @Test("--table prints the completeness table")
    func table() async throws {
        let output = try await CommandLine.run(["check", "--table", "Examples/lamp.scxml"])
        #expect(
            output.standardOutput == """
                Examples/lamp.scxml: 4 states reachable, 0 errors, 0 warnings

                state   toggle  timeout  brighter  dimmer
                off     yes     -        -         -
                dim     yes     yes      yes       -
                bright  yes     yes      -         yes

                """)
    }

    @Test("--json prints {\"errors\": [...]}: the findings, each with its file, line and column as errors have them")
    func json() async throws {
        let output = try await CommandLine.run(["check", "--json", "\(Self.fixtures)/trap.scxml"])
        struct Finding: Decodable, Equatable {
            var severity: String
            var code: String
            var state: String?
            var file: String?
            var line: Int?
            var column: Int?
            var location: String?
        }
        struct Report: Decodable { var errors: [Finding] }
        let findings = try JSONDecoder().decode(Report.self, from: Data(output.standardOutput.utf8)).errors
        let file = "\(Self.fixtures)/trap.scxml"
        #expect(
            findings == [
                Finding(
                    severity: "warning", code: "trap", state: "stuck", file: file, line: 5, column: 3,
                    location: "\(file):5:3")
            ])
    }

    @Test("--format github writes each finding as a GitHub Actions annotation at its line")
    func githubAnnotations() async throws {
        let file = "\(Self.fixtures)/trap.scxml"
        let output = try await CommandLine.run(["check", "--format", "github", file])
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "::warning file=\(file),line=5,col=3,title=statechart check%3A trap::the state 'stuck' is a trap: once it is entered no transition leaves it, and it is not final"
        )
        #expect(lines.last?.hasSuffix("0 errors, 1 warning") == true)
    }

    @Test("--format github: three errors are three annotations, and a file name cannot add properties or commands")
    func githubAnnotationsOfErrors() async throws {
        let file = try CommandLine.document(CommandLine.threeProblems, named: "odd,line=9::%0A.scxml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let output = try await CommandLine.run(["check", file.path, "--format=github"])
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let escapedFile = file.path.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: ",", with: "%2C").replacingOccurrences(of: ":", with: "%3A")
        #expect(lines.count == 3, "\(lines)")
        for (line, (number, target)) in zip(lines, [(2, "nowhere"), (3, "elsewhere"), (4, "away")]) {
            #expect(line.hasPrefix("::error file=\(escapedFile),line=\(number),col="), "\(line)")
            #expect(line.contains(",title=statechart::") && line.contains(target), "\(line)")
        }
    }

    @Test("--format github: a usage error is one annotation too")
    func githubUsageError() async throws {
        let output = try await CommandLine.run(["check", "--format", "github", "--no-such-flag"])
        #expect(output.status == 64)
        #expect(output.standardOutput.hasPrefix("::error title=statechart::"), "\(output.standardOutput)")
        #expect(output.standardOutput.split(separator: "\n").count == 1)
    }
}
#endif
