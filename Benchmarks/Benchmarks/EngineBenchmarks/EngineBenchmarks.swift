import Benchmark
import BenchmarkCharts
import Statecharts

// Each case is a pair, `statechart/NAME` and `baseline/NAME`: the same machine as a Statechart and
// as a hand-written `switch`, fed the same events in the same run. Every iteration sends
// `eventsPerIteration` events, so that the time of an iteration in microseconds reads as
// nanoseconds per event; `Scripts/benchmark.sh` prints the ratios.

let eventsPerIteration = 1_000_000

/// The ECMAScript counter's events per iteration: as many as `Benchmarks/Qt/qt-benchmark.cpp`
/// sends each machine it times (BenchmarkReport divides by the same number).
let counterEventsPerIteration = 200_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 2, scalingFactor: .one,
        maxDuration: .seconds(3), maxIterations: 25)

    // MARK: Flat

    Benchmark("statechart/flat-3") { benchmark in
        var machine = try makeLightChart().makeMachine()
        try machine.start()
        benchmark.startMeasurement()
        for _ in 0..<eventsPerIteration { try machine.send(.next) }
        benchmark.stopMeasurement()
        blackHole(machine.activeStates)
    }
    Benchmark("baseline/flat-3") { benchmark in
        var machine = SwitchLight()
        for _ in 0..<eventsPerIteration { machine.send(.next) }
        benchmark.stopMeasurement()
        blackHole(machine.state)
    }

    Benchmark("statechart/flat-20x10") { benchmark in
        var machine = try makeStationChart().makeMachine()
        try machine.start()
        let events = stationEvents
        benchmark.startMeasurement()
        for index in 0..<eventsPerIteration { try machine.send(events[index & 1023]) }
        benchmark.stopMeasurement()
        blackHole(machine.activeStates)
    }
    Benchmark("baseline/flat-20x10") { benchmark in
        var machine = SwitchStation()
        let events = stationEvents
        for index in 0..<eventsPerIteration { machine.send(events[index & 1023]) }
        benchmark.stopMeasurement()
        blackHole(machine.state)
    }

    // MARK: Hierarchical

    Benchmark("statechart/hierarchy-5") { benchmark in
        var machine = try makeDeepChart().makeMachine()
        try machine.start()
        benchmark.startMeasurement()
        for _ in 0..<eventsPerIteration { try machine.send(.hop) }
        benchmark.stopMeasurement()
        blackHole(machine.activeStates)
    }
    Benchmark("baseline/hierarchy-5") { benchmark in
        var machine = SwitchDeep()
        for _ in 0..<eventsPerIteration { machine.send(.hop) }
        benchmark.stopMeasurement()
        blackHole(machine.state)
    }

    // MARK: Parallel

    Benchmark("statechart/parallel-4") { benchmark in
        var machine = try makeQuadChart().makeMachine()
        try machine.start()
        benchmark.startMeasurement()
        for _ in 0..<eventsPerIteration { try machine.send(.flip) }
        benchmark.stopMeasurement()
        blackHole(machine.activeStates)
    }
    Benchmark("baseline/parallel-4") { benchmark in
        var machine = SwitchQuad()
        for _ in 0..<eventsPerIteration { machine.send(.flip) }
        benchmark.stopMeasurement()
        blackHole(machine.regions)
    }

    // MARK: Guards and actions on the context

    Benchmark("statechart/guards-actions") { benchmark in
        var machine = try makeTurnstileChart().makeMachine(context: Turnstile())
        try machine.start()
        let events = turnstileEvents
        benchmark.startMeasurement()
        for index in 0..<eventsPerIteration { try machine.send(events[index & 1023]) }
        benchmark.stopMeasurement()
        blackHole(machine.context.passes)
    }
    Benchmark("baseline/guards-actions") { benchmark in
        var machine = SwitchTurnstile()
        let events = turnstileEvents
        for index in 0..<eventsPerIteration { machine.send(events[index & 1023]) }
        benchmark.stopMeasurement()
        blackHole(machine.context.passes)
    }

    // MARK: Payloads

    Benchmark("statechart/payload") { benchmark in
        var machine = try makeTallyChart().makeMachine(context: Tally())
        try machine.start()
        let events = tallyEvents
        benchmark.startMeasurement()
        for index in 0..<eventsPerIteration { try machine.send(events[index & 1023]) }
        benchmark.stopMeasurement()
        blackHole(machine.context.total)
    }
    Benchmark("baseline/payload") { benchmark in
        var machine = SwitchTally()
        let events = tallyEvents
        for index in 0..<eventsPerIteration { machine.send(events[index & 1023]) }
        benchmark.stopMeasurement()
        blackHole(machine.tally.total)
    }

    // MARK: Timers

    Benchmark("statechart/timeout-arm-cancel") { benchmark in
        var machine = try makeWatchChart().makeMachine()
        try machine.start()
        benchmark.startMeasurement()
        for index in 0..<eventsPerIteration { try machine.send(index & 1 == 0 ? .wait : .poke) }
        benchmark.stopMeasurement()
        blackHole(machine.activeStates)
    }
    Benchmark("baseline/timeout-arm-cancel") { benchmark in
        var machine = SwitchWatch()
        for index in 0..<eventsPerIteration { machine.send(index & 1 == 0 ? .wait : .poke) }
        benchmark.stopMeasurement()
        blackHole(machine.state)
    }

    // MARK: The media player, generated from its document

    // The same player generated (plugin), written with the DSL, interpreted, and as a `switch`, fed
    // the same cycle of ten events. The interpreter is sent a tenth as many events per iteration.

    Benchmark("player/generated") { benchmark in
        var player = try CompiledPlayer.generated()
        benchmark.startMeasurement()
        var index = 0
        for _ in 0..<eventsPerIteration {
            try player.send(index)
            index = index == playerCycleLength - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        blackHole(player.description)
    }
    Benchmark("player/written") { benchmark in
        var player = try CompiledPlayer.written()
        benchmark.startMeasurement()
        var index = 0
        for _ in 0..<eventsPerIteration {
            try player.send(index)
            index = index == playerCycleLength - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        blackHole(player.description)
    }
    Benchmark("player/timed") { benchmark in
        var player = try CompiledPlayer.timed()
        benchmark.startMeasurement()
        var index = 0
        for _ in 0..<eventsPerIteration {
            try player.send(index)
            index = index == playerCycleLength - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        blackHole(player.description)
    }
    Benchmark("player/interpreted") { benchmark in
        var player = try InterpretedPlayer()
        benchmark.startMeasurement()
        var index = 0
        for _ in 0..<eventsPerIteration / 10 {
            try player.send(index)
            index = index == playerCycleLength - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        blackHole(player.description)
    }
    Benchmark("baseline/player") { benchmark in
        var player = SwitchPlayer()
        var index = 0
        for _ in 0..<eventsPerIteration {
            player.send(index)
            index = index == playerCycleLength - 1 ? 0 : index + 1
        }
        benchmark.stopMeasurement()
        blackHole(player.isStopped)
    }

    // MARK: The ECMAScript counter

    // Benchmarks/Documents/ecmascript-counter.scxml interpreted on ECMAScriptDataModel, every event
    // a `cond` and an `<assign>`, and the same counter as hand-written Swift. Qt SCXML's figure for
    // the document is in the same run's report. Each iteration starts a new session and sends it
    // `counterEventsPerIteration` events, as many as Qt's harness sends each new machine, so that
    // both amortise the start and the JavaScript engine's warming up over the same run.

    Benchmark(
        "ecmascript/counter",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1, scalingFactor: .one,
            maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark in
        var counter = try ECMAScriptCounter()
        benchmark.startMeasurement()
        for _ in 0..<counterEventsPerIteration { try counter.send() }
        benchmark.stopMeasurement()
        try counter.check(afterTicks: counterEventsPerIteration)
        blackHole(counter.description)
    }
    Benchmark("baseline/counter") { benchmark in
        var counter = SwitchCounter()
        for _ in 0..<eventsPerIteration { counter.send() }
        benchmark.stopMeasurement()
        blackHole(counter.count)
    }

    // MARK: Live machines

    // The two-state toggle and the deep hop, each bare (`StateMachine.send`), in an
    // `IsolatedStatechart` on the main actor (with and without a view observing it), and in a
    // `StatechartActor` awaited from another task; beside an empty actor call (a method of the same
    // shape, not inlined) and the toggle's `switch`.

    Benchmark("bare/toggle") { benchmark in
        var machine = try makeToggleChart().makeMachine()
        try machine.start()
        benchmark.startMeasurement()
        for _ in 0..<eventsPerIteration { try machine.send(.flick) }
        benchmark.stopMeasurement()
        blackHole(machine.activeStates)
    }
    Benchmark("baseline/toggle") { benchmark in
        var machine = SwitchToggle()
        for _ in 0..<eventsPerIteration { machine.send(.flick) }
        benchmark.stopMeasurement()
        blackHole(machine.state)
    }
    Benchmark("baseline/empty-actor") { _ in
        blackHole(try await callEmptyActor(count: eventsPerIteration))
    }
    liveBenchmarks("toggle", chart: { try makeToggleChart() }, event: Flick.flick)
    liveBenchmarks("hierarchy", chart: { try makeDeepChart() }, event: Hop.hop)

    // The watchdog's events through an `IsolatedStatechart`: each `wait` arms the machine's entry in
    // a timer wheel on the real clock and each `poke` cancels it.
    Benchmark("live/timeout-arm-cancel") { _ in
        try await LiveWatchDriver().armAndCancel(events: eventsPerIteration)
    }

    Benchmark(
        "live/instances-100k",
        configuration: .init(metrics: [.wallClock, .mallocBytesCount], scalingFactor: .one, maxIterations: 5)
    ) { benchmark in
        let chart = try makeTickerChart()
        let timers = TimerWheel(clock: ContinuousClock())
        benchmark.startMeasurement()
        let machines = try await makeLiveMachines(100_000, chart: chart, timers: timers)
        benchmark.stopMeasurement()
        blackHole(machines)
    }

    // MARK: Instances

    for count in [100_000, 1_000_000] {
        let label = count == 100_000 ? "100k" : "1M"
        Benchmark(
            "statechart/instances-\(label)",
            configuration: .init(metrics: [.wallClock, .mallocBytesCount], scalingFactor: .one, maxIterations: 10)
        ) { benchmark in
            let chart = try makeLightChart()
            benchmark.startMeasurement()
            let machines = try makeStartedMachines(count, of: chart)
            benchmark.stopMeasurement()
            blackHole(machines)
        }
        Benchmark(
            "baseline/instances-\(label)",
            configuration: .init(metrics: [.wallClock, .mallocBytesCount], scalingFactor: .one, maxIterations: 10)
        ) { benchmark in
            var machines: [SwitchLight] = []
            machines.reserveCapacity(count)
            for _ in 0..<count { machines.append(SwitchLight()) }
            benchmark.stopMeasurement()
            blackHole(machines)
        }
    }
}

/// The live rows of a chart: an `IsolatedStatechart` unobserved and observed, and a
/// `StatechartActor`, each sent `eventsPerIteration` events of `event`.
func liveBenchmarks<State: Hashable & Sendable, Event: StatechartEvent & Sendable>(
    _ name: String, chart: @escaping @Sendable () throws -> Statechart<State, Event, Void>, event: Event
) where Event.Kind: Hashable & Sendable {
    Benchmark("live/\(name)") { _ in
        blackHole(
            try await MainActor.run { try sendToIsolatedStatechart(chart(), event: event, count: eventsPerIteration) })
    }
    Benchmark("live/\(name)-observed") { _ in
        blackHole(
            try await MainActor.run {
                try sendToIsolatedStatechart(chart(), event: event, count: eventsPerIteration, observed: true)
            })
    }
    Benchmark("actor/\(name)") { _ in
        blackHole(try await sendToStatechartActor(chart(), event: event, count: eventsPerIteration))
    }
}
