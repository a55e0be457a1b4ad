import BenchmarkCharts
import Foundation
import Statecharts
import StatechartsSCXML

// The checklist's timed ratios, measured so that they hold from run to run on a shared machine:
// each case and its hand-written baseline run interleaved in this one process, many times, and
// the ratio is taken per repetition, against the baseline of the same repetition. A repetition
// places the machines anew, runs ten slices of 20,000 events of each side, alternating, and
// counts each side's median slice; a repetition during which a probe saw the host busy is
// measured again (HostProbe). Then uSCXML's charts, entries of `mark` per second on as many
// placements, which the report compares with uSCXML's published figures.
//
//   Ratios [--repetitions R]     (101 by default) writes one line per figure, tab-separated, to
//                                standard output: NAME, then the median, first quartile, third
//                                quartile, minimum and maximum of the per-repetition values, then
//                                the medians of the case's and the baseline's nanoseconds per
//                                event (or per machine). On standard error: how many
//                                repetitions were measured again.
//   Ratios --placements CASE N   instead, runs CASE alone on N fresh placements and prints how
//                                many took each whole nanosecond per event: a case whose time
//                                depends on where its data lands shows more than one mode.
//
// Scripts/benchmark.sh runs it and BenchmarkReport judges the checklist on what it writes (see
// Evolution/0003-performance.md, "Figures that hold").

/// Nanoseconds that `work` takes.
@inline(__always)
func nanoseconds(_ work: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try work()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
}

/// A case of the checklist and its baseline: `prepare` makes both afresh for a repetition, and
/// each of the blocks it returns sends `events` events (one slice).
struct Pair {
    let name: String
    let events: Int
    let prepare: () throws -> Blocks
}

/// One repetition's case and baseline.
struct Blocks {
    let statechart: () throws -> Void
    let baseline: () -> Void
}

/// Where a pair keeps its machine between blocks.
final class Held<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

// MARK: - The loops, one function each, so that each is compiled as the benchmarks compile theirs

@inline(never)
func drive(_ machine: inout StateMachine<Light, Tick, Void>, _ count: Int) throws {
    for _ in 0..<count { try machine.send(.next) }
}

@inline(never)
func drive(_ machine: inout SwitchLight, _ count: Int) {
    for _ in 0..<count { machine.send(.next) }
}

@inline(never)
func drive(_ machine: inout StateMachine<Station, Signal10, Void>, _ count: Int, _ events: [Signal10]) throws {
    for index in 0..<count { try machine.send(events[index & 1023]) }
}

@inline(never)
func drive(_ machine: inout SwitchStation, _ count: Int, _ events: [Signal10]) {
    for index in 0..<count { machine.send(events[index & 1023]) }
}

@inline(never)
func drive(_ machine: inout StateMachine<Deep, Hop, Void>, _ count: Int) throws {
    for _ in 0..<count { try machine.send(.hop) }
}

@inline(never)
func drive(_ machine: inout SwitchDeep, _ count: Int) {
    for _ in 0..<count { machine.send(.hop) }
}

@inline(never)
func drive(_ machine: inout StateMachine<Quad, Flip, Void>, _ count: Int) throws {
    for _ in 0..<count { try machine.send(.flip) }
}

@inline(never)
func drive(_ machine: inout SwitchQuad, _ count: Int) {
    for _ in 0..<count { machine.send(.flip) }
}

@inline(never)
func drive(_ machine: inout StateMachine<Gate, Coin, Turnstile>, _ count: Int, _ events: [Coin]) throws {
    for index in 0..<count { try machine.send(events[index & 1023]) }
}

@inline(never)
func drive(_ machine: inout SwitchTurnstile, _ count: Int, _ events: [Coin]) {
    for index in 0..<count { machine.send(events[index & 1023]) }
}

@inline(never)
func drive(_ machine: inout StateMachine<Register, Entry, Tally>, _ count: Int, _ events: [Entry]) throws {
    for index in 0..<count { try machine.send(events[index & 1023]) }
}

@inline(never)
func drive(_ machine: inout SwitchTally, _ count: Int, _ events: [Entry]) {
    for index in 0..<count { machine.send(events[index & 1023]) }
}

@inline(never)
func drive(_ machine: inout StateMachine<Watch, Poke, Void>, _ count: Int) throws {
    for index in 0..<count { try machine.send(index & 1 == 0 ? .wait : .poke) }
}

@inline(never)
func drive(_ machine: inout SwitchWatch, _ count: Int) {
    for index in 0..<count { machine.send(index & 1 == 0 ? .wait : .poke) }
}

// MARK: - Construction

