#if Inspector
import Statecharts

/// A live machine of an app, seen through its snapshots: what ``InspectorServer/attach(_:port:token:events:isolation:)``
/// serves.
///
/// Each snapshot the machine publishes is a step of the timeline, with the microsteps the machine
/// took since the one before: the states exited and entered, and the transitions, which the page
/// draws highlighted. Events reach the machine only
/// when the app gave a way to make them; the machine keeps its own clock, and its past steps
/// are shown, not resumed.
final class LiveMachineTarget: InspectorTarget {
    let chartName: String
    let svg: String
    let abilities: InspectorAbilities
    private let link: any LiveMachineLink
    private let reader = Locked<Task<Void, Never>?>(nil)

    init(chartName: String, svg: String, link: any LiveMachineLink) {
        self.chartName = chartName
        self.svg = svg
        self.link = link
        abilities = InspectorAbilities(sending: link.acceptsEvents, timeTravel: false, clock: false)
    }

    func connect(report: @escaping @Sendable (InspectorStep) -> Void) async -> InspectorStep {
        let steps = await link.steps()
        var iterator = steps.makeAsyncIterator()
        // The stream starts with the machine as it is now.
        guard let first = await iterator.next() else {
            return InspectorStep(index: 0, label: "attached", snapshot: await snapshot())
        }
        let task = Task { [iterator] in
            var iterator = iterator
            var previous = first.snapshot.configuration
            var index = 0
            while var step = await iterator.next() {
                index += 1
                TypedMachineView.fillChanges(of: &step, after: previous)
                previous = step.snapshot.configuration
                report(
                    InspectorStep(
                        index: index, label: "step \(index)", exited: step.exited, entered: step.entered,
                        transitions: step.transitions, snapshot: step.snapshot))
            }
        }
        reader.withLock { $0 = task }
        return InspectorStep(
            index: 0, label: "attached", entered: first.snapshot.configuration, snapshot: first.snapshot)
    }

    func snapshot() async -> InspectorSnapshot { await link.snapshot() }

    func send(_ event: InspectorEvent) async throws(InspectorError) {
        guard link.acceptsEvents else { throw InspectorError.sendingNotAllowed }
        if let error = await link.deliver(event) { throw error }
    }

    func resume(from index: Int) async throws(InspectorError) { throw InspectorError.timeTravelNotSupported }

    func advance(by seconds: Double) async throws(InspectorError) { throw InspectorError.clockNotControlled }

    func disconnect() async {
        reader.withLock { task in
            task?.cancel()
            task = nil
        }
    }
}

/// How the inspector reaches a live machine where it lives: its actor, or the main actor. The
/// machine's snapshots are turned into ``InspectorSnapshot``s there, so that its states and
/// context need not be `Sendable`.
///
/// Nothing here publishes a snapshot (as reading `IsolatedStatechart.machine(isolation:)`
/// would): the inspector must not cause the steps it reports.
protocol LiveMachineLink: Sendable {
    /// Whether the app gave a way to make events from what the page sends.
    var acceptsEvents: Bool { get }
    /// The machine now.
    func snapshot() async -> InspectorSnapshot
    /// The machine now, then after every step, until the stream's reader stops.
    func steps() async -> AsyncStream<LiveMachineStep>
    /// Makes the event and sends it; the error the page shows, if any.
    func deliver(_ event: InspectorEvent) async -> InspectorError?
}

/// A live machine after a step, as the page shows it: the snapshot, and what the microsteps since
/// the one before did.
struct LiveMachineStep: Sendable {
    var snapshot: InspectorSnapshot
    /// The states exited, in order.
    var exited: [String] = []
    /// The states entered, in order.
    var entered: [String] = []
    /// The transitions taken, in order.
    var transitions: [InspectorTransition] = []
}

/// How many snapshots wait for the inspector before the oldest are dropped.
let snapshotBuffer = 10_000

extension LiveMachineLink {
    static func unknown(_ event: InspectorEvent) -> InspectorError {
        InspectorError("the app makes no event named '\(event.name)' with this data", status: 422)
    }
}

/// An `IsolatedStatechart`, its chart and the app's event maker, all used only on the machine's
/// actor, where they were given: none need be `Sendable`, as the app's types need not be.
final class IsolatedMachineLink<State: Hashable, Event: StatechartEvent, Context>: LiveMachineLink,
    @unchecked Sendable
