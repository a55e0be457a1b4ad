import Clocks
import Foundation
import Statecharts
import StatechartsBluetooth
import StatechartsTesting
import Testing

// The examples of the article "Testing a statechart": the media player and the Bluetooth
// connection tested exhaustively, generated paths, and coverage.

// MARK: - The media player, exhaustively

@Suite("Testing a statechart: the media player")
struct PlayerTesterExamples {
    @Test("playing, scrubbing and stopping, every change and every timer asserted")
    func playScrubStop() throws {
        let tester = try MachineTester(makePlayerChart(), context: Track(duration: 180))

        try tester.send(.play) { $0.configuration = [.playing] }
        tester.expect(.armed("after.1000ms.playing", dueIn: .seconds(1)))

        try tester.advance(by: .seconds(2)) { $0.context.position = 2 }
        tester.expect(
            .fired("after.1000ms.playing"), .armed("after.1000ms.playing", dueIn: .seconds(1)),
            .fired("after.1000ms.playing"), .armed("after.1000ms.playing", dueIn: .seconds(1)))

        try tester.send(.scrubBegan) { $0.configuration = [.held] }
        tester.expect(.cancelledTimer("after.1000ms.playing"))

        try tester.send(.scrubMoved(to: 60)) {
            $0.configuration = [.dragging]
            $0.context.position = 60
        }

        try tester.send(.scrubEnded) { $0.configuration = [.playing] }
        tester.expect(.armed("after.1000ms.playing", dueIn: .seconds(1)))

        try tester.send(.stop) {
            $0.configuration = [.stopped]
            $0.context.position = 0
        }
        tester.expect(.cancelledTimer("after.1000ms.playing"))
        tester.finish()
    }

    @Test("the article's failures: a wrong position, and a timer left unasserted")
    func failures() throws {
        let tester = try MachineTester(makePlayerChart(), context: Track(duration: 180))
        try tester.send(.play) { $0.configuration = [.playing] }
        tester.expect(.armed("after.1000ms.playing", dueIn: .seconds(1)))
        try withKnownIssue {
            try tester.advance(by: .seconds(1)) { $0.context.position = 2 }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("−     position: 2.0") && text.contains("+     position: 1.0")
        }
        withKnownIssue {
            tester.finish()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("effects not asserted: [fired(after.1000ms.playing), armed(")
                || text.contains("timers pending: [after.1000ms.playing at 2.0 seconds (timeout of playing)]")
        }
    }
}

// MARK: - The Bluetooth connection, exhaustively

/// What a test of the connection's chart compares: the context's values that matter, and
/// whether the central is scanning.
struct LinkView: Equatable {
    var power: CentralState
    var peripheral: PeripheralID?
    var failure: ConnectionFailure?
    var isScanning: Bool
}

