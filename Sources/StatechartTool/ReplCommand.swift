import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart repl [CHART] [--http]`: sends events typed at a prompt to a session of the document
/// and shows where it is.
public struct ReplCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Send events to an SCXML chart from a prompt.",
        discussion: """
            Type an event name to send it (NAME={"json": 1} with data), `wait 5s` to let time pass on the virtual clock, `states` to \
            see every active state, `help` for this list, and `quit` (or end of input) to leave. After \
            each step the active states and the events they handle are shown. Without a CHART, the \
            bundled media player runs.
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// Whether to give the document the Basic HTTP Event I/O Processor.
    @Flag(help: "Give the document the Basic HTTP Event I/O Processor, on loopback (see `statechart run --help`).")
    public var http = false

    /// The limits the document runs within.
    @OptionGroup(title: "Limits")
    public var limits: LimitOptions

    /// How many steps the session may take.
    @Option(help: "End the session after this many steps: events, and instants at which timers fire (100000).")
    public var maxSteps = 100_000

    /// A command ready to parse.
    public init() {}

    /// Checks the step bound.
    public func validate() throws {
        if maxSteps < 1 { throw ValidationError("--max-steps must be at least 1") }
    }

    /// Reads lines until `quit` or the end of input.
    public func run() async throws {
        let limits = try self.limits.limits()
        let source = try ChartSource.load(chart, limits: limits)
        source.printWarnings()
        let processors = try await EventProcessorSetup.start(http: http)
        var session = ChartSession(
            source: source, eventProcessors: processors.processors, limits: limits, maximumSteps: maxSteps)
        for warning in session.warnings { printToStandardError("\(warning)") }
        emit("\(source.name): events are \(session.eventNames.joined(separator: ", ")). Type help for commands.")
        do {
            show(try await session.start(), session)
            try await converse(with: &session)
        } catch {
            await processors.stop()
            throw error
        }
        await processors.stop()
    }

    /// Reads lines and answers them until `quit` or the end of input.
    func converse(with session: inout ChartSession) async throws {
        prompt()
        while let line = readLine() {
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text {
            case "":
                break
            case "quit", "exit":
                return
            case "help":
                emit(
                    "an event name sends it (NAME=JSON with data); wait 5s lets time pass; states shows every active state; quit leaves"
                )
            case "states":
                emit("configuration: [\(session.session.configuration.joined(separator: ", "))]")
                for id in session.session.childSessionIDs {
                    let states = session.session.machine(ofSession: id)?.configuration ?? []
                    emit("  invoked \(id): [\(states.joined(separator: ", "))]")
                }
            default:
                if session.session.status == .finished {
                    emit("the machine has finished; quit to leave")
                    break
                }
                do {
                    show(try await session.take(Step(parsing: text)), session)
                } catch let error as CommandError {
                    emit("error: \(error.description)")
                }
            }
            prompt()
        }
        emit()
    }

    func show(_ outcome: ChartSession.Outcome, _ session: ChartSession) {
        // A document's own text: its control characters are shown, not sent to the terminal.
        for line in outcome.logs { emit("  log \(RunCommand.printable(line))") }
        for error in outcome.errors { emit("  \(RunCommand.printable(error))") }
        emit(RunCommand.line(outcome))
        if session.session.status == .finished {
            emit("finished")
        } else {
            emit("  events now: \(session.eventsHandledNow.joined(separator: ", "))")
        }
    }

    func prompt() { emit("> ", terminator: "") }

    /// Writes straight to standard output, unbuffered, so that the prompt shows before input is read.
    func emit(_ text: String = "", terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }
}
