#if Inspector
import Statecharts

extension InspectorServer {
    /// Serves the inspector of a machine's past on 127.0.0.1, read-only: each element of
    /// `timeline` is a step, with what caused it and the machine after it, and the page draws the
    /// chart with the states each step left active and the transitions it took (the snapshot's
    /// `MachineSnapshot.microsteps`). The first element is where the timeline starts.
    ///
    /// What to show comes from anywhere a machine's past is kept: a durable machine's history,
    /// replayed from its journal (StatechartsStore's `DurableMachines.history(of:)`), or snapshots
    /// an app saved.
    ///
    /// ```swift
    /// if let history = try await orders.history(of: "order-17") {
    ///     let timeline =
    ///         [(label: "start", snapshot: history.initial)]
    ///         + history.steps.map { (label: "#\($0.sequence)", snapshot: $0.snapshot) }
    ///     let inspector = try await InspectorServer.show(timeline, of: checkout)
    ///     print("the past of order-17: \(inspector.pageURL)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - timeline: The steps, oldest first, each a label (an event's name, `start`) and the
    ///     machine after it. An empty timeline is refused.
    ///   - chart: The machine's chart, which the page draws.
    ///   - name: The page's title; the chart's name by default.
    ///   - data: What the page shows as the machine's data; the context as JSON when it is
    ///     `Encodable`, its description otherwise, by default.
    ///   - port: The port; 0 (the default) for one the system chooses.
    ///   - token: The secret every request carries; a random one of 128 bits by default.
    /// - Throws: ``InspectorError`` when the timeline is empty, the token is not one, or the server
    ///   cannot listen.
    public static func show<State: Hashable, Event: StatechartEvent, Context>(
        _ timeline: [(label: String, snapshot: MachineSnapshot<State, Context>)],
        of chart: Statechart<State, Event, Context>, name: String? = nil,
        data: ((Context) -> InspectorValue)? = nil, port: Int = 0, token: String? = nil
    ) async throws(InspectorError) -> InspectorServer {
        guard !timeline.isEmpty else { throw InspectorError("there is no step to show", status: 500) }
        var steps: [InspectorStep] = []
        var previous: [String] = []
        for (index, (label, snapshot)) in timeline.enumerated() {
            var step = TypedMachineView.step(snapshot, chart: chart)
            if let data { step.snapshot.data = data(snapshot.context) }
            TypedMachineView.fillChanges(of: &step, after: previous)
            previous = step.snapshot.configuration
            steps.append(
                InspectorStep(
                    index: index, label: label, exited: step.exited, entered: step.entered,
                    transitions: step.transitions, snapshot: step.snapshot))
        }
        let target = RecordedTimelineTarget(chartName: name ?? chart.name, svg: chart.svg(), steps: steps)
        return try await start(target, port: port, token: token, timelineLimit: steps.count)
    }
}
#endif
