import BenchmarkCharts
import Foundation
import Statecharts
import StatechartsSCXML

// Runs one benchmark case in a plain loop, for profilers:
//   Profile CASE [EVENTS]
//   valgrind --tool=callgrind .build/release/Profile statechart/parallel-4 100000
//   Profile list        the cases Scripts/benchmark.sh --instructions counts
//
// The program is synchronous (top-level code on the main actor): an `async` main parks the main
// thread in `dispatch_main`, which valgrind 3.19 does not survive. Cases that need a task run in
// one while the main thread waits.

/// Runs `work` in a task and waits for it on this thread.
func wait(_ work: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Failure()
    Task.detached {
        do { try await work() } catch { failure.error = "\(error)" }
        done.signal()
    }
    done.wait()
    if let error = failure.error { throw ProfileError(message: error) }
}

final class Failure: @unchecked Sendable {
    var error: String?
}

struct ProfileError: Error {
    var message: String
}

/// The cases that `Scripts/benchmark.sh --instructions` counts, named as the benchmarks are.
let instructionCases = [
    "statechart/flat-3", "baseline/flat-3", "statechart/flat-20x10", "baseline/flat-20x10",
    "statechart/hierarchy-5", "baseline/hierarchy-5", "statechart/parallel-4", "baseline/parallel-4",
    "statechart/guards-actions", "baseline/guards-actions", "statechart/payload", "baseline/payload",
    "statechart/timeout-arm-cancel", "baseline/timeout-arm-cancel", "bare/toggle", "baseline/toggle",
    "live/toggle", "live/toggle-observed", "actor/toggle", "baseline/empty-actor", "live/hierarchy",
    "live/hierarchy-observed", "actor/hierarchy", "live/timeout-arm-cancel", "player/generated", "player/written",
    "player/closures", "player/timed", "player/interpreted", "baseline/player", "system/rally", "ecmascript/counter",
    "baseline/counter",
]

@MainActor
func run(_ name: String, _ count: Int) throws {
    switch name {
    case "list":
        print(instructionCases.joined(separator: "\n"))
    case "statechart/flat-3":
        var machine = try makeLightChart().makeMachine()
        try machine.start()
        for _ in 0..<count { try machine.send(.next) }
        print(machine)
    case "baseline/flat-3":
        var machine = SwitchLight()
        for _ in 0..<count { machine.send(.next) }
        print(machine.state)
    case "statechart/flat-20x10":
        var machine = try makeStationChart().makeMachine()
        try machine.start()
        let events = stationEvents
        for index in 0..<count { try machine.send(events[index & 1023]) }
        print(machine)
    case "baseline/flat-20x10":
        var machine = SwitchStation()
        let events = stationEvents
        for index in 0..<count { machine.send(events[index & 1023]) }
        print(machine.state)
    case "statechart/hierarchy-5":
        var machine = try makeDeepChart().makeMachine()
        try machine.start()
        for _ in 0..<count { try machine.send(.hop) }
        print(machine)
    case "baseline/hierarchy-5":
        var machine = SwitchDeep()
        for _ in 0..<count { machine.send(.hop) }
        print(machine.state)
    case "statechart/parallel-4":
        var machine = try makeQuadChart().makeMachine()
        try machine.start()
        for _ in 0..<count { try machine.send(.flip) }
        print(machine)
    case "baseline/parallel-4":
        var machine = SwitchQuad()
        for _ in 0..<count { machine.send(.flip) }
        print(machine.regions)
    case "statechart/guards-actions":
        var machine = try makeTurnstileChart().makeMachine(context: Turnstile())
        try machine.start()
        let events = turnstileEvents
        for index in 0..<count { try machine.send(events[index & 1023]) }
        print(machine, machine.context.passes)
    case "baseline/guards-actions":
        var machine = SwitchTurnstile()
        let events = turnstileEvents
        for index in 0..<count { machine.send(events[index & 1023]) }
        print(machine.context.passes)
    case "statechart/payload":
        var machine = try makeTallyChart().makeMachine(context: Tally())
        try machine.start()
        let events = tallyEvents
        for index in 0..<count { try machine.send(events[index & 1023]) }
        print(machine, machine.context.total)
    case "baseline/payload":
        var machine = SwitchTally()
        let events = tallyEvents
        for index in 0..<count { machine.send(events[index & 1023]) }
        print(machine.tally.total)
    case "statechart/timeout-arm-cancel":
        var machine = try makeWatchChart().makeMachine()
        try machine.start()
        for index in 0..<count { try machine.send(index & 1 == 0 ? .wait : .poke) }
        print(machine)
    case "baseline/timeout-arm-cancel":
        var machine = SwitchWatch()
        for index in 0..<count { machine.send(index & 1 == 0 ? .wait : .poke) }
        print(machine.state)
    case "player/generated":
        var player = try CompiledPlayer.generated()
        for index in 0..<count { try player.send(index % playerCycleLength) }
        print(player)
    case "player/written":
        var player = try CompiledPlayer.written()
        for index in 0..<count { try player.send(index % playerCycleLength) }
        print(player)
    case "player/closures":
        var player = try CompiledPlayer.closures()
        for index in 0..<count { try player.send(index % playerCycleLength) }
        print(player)
    case "player/timed":
        var player = try CompiledPlayer.timed()
        for index in 0..<count { try player.send(index % playerCycleLength) }
        print(player)
    case "player/interpreted":
        var player = try InterpretedPlayer()
        for index in 0..<count { try player.send(index % playerCycleLength) }
        print(player)
    case "ecmascript/counter":
        var counter = try ECMAScriptCounter()
        for _ in 0..<count { try counter.send() }
        try counter.check(afterTicks: count)
        print(counter)
    case "baseline/counter":
        var counter = SwitchCounter()
        for _ in 0..<count { counter.send() }
        print(counter.count)
    case "baseline/player":
        var player = SwitchPlayer()
        for index in 0..<count { player.send(index % playerCycleLength) }
        print(player.isStopped)
    case let chart where chart.hasPrefix("uscxml/"):
        // COUNT microsteps of one of uSCXML's charts (../shared/benchmarks/uscxml), as Ratios
        // runs them: the pure machine, started with a microstep limit.
        let name = String(chart.dropFirst("uscxml/".count))
        var machine = USCXMLCharts.makeMachine(try SCXMLChart.load(contentsOf: USCXMLCharts.file(name)))
        try USCXMLCharts.run(&machine, microsteps: count)
        print(machine.activeStates)
    case "construct":
        let machines = try makeStartedMachines(count, of: try makeLightChart())
        print(machines.count, MemoryLayout<StateMachine<Light, Tick, Void>>.stride, "bytes inline")
    case "bare/toggle":
        print(try sendToBareMachine(makeToggleChart(), event: .flick, count: count))
    case "baseline/toggle":
        var machine = SwitchToggle()
        for _ in 0..<count { machine.send(.flick) }
        print(machine.state)
    case "live/toggle":
        print(try sendToIsolatedStatechart(makeToggleChart(), event: .flick, count: count))
    case "live/toggle-observed":
        print(try sendToIsolatedStatechart(makeToggleChart(), event: .flick, count: count, observed: true))
    case "actor/toggle":
        try wait { print(try await sendToStatechartActor(makeToggleChart(), event: .flick, count: count)) }
    case "live/hierarchy":
        print(try sendToIsolatedStatechart(makeDeepChart(), event: .hop, count: count))
    case "live/hierarchy-observed":
        print(try sendToIsolatedStatechart(makeDeepChart(), event: .hop, count: count, observed: true))
    case "actor/hierarchy":
        try wait { print(try await sendToStatechartActor(makeDeepChart(), event: .hop, count: count)) }
    case "baseline/empty-actor":
        try wait { print(try await callEmptyActor(count: count)) }
    case "system/rally":
        try wait { try await rallyBetweenActors(count: count) }
    case "live/timeout-arm-cancel":
        try wait { try await LiveWatchDriver().armAndCancel(events: count) }
    case "bytes":
        try wait { try await measureBytes(count) }
    case "million":
        try wait { try await holdLiveMachines(count) }
    default:
        print("unknown case \(name)")
    }
}