where Event.Kind: Hashable {
    let machine: IsolatedStatechart<State, Event, Context>
    let chart: Statechart<State, Event, Context>
    let make: ((String, InspectorValue?) -> Event?)?

    init(
        machine: IsolatedStatechart<State, Event, Context>, chart: Statechart<State, Event, Context>,
        make: ((String, InspectorValue?) -> Event?)?
    ) {
        self.machine = machine
        self.chart = chart
        self.make = make
    }

    var acceptsEvents: Bool { make != nil }

    func snapshot() async -> InspectorSnapshot { await snapshot(isolation: machine.isolation) }

    func steps() async -> AsyncStream<LiveMachineStep> { pumpedSteps() }

    func pump(into output: AsyncStream<LiveMachineStep>.Continuation) async {
        await pump(into: output, isolation: machine.isolation)
    }

    func deliver(_ event: InspectorEvent) async -> InspectorError? {
        await deliver(event, isolation: machine.isolation)
    }

    private func snapshot(isolation: isolated any Actor) -> InspectorSnapshot {
        TypedMachineView.describe(machine.snapshot(isolation: isolation), chart: chart)
    }

    /// Reads the machine's snapshots on its actor and passes them on as text, until cancelled.
    private func pump(into output: AsyncStream<LiveMachineStep>.Continuation, isolation: isolated any Actor) async {
        let snapshots = machine.isolatedSnapshots(
            bufferingPolicy: .bufferingNewest(snapshotBuffer), isolation: isolation)
        var iterator = snapshots.makeAsyncIterator()
        while let snapshot = await iterator.next(isolation: isolation) {
            output.yield(TypedMachineView.step(snapshot, chart: chart))
        }
        output.finish()
    }

    private func deliver(_ event: InspectorEvent, isolation: isolated any Actor) -> InspectorError? {
        guard let made = make?(event.name, event.data) else { return Self.unknown(event) }
        do {
            _ = try machine.send(made, isolation: isolation)
            return nil
        } catch {
            return InspectorError("\(error)", status: 422)
        }
    }
}

/// What reads a machine's snapshots where it lives and passes them on as text.
protocol SnapshotPump: Sendable {
    func pump(into output: AsyncStream<LiveMachineStep>.Continuation) async
}

extension SnapshotPump {
    /// A stream of the steps the pump reads, in a task of its own that ends when the stream's
    /// reader stops.
    func pumpedSteps() -> AsyncStream<LiveMachineStep> {
        let (output, continuation) = AsyncStream.makeStream(
            of: LiveMachineStep.self, bufferingPolicy: .bufferingNewest(snapshotBuffer))
        let pump = startPumping(self, into: continuation)
        continuation.onTermination = { _ in pump.cancel() }
        return output
    }
}

extension IsolatedMachineLink: SnapshotPump {}

/// Starts `pump` in a task: not generic, so that the task captures no type of the app's.
func startPumping(
    _ pump: any SnapshotPump, into output: AsyncStream<LiveMachineStep>.Continuation
) -> Task<
    Void, Never
> {
    Task { await pump.pump(into: output) }
}

/// A `StatechartActor`, its chart and the app's event maker.
struct ActorMachineLink<State: Hashable & Sendable, Event: StatechartEvent & Sendable, Context: Sendable>:
    LiveMachineLink
where Event.Kind: Hashable & Sendable {
    let machine: StatechartActor<State, Event, Context>
    let chart: Statechart<State, Event, Context>
    let make: (@Sendable (String, InspectorValue?) -> Event?)?

    var acceptsEvents: Bool { make != nil }

    func snapshot() async -> InspectorSnapshot { TypedMachineView.describe(await machine.snapshot, chart: chart) }

    func steps() async -> AsyncStream<LiveMachineStep> {
        let snapshots = await machine.snapshots(bufferingPolicy: .bufferingNewest(snapshotBuffer))
        let (output, continuation) = AsyncStream.makeStream(
            of: LiveMachineStep.self, bufferingPolicy: .bufferingNewest(snapshotBuffer))
        let pump = Task {
            for await snapshot in snapshots { continuation.yield(TypedMachineView.step(snapshot, chart: chart)) }
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        return output
    }

    func deliver(_ event: InspectorEvent) async -> InspectorError? {
        guard let made = make?(event.name, event.data) else { return Self.unknown(event) }
        do {
            _ = try await machine.send(made)
            return nil
        } catch {
            return InspectorError("\(error)", status: 422)
        }
    }
}
#endif
