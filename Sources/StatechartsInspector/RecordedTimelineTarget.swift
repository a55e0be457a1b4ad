#if Inspector
/// A machine's past, recorded elsewhere and shown as it was: what
/// ``InspectorServer/show(_:of:name:data:port:token:)`` serves, such as a durable machine's history
/// replayed from its journal.
///
/// Read-only: the page neither sends events, nor resumes from a step, nor moves a clock; there is
/// no machine to do it to. Every step is known when the server starts, and the timeline holds
/// them all.
final class RecordedTimelineTarget: InspectorTarget {
    let chartName: String
    let svg: String
    let abilities = InspectorAbilities(sending: false, timeTravel: false, clock: false)
    /// The timeline, from its first step; never empty.
    let steps: [InspectorStep]

    init(chartName: String, svg: String, steps: [InspectorStep]) {
        self.chartName = chartName
        self.svg = svg
        self.steps = steps
    }

    func connect(report: @escaping @Sendable (InspectorStep) -> Void) async -> InspectorStep {
        for step in steps.dropFirst() { report(step) }
        return steps[0]
    }

    func snapshot() async -> InspectorSnapshot { steps[steps.count - 1].snapshot }

    func send(_ event: InspectorEvent) async throws(InspectorError) { throw InspectorError.sendingNotAllowed }

    func resume(from index: Int) async throws(InspectorError) { throw InspectorError.timeTravelNotSupported }

    func advance(by seconds: Double) async throws(InspectorError) { throw InspectorError.clockNotControlled }

    func disconnect() async {}
}
#endif
