#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// `statechart repl [CHART] [--http]`: sends events typed at a prompt to a session of the document
/// and shows where it is.
public struct ReplCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Send events to an SCXML chart from a prompt.",
        discussion: """
            Type an event name to send it (NAME={"key": 1} sends it with data), `:wait 5s` to let time \
            pass on the virtual clock, `:state` to see every active state, `:undo` to go back one step, \
            `:help` for this list, and `:quit` (or end of input) to leave; `wait 5s`, `states`, `help` \
            and `quit` work without the colon. After each step the active states and the events they \
            handle are shown. On a terminal, lines can be edited, Tab completes the events the active \
            states handle and the commands, and the history is kept across runs in \
            $XDG_STATE_HOME/statechart/repl_history ($STATECHART_HISTORY changes it). Without a CHART, \
            the bundled media player runs.
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
        let events = source.chart.externalEventNames
        let timers = session.eventNames.filter { session.timerNames.contains($0) }
        emit(
            "\(source.name): events are \(events.joined(separator: ", "))"
                + (timers.isEmpty ? "" : "; timers, which :wait lets fire, are \(timers.joined(separator: ", "))")
                + ". Type :help for commands.")
        do {
            show(try await session.start(), session)
            try await converse(with: &session)
        } catch {
            await processors.stop()
            throw error
        }
        await processors.stop()
    }

    /// What `:help` prints.
    static let help = """
        an event name sends it (NAME=JSON with data); :wait 5s lets time pass; :state shows every active state; \
        :undo goes back one step; :quit leaves
        """

    /// The commands Tab completes, besides the events.
    static let commands = [":help", ":state", ":wait", ":undo", ":quit"]

    /// How many steps `:undo` can go back.
    static let undoDepth = 100

    /// Reads lines and answers them until `quit` or the end of input.
    func converse(with session: inout ChartSession) async throws {
        let reader = LineReader(historyFile: LineReader.defaultHistoryFile())
        // The session before each step, for :undo.
        var previous: [SCXMLSessionArchive] = []
        while true {
            reader.completions =
                session.session.status == .finished ? Self.commands : session.eventsHandledNow + Self.commands
            guard let line = reader.read(prompt: "> ") else { break }
            let text = line.trimmingCharacters(in: .whitespaces)
            reader.remember(text)
            switch text {
            case "":
                break
            case ":quit", "quit", "exit":
                return
            case ":help", "help":
                emit(Self.help)
            case ":state", "states":
                emit("configuration: \(TerminalOutput.configuration(session.session.configuration))")
                for id in session.session.childSessionIDs {
                    let states = session.session.machine(ofSession: id)?.configuration ?? []
                    emit("  invoked \(id): \(TerminalOutput.configuration(states))")
                }
            case ":undo":
                guard let archive = previous.popLast() else {
                    emit("nothing to undo")
                    break
                }
                do {
                    try session.restore(archive)
                    show(session.current("undo"), session)
                } catch let error as CommandError {
                    emit("error: \(error.description)")
                }
            default:
                if text.hasPrefix(":") && !text.hasPrefix(":wait") {
                    emit("unknown command \(text); :help lists them")
                    break
                }
                if session.session.status == .finished {
                    emit("the machine has finished; :undo goes back, :quit leaves")
                    break
                }
                do {
                    let step = try Step(parsing: text.hasPrefix(":wait") ? String(text.dropFirst()) : text)
                    let before = try? session.archive()
                    let outcome = try await session.take(step)
                    if let before {
                        previous.append(before)
                        if previous.count > Self.undoDepth { previous.removeFirst() }
                    }
                    show(outcome, session)
                } catch let error as CommandError {
                    emit("error: \(error.description)")
                }
            }
        }
        emit()
    }

    func show(_ outcome: ChartSession.Outcome, _ session: ChartSession) {
        // A document's own text: its control characters are shown, not sent to the terminal.
        for line in outcome.logs { emit("  log \(Escaping.terminal(line))") }
        for error in outcome.errors { emit("  \(Escaping.terminal(error))") }
        emit(RunCommand.line(outcome))
        if session.session.status == .finished {
            emit("finished")
        } else {
            emit("  events now: \(session.eventsHandledNow.joined(separator: ", "))")
            let timers = session.pendingTimers
            if !timers.isEmpty { emit("  timers: \(timers.joined(separator: ", ")) (:wait lets time pass)") }
        }
    }

    /// Writes straight to standard output, unbuffered, so that the prompt shows before input is
    /// read; made printable, as every line of the tool is (`printLine`).
    func emit(_ text: String = "", terminator: String = "\n") {
        writeUnbuffered(Escaping.terminal(text, keepingLineBreaks: true) + terminator)
    }
}
#endif
