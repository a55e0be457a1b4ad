#if Inspector
import ArgumentParser
import Foundation
import Statecharts
import StatechartsInspector
import StatechartsSCXML

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
            (?token=, or Authorization: Bearer). Stop it with Ctrl-C.
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

    /// The limits the document runs within.
    @OptionGroup(title: "Limits")
    public var limits: LimitOptions

    /// How many steps the session may take.
    @Option(help: "End the session after this many steps: events, and instants at which timers fire (100000).")
    public var maxSteps = 100_000

    /// A command ready to parse.
    public init() {}

    /// Checks the port and the step bound.
    public func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
        if maxSteps < 1 { throw ValidationError("--max-steps must be at least 1") }
    }

    /// Serves the page until interrupted.
    public func run() async throws {
        let limits = try self.limits.limits()
        let source = try ChartSource.load(chart, limits: limits)
        source.printWarnings()
        let session = ChartSession(source: source, limits: limits, maximumSteps: maxSteps)
        for warning in session.warnings { printToStandardError("\(warning)") }
        let server: InspectorServer
        do {
            server = try await InspectorServer.start(SessionInspectorTarget(session: session), port: port)
        } catch {
            throw CommandError(error.message)
        }
        // Written straight away, unbuffered: a script reads the address while the server runs.
        FileHandle.standardOutput.write(
            Data("Inspecting \(source.name) at \(server.pageURL)\nPress Ctrl-C to stop.\n".utf8))
        if let urlFile {
            do {
                try (server.pageURL + "\n").write(toFile: urlFile, atomically: true, encoding: .utf8)
            } catch {
                throw CommandError("cannot write \(urlFile): \(error.localizedDescription)")
            }
        }
        // Serve until the process is interrupted.
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await server.stop()
    }
}
#endif
