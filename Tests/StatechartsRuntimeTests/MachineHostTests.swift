import Statecharts
import Testing

/// One host type for every typed machine: the machine, a clock it follows and a router its effects
/// leave through. A clock of the app's own drives it as the live wheel and the manual clock do.
@Suite("The machine host")
struct MachineHostTests {
    enum Phase: Hashable, Sendable { case idle, waiting, done, spinning }
    enum Signal: StatechartEvent, CaseIterable { case go, spin }

    /// `go` enters `waiting`, which logs and times out after 5 s into `done`; `spin` enters a state
    /// that re-enters itself for ever, logging each time.
    static func chart() throws -> Statechart<Phase, Signal, Void> {
        try Statechart<Phase, Signal, Void>(initial: .idle) {
            StateNode(.idle) {
                On(.go, to: .waiting)
                On(.spin, to: .spinning)
            }
            StateNode(.waiting) {
                OnEntry { $0.log("waiting") }
                After(.seconds(5), to: .done)
            }
            StateNode(.done)
            StateNode(.spinning) {
                OnEntry { $0.log("spinning") }
                Always(to: .spinning)
            }
        }
    }

    /// A clock whose time the test sets, which records every wake-up it is asked for.
    struct SetClock: HostClock {
        var now: Duration = .zero
        var wakeUps: [Int64] = []
        var beganSteps = 0

        func beginStep<State, Event, Context, Observer: MachineObserver>(
            _ machine: inout StateMachine<State, Event, Context>, observer: inout Observer
        ) throws(MachineError<State, Event>) where Observer.State == State, Observer.Event == Event {
            try machine.advance(to: now, observer: &observer)
        }

        var isWaiting: Bool { (wakeUps.last ?? .max) != .max }

        mutating func wake(atNanoseconds deadline: Int64) { wakeUps.append(deadline) }
    }

    /// Keeps the logs.
    struct LogRouter: EffectRouter {
        typealias State = Phase
        typealias Event = Signal
        typealias Context = Void
        var logs: [String] = []

        mutating func log(_ record: MachineLog) { logs.append(record.message) }
    }

    @Test("a clock of the app's own: each step begins at its time, and it is told the next deadline after each step")
    func ownClock() throws {
        var host = MachineHost(
            machine: try Self.chart().makeMachine(context: ()), router: LogRouter(), clock: SetClock())
        try host.start()
        #expect(host.clock.wakeUps.isEmpty, "a machine with nothing pending is not settled")

        host.clock.now = .seconds(1)
        try host.send(.go)
        #expect(host.machine.now == .seconds(1))
        #expect(host.router.logs == ["waiting"])
        #expect(host.clock.wakeUps == [Duration.seconds(6).nanosecondsForTest], "the timeout, in machine time")

        // Time passes on the clock: the next step begins by firing the timeout.
        host.clock.now = .seconds(7)
        try host.catchUp()
        #expect(host.machine.activeStates == [.done])
        #expect(host.clock.wakeUps.last == .max, "nothing is due once the timeout fired")
    }

    @Test("a step that throws is settled first: what it did before it failed is routed, then its error is thrown")
    func settledWhenThrowing() throws {
        var host = MachineHost(machine: try Self.chart().makeMachine(context: ()), router: LogRouter())
        try host.start()
        #expect(throws: MachineError<Phase, Signal>.self) { try host.send(.spin) }
        #expect(host.router.logs.count > 1, "the entries logged before the microstep limit reached the router")
        #expect(host.router.logs.allSatisfy { $0 == "spinning" })
    }

    @Test(
        "on a manual clock, time moves only when told: advancing fires the timers due by then, catching up only settles"
    )
    func manualClock() throws {
        var host = MachineHost(machine: try Self.chart().makeMachine(context: ()), router: LogRouter())
        #expect(host.clock == ManualClock())
        try host.start()
        try host.send(.go)
        try host.catchUp()
        #expect(host.machine.activeStates == [.waiting])
        try host.advance(by: .seconds(4))
        #expect(host.machine.activeStates == [.waiting])
        try host.advance(by: .seconds(1))
        #expect(host.machine.activeStates == [.done])
        #expect(host.machine.now == .seconds(5))
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    fileprivate var nanosecondsForTest: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