/// Seven words, as many as a machine of the flat chart holds inline: what filling the same array
/// with plain values costs, page faults included.
struct SevenWords {
    var words: (Int, Int, Int, Int, Int, Int, Int)
}

@inline(never)
func makePlainValues(_ count: Int) -> [SevenWords] {
    var values: [SevenWords] = []
    values.reserveCapacity(count)
    for index in 0..<count { values.append(SevenWords(words: (index, index, index, index, index, index, index))) }
    return values
}

@inline(never)
func makeSwitches(_ count: Int) -> [SwitchLight] {
    var machines: [SwitchLight] = []
    machines.reserveCapacity(count)
    for _ in 0..<count { machines.append(SwitchLight()) }
    return machines
}

/// Nanoseconds to make `count` started machines, `count` plain values of their size, and `count`
/// `switch` machines, each into a fresh array; only the making is timed, not the release.
func timeConstruction(
    _ count: Int, of chart: Statechart<Light, Tick, Void>, machinesFirst: Bool
) throws -> (machines: Double, plain: Double, switches: Double) {
    var machines: [StateMachine<Light, Tick, Void>] = []
    var values: [SevenWords] = []
    var lights: [SwitchLight] = []
    var machineTime = 0.0
    var plainTime = 0.0
    var switchTime = 0.0
    func timeMachines() throws {
        machineTime = try nanoseconds { machines = try makeStartedMachines(count, of: chart) }
        consume(machines)
        machines = []
    }
    func timePlain() {
        plainTime = nanoseconds { values = makePlainValues(count) }
        consume(values)
        values = []
    }
    func timeSwitches() {
        switchTime = nanoseconds { lights = makeSwitches(count) }
        consume(lights)
        lights = []
    }
    if machinesFirst {
        try timeMachines()
        timePlain()
        timeSwitches()
    } else {
        timeSwitches()
        timePlain()
        try timeMachines()
    }
    return (machineTime, plainTime, switchTime)
}

@inline(never)
func consume<Value>(_ value: Value) { withExtendedLifetime(value) {} }

// MARK: - Statistics

/// The median, quartiles and extremes of some per-repetition values.
struct Spread {
    var median: Double
    var lowerQuartile: Double
    var upperQuartile: Double
    var minimum: Double
    var maximum: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(sorted.count - 1)
            let below = Int(position.rounded(.down))
            let above = min(below + 1, sorted.count - 1)
            return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
        }
        median = quantile(0.5)
        lowerQuartile = quantile(0.25)
        upperQuartile = quantile(0.75)
        minimum = sorted.first ?? .nan
        maximum = sorted.last ?? .nan
    }
}

func line(_ name: String, _ values: [Double], statechart: [Double], baseline: [Double]) -> String {
    let spread = Spread(values)
    let fields = [
        spread.median, spread.lowerQuartile, spread.upperQuartile, spread.minimum, spread.maximum,
        Spread(statechart).median, Spread(baseline).median,
    ].map { String(format: "%.4f", $0) }
    return ([name] + fields).joined(separator: "\t")
}

// MARK: - The run

var repetitions = 101
/// `--placements CASE COUNT`: instead of the ratios, the case's time in COUNT placements.
var placements: (name: String, count: Int)?
var arguments = CommandLine.arguments.dropFirst()
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: Ratios [--repetitions R] | Ratios --placements CASE COUNT\n".utf8))
    exit(2)
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--repetitions":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else { usage() }
        repetitions = value
    case "--placements":
        guard let name = arguments.popFirst(), let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            usage()
        }
        placements = (name, value)
    default:
        usage()
    }
}

/// Events in one slice of a case or its baseline; a repetition runs `slices` of each, alternating.
let eventsPerSlice = 20_000
let slices = 10

/// A fresh statechart and baseline for one repetition, each in a box of its own.
func blocks<Machine, Baseline>(
    _ machine: Machine, _ baseline: Baseline, statechart run: @escaping (inout Machine) throws -> Void,
    baseline runBaseline: @escaping (inout Baseline) -> Void
) -> Blocks {
    let held = Held(machine)
    let heldBaseline = Held(baseline)
    return Blocks(statechart: { try run(&held.value) }, baseline: { runBaseline(&heldBaseline.value) })
}

func started<State, Event, Context>(
    _ machine: StateMachine<State, Event, Context>
) throws -> StateMachine<State, Event, Context> {
    var machine = machine
    try machine.start()
    return machine
}

