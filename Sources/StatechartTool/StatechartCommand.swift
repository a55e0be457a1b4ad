#if Tools
import ArgumentParser
import Foundation
import StatechartsTesting

/// The `statechart` command: check, run and test statecharts written in SCXML.
public struct StatechartCommand: AsyncParsableCommand {
    /// The version `statechart --version` prints: the next release, as the changelog names it,
    /// with `-dev` until it is released.
    public static let version = "0.2.0-dev"

    /// The command's description and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "statechart",
        abstract: "Run, check, draw and test statecharts written in SCXML.",
        discussion: """
            Shell completion: `statechart --generate-completion-script bash` (or zsh, fish) prints a \
            script for your shell; see the README. Every command takes --color auto|always|never: \
            by default, errors, warnings and test results are coloured on a terminal, unless NO_COLOR \
            is set.
            """,
        version: version,
        subcommands: subcommands)

    /// The subcommands of this build: `inspect` comes with the trait Inspector, `fleet` with Store.
    static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            RunCommand.self, ReplCommand.self, CheckCommand.self, GraphCommand.self, TestCommand.self,
            PathsCommand.self, GenerateCommand.self, ImportCommand.self,
            DifferentialCommand.self,
        ]
        #if Inspector
        commands.insert(InspectCommand.self, at: 2)
        #endif
        #if Store
        commands.append(FleetCommand.self)
        #endif
        return commands
    }

    /// A command ready to parse.
    public init() {}

    /// Parses `arguments` (without the program's name), runs the command and exits. Under
    /// `--json`, a failure to parse, to load a document or to run is written on standard output as
    /// one JSON object, ``errorJSON(_:)``, with the same non-zero status as the text form.
    public static func main(arguments: [String]) async -> Never {
        ChildProcess.ignoreBrokenPipes()
        let arguments = configureColor(arguments)
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            Self.exit(withError: nil)
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            guard status != .success, !message.isEmpty else { exit(withError: error) }
            if arguments.contains("--json") {
                printJSON(errorJSON(error))
            } else if GitHubAnnotation.requested(by: arguments) {
                for annotation in annotations(for: error) { printLine(annotation.command) }
            } else if let error = error as? CommandError, error.isInDocument {
                // FILE:LINE:COLUMN: error: MESSAGE at the start of each line, as compilers write.
                printToStandardError(error.description)
            } else {
                // What the argument parser would write, made printable: a message may quote a
                // document or an argument.
                printToStandardError(message)
            }
            exit(withError: ExitCode(status.rawValue))
        }
    }

    /// Takes `--color` out of `arguments` and decides whether to colour each stream; a wrong
    /// value ends the tool with status 64, as any usage error.
    static func configureColor(_ arguments: [String]) -> [String] {
        do throws(UsageError) {
            let (mode, remaining) = try ColorMode.extract(from: arguments)
            TerminalColor.configure(mode)
            return remaining
        } catch {
            if arguments.contains("--json") {
                printJSON(errorJSON(CommandError(error.description)))
            } else {
                printToStandardError("Error: \(error.description)")
            }
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
    }

    /// The JSON form of an error: `{"errors": [{"severity": ..., "message": ..., "file": ...,
    /// "line": ..., "column": ...}, ...], "error": {"message": ..., "file": ..., "line": ...,
    /// "column": ...}}`, with `null` where a problem is not in a document. `errors` holds every
    /// problem, in document order, in the shape `check --json` writes its findings; `error`, the
    /// first, is kept for readers of 0.1.
    public static func errorJSON(_ error: any Error) -> String {
        let problems: [CommandError.Problem]
        if let error = error as? CommandError {
            problems = error.problems
        } else {
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            // A usage error's message ends with a usage line; the first line says what is wrong.
            problems = [CommandError.Problem(message: String(message.split(separator: "\n").first ?? ""))]
        }
        let bodies = problems.map { problem in
            ErrorBody(
                severity: problem.severity, message: problem.message, file: problem.location?.file,
                line: problem.location?.line, column: problem.location?.column)
        }
        var first = bodies.first ?? ErrorBody(severity: "error", message: "unknown error")
        first.severity = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(ErrorReport(error: first, errors: bodies)) else {
            return #"{"error":{"message":"unknown error"}}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// An error as GitHub Actions annotations, under `--format github`: one per problem, at its
    /// place in the document when it has one.
    static func annotations(for error: any Error) -> [GitHubAnnotation] {
        guard let error = error as? CommandError else {
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            return [GitHubAnnotation(severity: "error", message: message, title: "statechart")]
        }
        return error.problems.map { problem in
            GitHubAnnotation(
                severity: problem.severity, message: problem.message, location: problem.location, title: "statechart")
        }
    }

    /// The object ``errorJSON(_:)`` writes.
    struct ErrorReport: Encodable {
        var error: ErrorBody
        var errors: [ErrorBody]
    }

    /// The fields of ``errorJSON(_:)``.
    struct ErrorBody: Encodable {
        /// `error` or `warning`; left out of the `error` object, which is always an error.
        var severity: String?
        var message: String
        var file: String?
        var line: Int?
        var column: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let severity { try container.encode(severity, forKey: .severity) }
            try container.encode(message, forKey: .message)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
        }

        enum CodingKeys: String, CodingKey { case severity, message, file, line, column }
    }
}
#endif
