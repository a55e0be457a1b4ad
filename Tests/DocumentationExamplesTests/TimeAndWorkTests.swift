import Clocks
import Foundation
import Statecharts
import Testing

// The examples of the article "Time and work that belong to a state", as the article shows them.

nonisolated enum Link: Hashable, Sendable { case idle, scanning, connecting, connected, failed }

nonisolated enum LinkEvent: StatechartEvent, Sendable {
    case scan, found(String), connected, lost, retry

    enum Kind: CaseIterable, Sendable { case scan, found, connected, lost, retry }

    var kind: Kind {
        switch self {
        case .scan: .scan
        case .found: .found
        case .connected: .connected
        case .lost: .lost
        case .retry: .retry
        }
    }
}

nonisolated struct LinkContext: Sendable {
    var device: String?
}

/// What talks to the hardware; the tests use a fake one.
nonisolated protocol Radio: Sendable {
    func connect(to device: String) async throws
}

func linkChart(radio: some Radio) throws -> Statechart<Link, LinkEvent, LinkContext> {
    try Statechart(initial: .idle) {
        StateNode(.idle) { On(.scan, to: .scanning) }
        StateNode(.scanning) {
            After(.seconds(10), to: .failed)  // nothing found in time
            On(.found, to: .connecting) { scope in
                if case .found(let device) = scope.event { scope.context.device = device }
            }
        }
        StateNode(.connecting) {
            Invoke("connect") { context in
                try await radio.connect(to: context.device ?? "")
                return .connected
            } onError: { _ in
                .lost
            }
            After(.seconds(20), to: .failed)  // leaving the state also cancels the attempt
            On(.connected, to: .connected)
            On(.lost, to: .failed)
        }
        StateNode(.connected) { On(.lost, to: .scanning) }
        StateNode(.failed) { On(.retry, to: .scanning) }
    }
}

/// A radio that connects after `delay` on `clock` (at once without one, and only once `allowed` is
/// set with one), and remembers whether it was cancelled.
nonisolated struct FakeRadio: Radio {
    let clock: TestClock<Duration>
    let delay: Duration?
    var allowed: Flag?
    let cancelled = Flag()

    func connect(to device: String) async throws {
        // Real time passes while it waits: a test on the real clock decides when it connects.
        while let allowed, !allowed.isSet { try await Task.sleep(for: .milliseconds(5)) }
        guard let delay else { return }
        do {
            try await clock.sleep(for: delay)
        } catch {
            cancelled.set()
            throw error
        }
    }
}

@Suite("The article's link", .timeLimit(.minutes(1)))
struct TimeAndWorkTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    @Test("a bare machine in a MachineHost routes its invocation to the router the article writes")
    func routedByHand() throws {
        let chart = try linkChart(radio: FakeRadio(clock: TestClock(), delay: nil))
        struct LinkLog: EffectRouter {
            typealias State = Link
            typealias Context = LinkContext
            var started: [String] = []

            mutating func startInvocation(_ start: InvocationStart<Link, LinkEvent, LinkContext>) {
                started.append(start.name ?? "invocation")
            }
        }

        var host = MachineHost(machine: chart.makeMachine(context: LinkContext()), router: LinkLog())
        try host.start()
        try host.send(.scan)
        try host.send(.found("thermometer"))
        print(host.router.started)  // ["connect"]

        #expect(host.router.started == ["connect"])
        #expect(host.machine.activeStates == [.connecting])
        #expect(host.machine.context.device == "thermometer")
    }

    @Test("scanning gives up after ten seconds, on a test clock")
    func scanningGivesUpAfterTenSeconds() async throws {
        let radio = FakeRadio(clock: clock, delay: .seconds(1))
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let link = StatechartActor(try linkChart(radio: radio), context: LinkContext(), timers: timers)
        try await link.start()
        try await link.send(.scan)
        await clock.advance(by: .seconds(10))
        await timers.settle()
        #expect(await link.snapshot.activeStates == [.failed])
    }

    @Test("a slow connection is cancelled by the timeout")
    func aSlowConnectionIsCancelledByTheTimeout() async throws {
        let radio = FakeRadio(clock: clock, delay: .seconds(60))
        let link = StatechartActor(try linkChart(radio: radio), context: LinkContext(), timers: timers)
        try await link.start()
        try await link.send(.scan)
        try await link.send(.found("sensor"))
        await clock.advance(by: .seconds(20))
        await timers.settle()
        #expect(await link.snapshot.activeStates == [.failed])
        #expect(await eventually { radio.cancelled.isSet })
    }

    @Test("on the real clock, the snapshots show the link connecting, then connected")
    func realClock() async throws {
        var output: [String] = []
        // The radio connects once [connecting] has been printed: the order the article shows,
        // however slowly the machine runs.
        let printedConnecting = Flag()
        func print(_ items: Any...) {
            output.append(items.map { "\($0)" }.joined(separator: " "))
            if output.last == "[connecting]" { printedConnecting.set() }
        }
        let radio = FakeRadio(clock: clock, delay: nil, allowed: printedConnecting)

        let link = StatechartActor(try linkChart(radio: radio), context: LinkContext())
        try await link.start()
        try await link.send(.scan)
        try await link.send(.found("thermometer"))
        for await snapshot in await link.snapshots() {
            print(snapshot)  // [connecting], then [connected] when the radio has connected
            if !snapshot.isActive(.connecting) { break }  // connected, or failed
        }

        #expect(output == ["[connecting]", "[connected]"])
        #expect(!radio.cancelled.isSet)
    }

    @Test("the view model keeps the link on the main actor")
    @MainActor
    func viewModel() throws {
        let radio = FakeRadio(clock: clock, delay: nil)
        let model = try LinkModel(radio: radio)
        try model.scanTapped()
        #expect(model.link.configuration == [.scanning])
        #expect(model.link.isActive(.scanning))
    }
}

@MainActor
final class LinkModel {
    let link: IsolatedStatechart<Link, LinkEvent, LinkContext>

    init(radio: some Radio) throws {
        link = IsolatedStatechart(try linkChart(radio: radio), context: LinkContext())
        try link.start()
    }

    func scanTapped() throws { try link.send(.scan) }
}

// A delayed event sent on entry and cancelled on exit, written as data, as the article shows it.

nonisolated enum Playback: Hashable, Sendable { case playing, paused }

nonisolated enum PlaybackEvent: Hashable, Sendable, StatechartEvent { case tick, pause, play }

func playbackChart() throws -> Statechart<Playback, PlaybackEvent, Int> {
    try Statechart(initial: .playing) {
        StateNode(.playing) {
            OnEntry(send: .tick, after: .seconds(1), id: "tick")
            OnExit(cancel: "tick")
            On(.tick, to: .playing) { $0.context += 1 }
            On(.pause, to: .paused)
        }
        StateNode(.paused) { On(.play, to: .playing) }
    }
}

@Suite("Delayed events written as data")
struct DelayedEventsAsData {
    @Test("the tick comes every second while playing, and leaving the state cancels it")
    func ticks() throws {
        var machine = try playbackChart().makeMachine(context: 0)
        try machine.start()
        try machine.advance(by: .seconds(3))
        #expect(machine.context == 3)
        try machine.send(.pause)
        #expect(machine.pendingTimerCount == 0)
        try machine.advance(by: .seconds(5))
        #expect(machine.context == 3)
        try machine.send(.play)
        try machine.advance(by: .seconds(1))
        #expect(machine.context == 4)
    }
}