func pairs() throws -> [Pair] {
    let slice = eventsPerSlice
    let stations = stationEvents
    let coins = turnstileEvents
    let entries = tallyEvents
    return [
        Pair(name: "flat-3", events: slice) {
            blocks(
                try started(makeLightChart().makeMachine()), SwitchLight(), statechart: { try drive(&$0, slice) },
                baseline: { drive(&$0, slice) })
        },
        Pair(name: "flat-20x10", events: slice) {
            blocks(
                try started(makeStationChart().makeMachine()), SwitchStation(),
                statechart: { try drive(&$0, slice, stations) }, baseline: { drive(&$0, slice, stations) })
        },
        Pair(name: "hierarchy-5", events: slice) {
            blocks(
                try started(makeDeepChart().makeMachine()), SwitchDeep(), statechart: { try drive(&$0, slice) },
                baseline: { drive(&$0, slice) })
        },
        Pair(name: "parallel-4", events: slice / 4) {
            blocks(
                try started(makeQuadChart().makeMachine()), SwitchQuad(), statechart: { try drive(&$0, slice / 4) },
                baseline: { drive(&$0, slice / 4) })
        },
        Pair(name: "guards-actions", events: slice) {
            blocks(
                try started(makeTurnstileChart().makeMachine(context: Turnstile())), SwitchTurnstile(),
                statechart: { try drive(&$0, slice, coins) }, baseline: { drive(&$0, slice, coins) })
        },
        Pair(name: "payload", events: slice) {
            blocks(
                try started(makeTallyChart().makeMachine(context: Tally())), SwitchTally(),
                statechart: { try drive(&$0, slice, entries) }, baseline: { drive(&$0, slice, entries) })
        },
        Pair(name: "timeout-arm-cancel", events: slice) {
            blocks(
                try started(makeWatchChart().makeMachine()), SwitchWatch(), statechart: { try drive(&$0, slice) },
                baseline: { drive(&$0, slice) })
        },
    ]
}

/// Runs `body` with the stack deeper than it would be by about `slots` times 16 bytes: `slots / 2`
/// recursive frames, and one larger frame when `slots` is odd (the frames' sizes are the
/// compiler's; 256 depths gave 113 distinct stack addresses within a page).
@inline(never)
func deeper<Result>(by slots: Int, _ body: () throws -> Result) rethrows -> Result {
    if slots >= 2 { return try descend(slots / 2) { try deeper(by: slots & 1, body) } }
    if slots == 1 { return try descendOdd(body) }
    return try body()
}

/// `frames` frames of two words each (return address and frame pointer), then `body`.
@inline(never)
func descend<Result>(_ frames: Int, _ body: () throws -> Result) rethrows -> Result {
    var word = frames
    opaque(&word)
    if frames <= 1 { return try body() }
    return try descend(frames - 1, body)
}

/// One frame 16 bytes larger than ``descend(_:_:)``'s, then `body`.
@inline(never)
func descendOdd<Result>(_ body: () throws -> Result) rethrows -> Result {
    var words = (1, 2, 3)
    opaque(&words)
    return try body()
}

@inline(never)
func opaque<Value>(_ pointer: UnsafeMutablePointer<Value>) {}

let measured = try pairs()

/// Runs `body` on one fresh placement: after a heap block of a random size (freed after), and
/// with the stack a random number of 16-byte slots deeper.
func placed<Result>(_ body: () throws -> Result) rethrows -> Result {
    var generator = SystemRandomNumberGenerator()
    let padding = UnsafeMutableRawPointer.allocate(
        byteCount: 16 * Int.random(in: 1...256, using: &generator), alignment: 16)
    defer { padding.deallocate() }
    return try deeper(by: Int.random(in: 0..<256, using: &generator), body)
}

// MARK: - The host probe

/// Watches for a busy host: one flat machine, made once and never moved, run for a fixed number of
/// events before and after each repetition. Its code and data stay where they are for the whole
/// run, so its time changes only when the host's does: run alone 20,000 times, it stayed within 1%
/// of its fastest in 90% to 95% of them and took 1.7 to 2 times as long in the slowest 1% to 5%,
/// when a neighbour on the same physical core or a slower clock took the host. A repetition
/// before and after which the probe ran more than ``tolerance`` times its usual time measured the
/// host, not the engine, and is measured again on a fresh placement.
///
/// Its usual time is the first quartile of its times so far in this run, among the repetitions
/// (between other cases, whose code and data leave the caches, it runs about a tenth slower than
/// alone). A case whose own time depends on where its data lands is not hidden by the probe: its
/// placements change with every repetition, the probe's never do.
final class HostProbe {
    /// Events per probe: about 30 microseconds.
    static let events = 5_000
    /// How much slower than its usual time the probe may run before a repetition counts as
    /// disturbed: well above a quiet run's spread, well below a busy host's 1.7 to 2 times.
    static let tolerance = 1.25
    /// How many times a disturbed repetition is measured again before it is kept as it is.
    static let attempts = 10

