import BenchmarkCharts
import Foundation
import Statecharts

// Runs one benchmark case in a plain loop, for profilers:
//   Profile CASE [EVENTS]
//   valgrind --tool=callgrind .build/release/Profile parallel-4 100000

@inline(never)
func run(_ name: String, _ count: Int) async throws {
    switch name {
    case "flat-3":
        var machine = try makeLightChart().makeMachine()
        try machine.start()
        for _ in 0..<count { try machine.send(.next) }
        print(machine)
    case "flat-20x10":
        var machine = try makeStationChart().makeMachine()
        try machine.start()
        let events = stationEvents
        for index in 0..<count { try machine.send(events[index & 1023]) }
        print(machine)
    case "hierarchy-5":
        var machine = try makeDeepChart().makeMachine()
        try machine.start()
        for _ in 0..<count { try machine.send(.hop) }
        print(machine)
    case "parallel-4":
        var machine = try makeQuadChart().makeMachine()
        try machine.start()
        for _ in 0..<count { try machine.send(.flip) }
        print(machine)
    case "guards-actions":
        var machine = try makeTurnstileChart().makeMachine(context: Turnstile())
        try machine.start()
        let events = turnstileEvents
        for index in 0..<count { try machine.send(events[index & 1023]) }
        print(machine, machine.context.passes)
    case "payload":
        var machine = try makeTallyChart().makeMachine(context: Tally())
        try machine.start()
        let events = tallyEvents
        for index in 0..<count { try machine.send(events[index & 1023]) }
        print(machine, machine.context.total)
    case "timeout-arm-cancel":
        var machine = try makeWatchChart().makeMachine()
        try machine.start()
        for index in 0..<count { try machine.send(index & 1 == 0 ? .wait : .poke) }
        print(machine)
    case "construct":
        let chart = try makeLightChart()
        var machines: [StateMachine<Light, Tick, Void>] = []
        machines.reserveCapacity(count)
        for _ in 0..<count {
            var machine = chart.makeMachine()
            try machine.start()
            machines.append(machine)
        }
        print(machines.count, MemoryLayout<StateMachine<Light, Tick, Void>>.stride, "bytes inline")
    case "live-arm-cancel":
        try await LiveWatchDriver().armAndCancel(events: count)
    case "million":
        try await holdLiveMachines(count)
    default:
        print("unknown case \(name)")
    }
}

/// Resident memory of this process, in bytes (Linux).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * 4096
}

/// Holds `count` live machines on the real clock, each re-arming a ten-second timeout, for 25
/// seconds; prints the memory per machine and how many timeouts fired.
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
    for machine in machines { fired += await machine.snapshot.context }
    let elapsed = clock.now - made
    print("timeouts fired:", fired, "in", elapsed, "- expected about", Int(elapsed / period) * count)
}

let arguments = CommandLine.arguments.dropFirst()
let name = arguments.first ?? "flat-3"
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let start = ContinuousClock.now
try await run(name, count)
print(name, (ContinuousClock.now - start) / count, "per event")
