#if Inspector
import Foundation
import Statecharts
import StatechartsSCXML

extension InspectorServer {
    /// Serves the inspector of a document running live in your app, on 127.0.0.1: open
    /// ``pageURL``, which carries a random token, to watch its states light up as it runs.
    ///
    /// Call it on the session's actor (the main actor in an app). The timeline shows each step's
    /// configuration, the data model's variables, the pending timers and what `<log>` wrote, and,
    /// for a session whose options record microsteps, the transitions each step took, which the
    /// page draws highlighted. The session runs on its own clock, so the page neither moves it nor resumes from a past step.
    /// The page sends events only when `acceptsEvents` is `true`: a document's events are names
    /// with data, so no translation is needed. ``stop()`` detaches.
    ///
    /// ```swift
    /// let session = IsolatedSCXMLSession(chart)
    /// try session.start()
    /// let inspector = try await InspectorServer.attach(session, acceptsEvents: true)
    /// print("inspect the document at \(inspector.pageURL)")
    /// ```
    ///
    /// - Parameters:
    ///   - session: The session, started or not.
    ///   - port: The port; 0 (the default) for one the system chooses.
    ///   - token: The secret every request carries (16 to 256 letters, digits and `-._~`); a random
    ///     one of 128 bits by default.
    ///   - acceptsEvents: Whether the page may send events to the session; `false` (the default)
    ///     for a page that only watches.
    ///   - isolation: The session's actor: the caller's.
    /// - Throws: ``InspectorError`` when the token is not one, or the server cannot listen.
    public static func attach(
        _ session: IsolatedSCXMLSession, port: Int = 0, token: String? = nil, acceptsEvents: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(InspectorError) -> InspectorServer {
        let chart = session.session(isolation: isolation).chart
        let target = LiveMachineTarget(
            chartName: chart.document.name ?? "scxml", svg: chart.statechart.svg(),
            link: IsolatedSessionLink(session: session, acceptsEvents: acceptsEvents))
        return try await start(target, port: port, token: token)
    }
}

/// An `IsolatedSCXMLSession`, reached on its actor: each of its snapshots is described there, with
/// its data model's variables and pending timers read from the session's archive.
final class IsolatedSessionLink: LiveMachineLink, SnapshotPump, @unchecked Sendable {
    // Used only on the session's actor.
    let session: IsolatedSCXMLSession
    let acceptsEvents: Bool

    init(session: IsolatedSCXMLSession, acceptsEvents: Bool) {
        self.session = session
        self.acceptsEvents = acceptsEvents
    }

    func snapshot() async -> InspectorSnapshot { await describeNow(isolation: session.isolation) }

    func steps() async -> AsyncStream<LiveMachineStep> { pumpedSteps() }

    func pump(into output: AsyncStream<LiveMachineStep>.Continuation) async {
        await pump(into: output, isolation: session.isolation)
    }

    func deliver(_ event: InspectorEvent) async -> InspectorError? {
        await deliver(event, isolation: session.isolation)
    }

    private func describeNow(isolation: isolated any Actor) -> InspectorSnapshot {
        Self.describe(session.snapshot(isolation: isolation), session: session.session(isolation: isolation))
    }

    /// A snapshot as the page shows it, with the variables and timers of the session as the step
    /// left it.
    static func describe(_ snapshot: SCXMLSessionSnapshot, session: SCXMLSession) -> InspectorSnapshot {
        // A session with events on their way through a processor cannot be archived: its data is
        // then shown at the next step.
        let archive = try? session.archive()
        let time = snapshot.now.components
        return InspectorSnapshot(
            configuration: snapshot.configuration, active: snapshot.activeStates,
            events: snapshot.status == .running && snapshot.endedBy == nil ? session.machine.handledEventNames : [],
            data: archive.map(InspectorSnapshot.sessionData(of:)) ?? .null,
            timers: archive.map(InspectorSnapshot.pendingTimers(of:)) ?? [],
            time: Double(time.seconds) + Double(time.attoseconds) / 1e18, status: snapshot.status.rawValue)
    }

    /// Passes on the session now, then each step as the step left the session, described on the
    /// session's actor when the step is taken, until the stream's reader stops.
    private func pump(into output: AsyncStream<LiveMachineStep>.Continuation, isolation: isolated any Actor) async {
        output.yield(LiveMachineStep(snapshot: describeNow(isolation: isolation)))
        session.observeSteps(isolation: isolation) { snapshot, current in
            var step = LiveMachineStep(snapshot: Self.describe(snapshot, session: current))
            for microstep in snapshot.step.microsteps {
                step.exited += microstep.exited
                step.entered += microstep.entered
                step.transitions += microstep.transitions.map {
                    InspectorTransition(source: $0.source, event: microstep.event, targets: $0.targets)
                }
            }
            if case .terminated = output.yield(step) { return false }
            return true
        }
    }

    private func deliver(_ event: InspectorEvent, isolation: isolated any Actor) -> InspectorError? {
        var data: SCXMLValue?
        if let value = event.data {
            guard let converted = value.scxmlValue else {
                return InspectorError("the data of '\(event.name)' cannot be given to the document", status: 422)
            }
            data = converted
        }
        do {
            _ = try session.send(SCXMLEvent(event.name, data: data), isolation: isolation)
            return nil
        } catch {
            return InspectorError("\(error)", status: 422)
        }
    }
}
#endif