    private var machine: StateMachine<Light, Tick, Void>
    /// Every probe's time so far, in nanoseconds, in increasing order.
    private var sortedTimes: [Double] = []
    /// Repetitions measured again because the host was busy.
    private(set) var redone = 0
    /// Repetitions kept although the probe still saw a busy host after every attempt.
    private(set) var keptDisturbed = 0

    init() throws {
        machine = try started(makeLightChart().makeMachine())
    }

    /// The probe's usual time: the first quartile of its times so far.
    var usual: Double { sortedTimes.isEmpty ? .infinity : sortedTimes[sortedTimes.count / 4] }

    /// Nanoseconds the probe takes now, recorded.
    func time() throws -> Double {
        let elapsed = try nanoseconds { try drive(&machine, Self.events) }
        let position = sortedTimes.partitioningIndex { $0 >= elapsed }
        sortedTimes.insert(elapsed, at: position)
        return elapsed
    }

    /// Runs `measure` between two probes. When `judged` and both probes ran more than
    /// ``tolerance`` times the usual time, runs it again, at most ``attempts`` times in all;
    /// returns the last measurement. Warm-up repetitions are not judged: they build the usual
    /// time.
    func quietly<Result>(judged: Bool = true, _ measure: () throws -> Result) throws -> Result {
        var attempt = 1
        while true {
            let before = try time()
            let result = try measure()
            let after = try time()
            // Both probes slow: the host was busy across the repetition. One alone is an
            // interrupt, which the median slices already leave out.
            if !judged || min(before, after) <= Self.tolerance * usual { return result }
            if attempt == Self.attempts {
                keptDisturbed += 1
                return result
            }
            attempt += 1
            redone += 1
        }
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for an array partitioned by it (every
    /// element that does comes after every one that does not): a binary search.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

if let placements {
    // How the case's time spreads over placements: one line per nanosecond, with how many
    // placements took that long (a case whose time depends on where its data lands shows
    // more than one mode).
    guard let pair = measured.first(where: { $0.name == placements.name }) else {
        FileHandle.standardError.write(
            Data("no case '\(placements.name)': \(measured.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    var histogram: [Int: Int] = [:]
    for _ in 0..<placements.count {
        let time = try placed { try nanoseconds(try pair.prepare().statechart) } / Double(pair.events)
        histogram[Int(time), default: 0] += 1
    }
    for (bucket, count) in histogram.sorted(by: { $0.key < $1.key }) { print("\(bucket) ns\t\(count)") }
    exit(0)
}
// Per pair, per repetition: the case's and the baseline's nanoseconds per event.
var statechartTimes = Array(repeating: [Double](), count: measured.count)
var baselineTimes = Array(repeating: [Double](), count: measured.count)
let warmUp = 5
let probe = try HostProbe()

for repetition in 0..<(warmUp + repetitions) {
    for (index, pair) in measured.enumerated() {
        // Each repetition places its machines anew (``placed(_:)``), so that the median is taken
        // over as many placements as there are repetitions, not over the one a process got; and
        // one that ran while the host was busy is measured again (``HostProbe``).
        let times = try probe.quietly(judged: repetition >= warmUp) {
            try placed { () throws -> (statechart: Double, baseline: Double) in
                let blocks = try pair.prepare()
                // Slices of the case and of its baseline alternate, ten of each, and each side counts
                // its median slice: a burst from a neighbour (the host's other tenants, an interrupt)
                // lands in a few slices of either side, and the median leaves them out.
                var statechart: [Double] = []
                var baseline: [Double] = []
                for slice in 0..<slices {
                    if (repetition + index + slice) & 1 == 0 {
                        baseline.append(nanoseconds(blocks.baseline))
                        statechart.append(try nanoseconds(blocks.statechart))
                    } else {
                        statechart.append(try nanoseconds(blocks.statechart))
                        baseline.append(nanoseconds(blocks.baseline))
                    }
                }
                return (Spread(statechart).median, Spread(baseline).median)
            }
        }
        guard repetition >= warmUp else { continue }
        statechartTimes[index].append(times.statechart / Double(pair.events))
        baselineTimes[index].append(times.baseline / Double(pair.events))
    }
}

var output: [String] = []
for (index, pair) in measured.enumerated() {
    let ratios = zip(statechartTimes[index], baselineTimes[index]).map { $0 / $1 }
    output.append(line(pair.name, ratios, statechart: statechartTimes[index], baseline: baselineTimes[index]))
}

// Arming plus cancelling a timeout: two events of the timeout case less two flat transitions, of
// the same repetition.
if let timeout = measured.firstIndex(where: { $0.name == "timeout-arm-cancel" }),
    let flat = measured.firstIndex(where: { $0.name == "flat-3" })
{
    let armCancel = zip(statechartTimes[timeout], statechartTimes[flat]).map { 2 * ($0 - $1) }
    output.append(line("arm-cancel", armCancel, statechart: statechartTimes[timeout], baseline: statechartTimes[flat]))
}

// Construction at 1M: a million started machines into a fresh array, against the same array
// filled with plain values of the machine's size, interleaved; fewer repetitions, as each takes
// tens of milliseconds. The figure judged is the machine's time per element; the plain values'
// time is the part of it that is the array's (page faults, memory traffic).
let chart = try makeLightChart()
let count = 1_000_000
var machineTimes: [Double] = []
var plainTimes: [Double] = []
var switchTimes: [Double] = []
let constructionRepetitions = max(5, repetitions / 5)
for repetition in 0..<(2 + constructionRepetitions) {
    // Three tries of each, alternating, and each counts its fastest: a try takes tens of
    // milliseconds, too long to slice, and three are too few for a median.
    var fastest = (machines: Double.infinity, plain: Double.infinity, switches: Double.infinity)
    for attempt in 0..<3 {
        let times = try timeConstruction(count, of: chart, machinesFirst: (repetition + attempt) & 1 == 1)
        fastest = (
            min(fastest.machines, times.machines), min(fastest.plain, times.plain),
            min(fastest.switches, times.switches)
        )
    }
    guard repetition >= 2 else { continue }
    machineTimes.append(fastest.machines / Double(count))
    plainTimes.append(fastest.plain / Double(count))
    switchTimes.append(fastest.switches / Double(count))
}
output.append(line("construct-1M", machineTimes, statechart: machineTimes, baseline: plainTimes))
output.append(
    line(
        "construct-1M-beyond-plain", zip(machineTimes, plainTimes).map { $0 - $1 }, statechart: machineTimes,
        baseline: plainTimes))
output.append(line("construct-1M-switch", switchTimes, statechart: switchTimes, baseline: switchTimes))

// uSCXML's charts (../shared/benchmarks/uscxml, beside the project), when they are there: entries
// of the state `mark` per second, per repetition, each a fresh machine on a fresh placement
// running a fixed number of microsteps. The report divides by uSCXML's published figures.
/// About how long one repetition of a uSCXML chart runs: the larger charts take far longer per
/// microstep, so each chart's count of microsteps is set from a first timed run.
let uscxmlRepetitionNanoseconds = 3_000_000.0
for name in ["Transitions.4", "Transitions.16", "Transitions.64", "LCCA.4", "LCCA.16", "LCCA.64"] {
    let file = USCXMLCharts.file(name)
    guard FileManager.default.fileExists(atPath: file.path) else {
        FileHandle.standardError.write(Data("Ratios: \(file.path) is absent; uSCXML's \(name) is not measured\n".utf8))
        continue
    }
    let perEntry = try USCXMLCharts.microstepsPerEntry(SCXMLChart.load(contentsOf: file))
    /// Runs `microsteps` microsteps of a fresh machine of a freshly loaded chart (so that the
    /// chart's tables are placed anew too); its nanoseconds.
    func run(_ microsteps: Int) throws -> Double {
        var machine = USCXMLCharts.makeMachine(try SCXMLChart.load(contentsOf: file))
        return try nanoseconds { try USCXMLCharts.run(&machine, microsteps: microsteps) }
    }
    let trial = 1_000
    let microsteps = min(1_000_000, max(trial, Int(Double(trial) * uscxmlRepetitionNanoseconds / (try run(trial)))))
    var entriesPerSecond: [Double] = []
    for repetition in 0..<(warmUp + repetitions) {
        let time = try probe.quietly(judged: repetition >= warmUp) { try placed { try run(microsteps) } }
        guard repetition >= warmUp else { continue }
        entriesPerSecond.append(Double(microsteps) / perEntry / (time / 1e9))
    }
    output.append(line("uscxml-\(name)", entriesPerSecond, statechart: entriesPerSecond, baseline: entriesPerSecond))
}
print(output.joined(separator: "\n"))
// What the probe saw, for the report: repetitions measured again, and any kept disturbed.
FileHandle.standardError.write(
    Data(
        "Ratios: \(probe.redone) repetitions were measured again because the probe saw the host busy, and \(probe.keptDisturbed) were kept busy after \(HostProbe.attempts) attempts\n"
            .utf8))
