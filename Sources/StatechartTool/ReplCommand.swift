import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart repl [CHART]`: sends events typed at a prompt and shows where the machine is.
public struct ReplCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Send events to an SCXML chart from a prompt.",
        discussion: """
            Type an event name to send it, `wait 5s` to let time pass on the virtual clock, `states` to \
            see every active state, `help` for this list, and `quit` (or end of input) to leave. After \
            each step the active states and the events they handle are shown. Without a CHART, the \
            bundled media player runs.
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// A command ready to parse.
    public init() {}

    /// Reads lines until `quit` or the end of input.
    public func run() throws {
        let source = try ChartSource.load(chart)
        source.printWarnings()
        var session = ChartSession(source: source)
        emit("\(source.name): events are \(session.eventNames.joined(separator: ", ")). Type help for commands.")
        show(try session.start(), session)
        prompt()
        while let line = readLine() {
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text {
            case "":
                break
            case "quit", "exit":
                return
            case "help":
                emit("an event name sends it; wait 5s lets time pass; states shows every active state; quit leaves")
            case "states":
                emit("configuration: [\(session.machine.configuration.joined(separator: ", "))]")
            default:
                if session.machine.status == .finished {
                    emit("the machine has finished; quit to leave")
                    break
                }
                do {
                    show(try session.take(Step(parsing: text)), session)
                } catch let error as CommandError {
                    emit("error: \(error.description)")
                }
            }
            prompt()
        }
        emit()
    }

    func show(_ outcome: ChartSession.Outcome, _ session: ChartSession) {
        for line in outcome.logs { emit("  log \(line)") }
        let step = outcome.handled == false ? "\(outcome.step) (not handled)" : outcome.step
        emit("\(step) → [\(outcome.active.joined(separator: ", "))]")
        if session.machine.status == .finished {
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