/// Resident bytes, for the differences below.
func heapBytes() -> Int { residentBytes() }

/// Bytes per live machine, by what it holds: the actor alone, started, with a timeout armed.
func measureBytes(_ count: Int) async throws {
    let chart = try makeTickerChart(every: .seconds(3600))
    let idle = try makeToggleChart()
    var actors: [StatechartActor<Toggle, Flick, Void>] = []
    actors.reserveCapacity(count)
    var tickers: [StatechartActor<Watch, Poke, Int>] = []
    tickers.reserveCapacity(count)
    var base = heapBytes()
    for _ in 0..<count { actors.append(StatechartActor(idle)) }
    print("actor made:", (heapBytes() - base) / count, "bytes")
    base = heapBytes()
    for actor in actors { try await actor.start() }
    print("started, no timer:", (heapBytes() - base) / count, "more bytes")
    base = heapBytes()
    for _ in 0..<count { tickers.append(StatechartActor(chart, context: 0)) }
    let made = heapBytes()
    for ticker in tickers { try await ticker.start() }
    print(
        "ticker made:", (made - base) / count, "bytes; started with a timeout armed:", (heapBytes() - made) / count,
        "more bytes")
    withExtendedLifetime((actors, tickers)) {}
}

/// Resident memory of this process, in bytes (Linux).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * 4096
}

/// Holds `count` live machines on the real clock, each re-arming a ten-second timeout, for 25
/// seconds after the last is made; prints the memory per machine, and how many timeouts fired of
/// those due: each machine tells, at one moment, how many fired and how long it has run.
func holdLiveMachines(_ count: Int) async throws {
    let period = Duration.seconds(10)
    let chart = try makeTickerChart(every: period)
    let before = residentBytes()
    let clock = ContinuousClock()
    let started = clock.now
    let machines = try await makeLiveMachines(count, chart: chart, timers: .continuous)
    let made = clock.now
    let after = residentBytes()
    print(count, "machines made in", made - started, "-", (made - started) / count, "each")
    print("resident memory:", (after - before) / count, "bytes per live machine with an armed timeout")
    try await Task.sleep(for: .seconds(25))
    var fired = 0
    var due = 0
    var latest = Duration.zero
    for machine in machines {
        let snapshot = await machine.snapshot
        fired += snapshot.context
        due += Int(snapshot.now / period)
        latest = max(latest, snapshot.now)
    }
    let behind = Double(due - fired) / Double(max(due, 1)) * 100
    print(
        "timeouts fired:", fired, "of", due, "due:", String(format: "%.2f", behind) + "% behind schedule",
        "(machines ran up to", latest, ")")
}

let arguments = CommandLine.arguments.dropFirst()
let name = arguments.first ?? "statechart/flat-3"
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let start = ContinuousClock.now
try run(name, count)
if name != "list" { print(name, (ContinuousClock.now - start) / count, "per event") }
