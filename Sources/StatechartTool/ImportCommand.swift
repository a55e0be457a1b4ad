#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart import MACHINE.json [--delay NAME=DURATION]... [-o FILE]`: an XState machine
/// configuration, as Stately Studio exports it, written as SCXML.
public struct ImportCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write an XState v5 machine configuration (JSON, as Stately Studio exports it) as SCXML.",
        discussion: """
            States, parallel and final states, history, transitions (targets, reenter, guards and \
            actions by name), after, always, entry, exit, invoke with onDone and onError, tags, meta, \
            description and output become SCXML; named actions and guards become elements and \
            attributes of the project's namespace, which run, generate and graph keep. A named delay \
            of `after` needs its duration: --delay slow=2s. Anything SCXML cannot express is an error \
            at its JSON path.
            """)

    /// The machine configuration.
    @Argument(help: "A JSON file: an XState v5 machine configuration.")
    public var machine: String

    /// Durations of named delays.
    @Option(name: .customLong("delay"), help: "A named delay's duration, NAME=DURATION (500ms, 2s, 1m); repeatable.")
    public var delays: [String] = []

    /// Where to write; standard output when omitted.
    @Option(name: .shortAndLong, help: "A file to write instead of standard output.")
    public var output: String?

    /// A command ready to parse.
    public init() {}

    /// Checks the named delays.
    public func validate() throws {
        _ = try options()
    }

    /// The importer's options: the named delays of `--delay NAME=DURATION`.
    func options() throws -> XStateImporter.Options {
        var options = XStateImporter.Options()
        for given in delays {
            guard let equals = given.firstIndex(of: "="), equals != given.startIndex,
                let duration = Step.duration(String(given[given.index(after: equals)...]))
            else {
                throw ValidationError("--delay takes NAME=DURATION, such as slow=2s; '\(given)' is not one")
            }
            options.delays[String(given[..<equals])] = duration
        }
        return options
    }

    /// Writes the document.
    public func run() throws {
        let options = try options()
        let url = URL(fileURLWithPath: machine)
        let imported: XStateImporter.Imported
        do {
            imported = try XStateImporter.read(contentsOf: url, options: options)
        } catch {
            throw CommandError(error)
        }
        for warning in imported.warnings { printToStandardError("\(warning)") }
        try OutputFile.write(SCXMLWriter.write(imported.document), to: output)
    }
}
#endif
