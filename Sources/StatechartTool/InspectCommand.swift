#if Tools
#if Inspector
import ArgumentParser
import Foundation
import Statecharts
import StatechartsInspector
import StatechartsSCXML

#if Store
import StatechartsStore
#endif

/// `statechart inspect [CHART] [--port N]`: a page in the browser that shows the document's chart
/// with its active states lit up, sends it events, and travels in its timeline.
public struct InspectCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Inspect an SCXML chart live in the browser.",
        discussion: """
            Serves a page on 127.0.0.1 that shows the chart as SVG with its active states lit up, \
            buttons for the events the active states take now (with a field for event data), the \
            timeline of steps (select one to see the configuration and data then, and resume from \
            it), and controls of the virtual clock (advance by, run in real time). Beside the page, \
            an HTTP API: POST /api/events {"name", "data"}, GET /api/snapshot, GET /api/timeline, \
            POST /api/resume {"step"}, POST /api/clock {"advance"} or {"realTime"}, and the \
            WebSocket /api/updates. Every API request carries the token printed with the address \
            (?token=, or Authorization: Bearer). Stop it with Ctrl-C. With --clock real, the document \
            runs live on the wall clock instead, its timers firing by themselves: the page watches it \
            and sends it events, and neither moves its clock nor resumes from a past step. With \
            --store STORE --machine ID, the page shows a durable machine of the document's fleet \
            instead, read-only: its timeline is the machine's journal replayed, from its creation \
            when the store keeps the whole journal, else from its snapshot (STORE as for \
            `statechart fleet`).
            """)

    /// The chart.
    @Argument(help: "An SCXML document; the bundled media player when omitted.")
    public var chart: String?

    /// The port.
    @Option(help: "The port on 127.0.0.1; 0 for one the system chooses.")
    public var port = 0

    /// Where to write the page's address.
    @Option(help: "Also write the page's address to this file, once the server listens.")
    public var urlFile: String?

    /// The clock the document's time follows.
    @Option(
        help: """
            The clock: `virtual` (the default) moves only when the page says; `real` runs the document \
            live on the wall clock, as an app runs it (IsolatedSCXMLSession).
            """)
    public var clock: RunClock = .virtual

    /// The limits the document runs within.
    @OptionGroup(title: "Limits")
    public var limits: LimitOptions

    /// How many steps the session may take.
    @Option(help: "End the session after this many steps: events, and instants at which timers fire (100000).")
    public var maxSteps = 100_000

    /// A store of durable machines of the document, whose machine the page shows.
    @Option(help: "Show a machine of this store of durable machines (a SQLite file or a postgres:// URL).")
    public var store: String?

    /// The stored machine to show.
    @Option(help: "With --store: the machine to show, its journal replayed.")
    public var machine: String?

    /// The PostgreSQL schema of the store.
    @Option(help: "With --store: the PostgreSQL schema that holds the tables (public).")
    public var schema = "public"

    /// A command ready to parse.
    public init() {}

    /// Checks the port, the step bound, and that a store comes with a machine.
    public func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if maxSteps < 1 { throw ValidationError("--max-steps must be at least 1") }
        if (store == nil) != (machine == nil) { throw ValidationError("--store and --machine go together") }
        if store != nil && clock == .real {
            throw ValidationError("--clock real does not go with --store: a stored machine is shown as it was")
        }
    }

    /// Serves the page until interrupted.
    public func run() async throws {
        let limits = try self.limits.limits()
        let source = try ChartSource.load(chart, limits: limits)
        source.printWarnings()
        if let store, let machine {
            #if Store
            try await Self.serveStored(
                machine, of: source, store: store, schema: schema, limits: limits, port: port, urlFile: urlFile)
            return
            #else
            _ = (store, machine)
            throw CommandError("this build has no durable machines: build it with the trait Store")
            #endif
        }
        if clock == .real {
            try await Self.serveLive(source, limits: limits, port: port, urlFile: urlFile)
            return
        }
        let session = ChartSession(source: source, limits: limits, maximumSteps: maxSteps)
        for warning in session.warnings { printToStandardError("\(warning)") }
        let server: InspectorServer
        do {
            server = try await InspectorServer.start(SessionInspectorTarget(session: session), port: port)
        } catch {
            throw CommandError(error.message)
        }
        try await Self.serve(server, name: source.name, urlFile: urlFile)
    }

    /// Serves the page of a document running live on the main actor, until interrupted.
    @MainActor
    static func serveLive(_ source: ChartSource, limits: SCXMLLimits, port: Int, urlFile: String?) async throws {
        let session = IsolatedSCXMLSession(
            source.chart,
            options: SCXMLSession.Options(
                sessionID: "statechart", limits: limits, dataModels: source.dataModels, recordsMicrosteps: true))
        for warning in session.problems { printToStandardError("\(warning)") }
        do {
            try session.start()
        } catch {
            throw CommandError("\(error)")
        }
        let server: InspectorServer
        do {
            server = try await InspectorServer.attach(session, port: port, acceptsEvents: true)
        } catch {
            throw CommandError(error.message)
        }
        try await serve(server, name: source.name, urlFile: urlFile)
        withExtendedLifetime(session) {}
    }

    #if Store
    /// Serves the page of a machine of a store of durable machines of the document, read-only:
    /// its history, the journal the store keeps replayed, until interrupted.
    static func serveStored(
        _ id: String, of source: ChartSource, store location: String, schema: String, limits: SCXMLLimits, port: Int,
        urlFile: String?
    ) async throws {
        let opened = try await FleetCommand.open(location, schema: schema)
        defer { opened.close() }
        let history: DurableHistory<String, SCXMLEvent, SCXMLContext>
        do {
            let fleet = try DurableMachines(document: source.chart, store: opened.store, limits: limits)
            guard let found = try await fleet.history(of: id) else {
                throw CommandError("the store has no machine '\(Escaping.terminal(id))'")
            }
            history = found
        } catch let error as StoreError {
            throw CommandError("\(error)")
        }
        let start = history.startsAfter == 0 ? "start" : "snapshot after #\(history.startsAfter)"
        var timeline = [(label: start, snapshot: history.initial)]
        for step in history.steps {
            timeline.append((label: Self.label(of: step), snapshot: step.snapshot))
        }
        if history.stepsLeftOut > 0 {
            printToStandardError(
                "the timeline shows the last \(history.steps.count) of \(history.stepsLeftOut + history.steps.count) entries replayed"
            )
        }
        if history.entriesBeforeStart > 0 {
            printToStandardError(
                "the store keeps \(history.entriesBeforeStart) entries before the snapshot after #\(history.startsAfter), which cannot be replayed: the timeline starts at the snapshot"
            )
        }
        let server: InspectorServer
        do {
            server = try await InspectorServer.show(
                timeline, of: source.chart.statechart, name: "\(source.name): \(id)",
                data: { InspectorSnapshot.sessionData(ofContext: $0) }, port: port)
        } catch {
            throw CommandError(error.message)
        }
        try await serve(server, name: "\(source.name): \(id)", urlFile: urlFile)
    }

    /// What the timeline calls a replayed journal entry: its number and what it did.
    static func label(of step: DurableHistory<String, SCXMLEvent, SCXMLContext>.Step) -> String {
        let what: String
        switch step.kind {
        case .start: what = "start"
        case .event: what = step.event?.name ?? "an event the document's types do not read"
        case .outcome: what = step.event.map { "\($0.name) (from an activity)" } ?? "an activity's outcome"
        case .advance: what = "timers"
        }
        let failed = step.failure.map { " (failed: \($0))" } ?? ""
        return "#\(step.sequence) \(what)\(failed)"
    }
    #endif

    /// Prints the page's address, writes it to `urlFile`, and serves until interrupted.
    static func serve(_ server: InspectorServer, name: String, urlFile: String?) async throws {
        // Written straight away, unbuffered: a script reads the address while the server runs.
        writeUnbuffered(
            "Inspecting \(Escaping.terminal(name)) at \(server.pageURL)\nPress Ctrl-C to stop.\n")
        if let urlFile {
            // The address carries the token: only this user may read it.
            try writePrivately(server.pageURL + "\n", toFile: urlFile)
        }
        // Serve until the process is interrupted.
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await server.stop()
    }

    /// Writes `text` to a file only its owner may read or write (mode 600), which it creates or
    /// truncates; a symbolic link there is refused rather than followed, so that the token cannot
    /// be written through a link another user planted.
    static func writePrivately(_ text: String, toFile path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // A file that was there keeps its mode on open: make it private before the token is in it.
        guard fchmod(descriptor, 0o600) == 0 else {
            throw CommandError("cannot make \(path) private: \(String(cString: strerror(errno)))")
        }
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw CommandError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
#endif
#endif
