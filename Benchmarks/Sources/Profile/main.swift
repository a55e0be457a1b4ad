import BenchmarkCharts
import Statecharts

// Runs one benchmark case in a plain loop, for profilers:
//   Profile CASE [EVENTS]
//   valgrind --tool=callgrind .build/release/Profile parallel-4 100000

@inline(never)
func run(_ name: String, _ count: Int) throws {
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
    default:
        print("unknown case \(name)")
    }
}

let arguments = CommandLine.arguments.dropFirst()
let name = arguments.first ?? "flat-3"
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let start = ContinuousClock.now
try run(name, count)
print(name, (ContinuousClock.now - start) / count, "per event")
