import Statecharts

// Live machines: the runtime around a machine (clock, timer wheel), measured from an actor as an
// app would use it.

/// Drives an ``IsolatedStatechart`` of the watchdog on its own actor.
public actor LiveWatchDriver {
    /// A driver with nothing running.
    public init() {}

    /// Sends `events` events alternating `wait` (arms the timeout) and `poke` (cancels it).
    public func armAndCancel(events: Int) throws {
        let machine = IsolatedStatechart(try makeWatchChart(), timers: TimerWheel(clock: ContinuousClock()))
        try machine.start()
        for index in 0..<events { try machine.send(index & 1 == 0 ? .wait : .poke) }
    }
}

/// A chart whose only state re-arms a timeout of `period` each time it fires.
public func makeTickerChart(every period: Duration = .seconds(1)) throws -> Statechart<Watch, Poke, Int> {
    try Statechart<Watch, Poke, Int>(initial: .waiting) {
        StateNode(.waiting) {
            After(period, to: .waiting) { $0.context &+= 1 }
        }
    }
}

/// Makes `count` started actors of `chart`, each with its timeout armed on `timers`.
public func makeLiveMachines(
    _ count: Int, chart: Statechart<Watch, Poke, Int>, timers: TimerWheel
) async throws -> [StatechartActor<Watch, Poke, Int>] {
    var machines: [StatechartActor<Watch, Poke, Int>] = []
    machines.reserveCapacity(count)
    for _ in 0..<count {
        let machine = StatechartActor(chart, context: 0, timers: timers)
        try await machine.start()
        machines.append(machine)
    }
    return machines
}
