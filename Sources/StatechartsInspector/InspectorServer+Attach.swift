#if Inspector
import Statecharts

extension InspectorServer {
    /// Serves the inspector of a live machine of your app, on 127.0.0.1: open ``pageURL``, which
    /// carries a random token, to watch the machine's states light up as it runs.
    ///
    /// Call it on the machine's actor (the main actor in an app). Nothing is done for the
    /// inspector until this call: a machine never attached costs what it always did. The page
    /// sends events only when you pass `events`, which makes your event from the name and data
    /// the page sends; return `nil` to refuse one.
    ///
    /// ```swift
    /// let inspector = try await InspectorServer.attach(machine) { name, _ in PlayerEvent(rawValue: name) }
    /// print("inspect the player at \(inspector.pageURL)")
    /// ```
    ///
    /// The timeline shows each step's configuration and context (as JSON when the context is
    /// `Encodable`), and the transitions it took, which the page draws highlighted (the machine
    /// reports its microsteps while the inspector reads its snapshots); the machine runs on its own clock, so the page neither moves it nor resumes
    /// from a past step. ``stop()`` detaches.
    ///
    /// - Parameters:
    ///   - machine: The machine, started or not.
    ///   - port: The port; 0 (the default) for one the system chooses.
    ///   - token: The secret every request carries (16 to 256 letters, digits and `-._~`); a random
    ///     one of 128 bits by default.
    ///   - events: Makes an event from what the page sends; `nil` (the default) for a page that
    ///     only watches.
    ///   - isolation: The machine's actor: the caller's.
    /// - Throws: ``InspectorError`` when the token is not one, or the server cannot listen.
    public static func attach<State: Hashable, Event: StatechartEvent, Context>(
        _ machine: IsolatedStatechart<State, Event, Context>, port: Int = 0, token: String? = nil,
        events: ((_ name: String, _ data: InspectorValue?) -> Event?)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(InspectorError) -> InspectorServer {
        let chart = machine.machine(isolation: isolation).statechart
        let target = LiveMachineTarget(
            chartName: chart.name, svg: chart.svg(),
            link: IsolatedMachineLink(machine: machine, chart: chart, make: events))
        return try await start(target, port: port, token: token)
    }

    /// Serves the inspector of a `StatechartActor` on 127.0.0.1; see
    /// ``attach(_:port:token:events:isolation:)``.
    ///
    /// - Parameters:
    ///   - machine: The machine, started or not.
    ///   - port: The port; 0 (the default) for one the system chooses.
    ///   - token: The secret every request carries; a random one of 128 bits by default.
    ///   - events: Makes an event from what the page sends; `nil` (the default) for a page that
    ///     only watches.
    /// - Throws: ``InspectorError`` when the token is not one, or the server cannot listen.
    public static func attach<
        State: Hashable & Sendable, Event: StatechartEvent & Sendable, Context: Sendable
    >(
        _ machine: StatechartActor<State, Event, Context>, port: Int = 0, token: String? = nil,
        events: (@Sendable (_ name: String, _ data: InspectorValue?) -> Event?)? = nil
    ) async throws(InspectorError) -> InspectorServer where Event.Kind: Sendable {
        let chart = await machine.machine.statechart
        let target = LiveMachineTarget(
            chartName: chart.name, svg: chart.svg(),
            link: ActorMachineLink(machine: machine, chart: chart, make: events))
        return try await start(target, port: port, token: token)
    }
}
#endif