@Suite("Testing a statechart: the Bluetooth connection")
struct ConnectionTesterExamples {
    @Test("a device that never answers the connection is given up after five seconds")
    func connectionTimeout() throws {
        let configuration = ConnectionConfiguration(
            service: "FFE0", writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2")
        let central = SimulatedCentral(clock: TestClock(), peripherals: [])
        let context = ConnectionContext(
            central: central, memory: InMemoryPeripheralMemory(), configuration: configuration,
            messenger: Messenger(maximumMessageLength: 1024, replyTimeout: .seconds(3), clock: TestClock()),
            now: { .zero })
        let tester = try MachineTester(
            machine: ConnectionChart.make(configuration).makeMachine(context: context),
            observing: { context in
                LinkView(
                    power: context.power, peripheral: context.peripheral, failure: context.failure,
                    isScanning: central.isScanning)
            })
        let thermometer = PeripheralID(UUID())

        try tester.send(.stateChanged(.poweredOn)) {
            $0.configuration = [.idle]
            $0.context.power = .poweredOn
        }

        try tester.send(.pair) {
            $0.configuration = [.scanning]
            $0.context.isScanning = true
        }
        tester.expect(.armed("after.10000ms.scanning", dueIn: .seconds(10)))

        try tester.send(.discovered(thermometer, Advertisement(localName: "Thermometer"), rssi: -50)) {
            $0.configuration = [.connecting]
            $0.context.peripheral = thermometer
            $0.context.isScanning = false
        }
        tester.expect(
            .cancelledTimer("after.10000ms.scanning"), .armed("after.5000ms.connecting", dueIn: .seconds(5)))

        try tester.advance(by: .seconds(5)) {
            $0.configuration = [.disconnected]
            $0.context.failure = .connectTimedOut
        }
        tester.expect(.fired("after.5000ms.connecting"))
        tester.finish()
    }
}

// MARK: - Generated paths

nonisolated enum SignIn: Hashable, Sendable { case form, checking, signedIn, lockedOut }
nonisolated enum SignInEvent: StatechartEvent, CaseIterable { case submit, accepted, rejected, signOut }
nonisolated struct Attempts: Hashable, Sendable { var failures = 0 }

/// A sign-in form: the third rejection in a row locks the user out for a minute, and a check
/// that takes ten seconds gives up.
nonisolated func makeSignInChart() throws -> Statechart<SignIn, SignInEvent, Attempts> {
    try Statechart<SignIn, SignInEvent, Attempts>("sign-in", initial: .form) {
        StateNode(.form) { On(.submit, to: .checking) }
        StateNode(.checking) {
            On(.accepted, to: .signedIn) { $0.context.failures = 0 }
            On(.rejected, to: .lockedOut, guard: { $0.context.failures >= 2 })
            On(.rejected, to: .form) { $0.context.failures += 1 }
            After(.seconds(10), to: .form)
        }
        StateNode(.signedIn) { On(.signOut, to: .form) }
        StateNode(.lockedOut) {
            After(.seconds(60), to: .form) { $0.context.failures = 0 }
        }
    }
}

nonisolated let signInPaths = (try? makeSignInChart())?.paths(covering: .transitions, context: Attempts()) ?? []

@Suite("Testing a statechart: generated paths")
struct GeneratedPathExamples {
    @Test("each transition of the sign-in form, on a path of its own", arguments: signInPaths)
    func followPath(_ path: ChartPath<SignIn, SignInEvent>) throws {
        var signIn = try makeSignInChart().makeMachine(context: Attempts())
        try signIn.start()
        try signIn.follow(path)
        #expect(signIn.configuration == path.configuration)
        #expect(signIn.context.failures <= 2)
    }

    @Test("the paths, as the article prints them, take every transition")
    func printedPaths() throws {
        let chart = try makeSignInChart()
        for path in chart.paths(covering: .transitions, context: Attempts()) {
            print(path)
        }
        #expect(
            signInPaths.map(\.description) == [
                "submit, wait 10s → [form]",
                "submit, accepted, signOut → [form]",
                "submit, rejected, submit, rejected, submit, rejected, wait 60s → [form]",
            ])
        let taken = Set(signInPaths.flatMap { $0.transitions.map(\.id) })
        #expect(taken == Set(chart.allTransitions.map(\.id)))
    }

    @Test("the transition cover takes every transition of the media player")
    func playerCover() throws {
        let chart = try makePlayerChart()
        let search = try chart.searchPaths(
            covering: .transitions, context: Track(duration: 180),
            events: [.play, .pause, .stop, .scrubBegan, .scrubMoved(to: 60), .scrubEnded])
        #expect(search.unreached.isEmpty)
        let taken = Set(search.paths.flatMap { $0.transitions.map(\.id) })
        #expect(taken == Set(chart.allTransitions.map(\.id)))
        for path in search.paths {
            var player = chart.makeMachine(context: Track(duration: 180))
            try player.start()
            try player.follow(path)
            #expect(player.configuration == path.configuration, "\(path)")
        }
    }
}

// MARK: - Coverage

@Suite("Testing a statechart: coverage")
struct CoverageExamples {
    @Test("what a run of the player left out")
    func playerCoverage() throws {
        let chart = try makePlayerChart()
        var observer = CoverageObserver<Player, PlayerEvent>()
        var player = chart.makeMachine(context: Track(duration: 180))
        try player.start(observer: &observer)
        try player.send(.play, observer: &observer)
        try player.send(.pause, observer: &observer)
        try player.send(.stop, observer: &observer)

        let coverage = ChartCoverage(chart, named: "player", record: observer.record)
        print(coverage.lines.joined(separator: "\n"))

        #expect(coverage.lines.first == "player: states 5/8, transitions 3/9, delayed events 0/1")
        #expect(coverage.transitions.missed.contains { $0.hasPrefix("playing after 1.0 seconds → playing") })
        #expect(coverage.states.missed.contains { $0.hasPrefix("dragging") })
    }
}
