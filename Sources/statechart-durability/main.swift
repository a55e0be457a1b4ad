#if Store
import Foundation
import Statecharts
import StatechartsStore

// The crash tests and the benchmark of durable machines (Scripts/durability.sh runs them):
//
//   statechart-durability work     --store S --worker K --workers W --machines M --events E --acks FILE [--senders C]
//   statechart-durability check    --store S --workers W --machines M --events E --acks FILE... [--label L]
//   statechart-durability bench    --store S --worker K --workers W --machines M --events E [--senders C]
//   statechart-durability baseline --store S --events E [--batch B]
//   statechart-durability reset    --store S
//
// S is sqlite:PATH or postgres://user:password@host:port/database.

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    switch arguments.command {
    case "work": try await work(arguments)
    case "check": exit(try await check(arguments) ? 0 : 1)
    case "bench": try await bench(arguments)
    case "baseline": try await baseline(arguments)
    case "reset": try await reset(arguments)
    default: throw UsageError("unknown command '\(arguments.command)': work, check, bench, baseline or reset")
    }
} catch {
    FileHandle.standardError.write(Data("statechart-durability: \(error)\n".utf8))
    exit(2)
}

/// The fleet on `store`, keeping its whole journal (the check reads it).
func makeFleet(_ store: any MachineStore) throws -> Fleet {
    try Fleet(
        chart: fleetChart(), store: store, options: DurableOptions(compaction: .never),
        onError: { id, message in FileHandle.standardError.write(Data("\(id): \(message)\n".utf8)) }
    ) { _ in FleetRecord() }
}

/// Sends this worker's events that its acknowledgement file does not list yet, records each one
/// acknowledged, and applies events and timers of any machine meanwhile; ends when its events are
/// all acknowledged and applied.
func work(_ arguments: Arguments) async throws {
    let stream = EventStream(
        worker: try arguments.int("worker"), workers: try arguments.int("workers"),
        machines: try arguments.int("machines"), total: try arguments.int("events"))
    let path = try arguments.string("acks")
    let acknowledged = Set(
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) })
    let file = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard file >= 0 else { throw UsageError("cannot open \(path)") }
    let store = try await openStore(try arguments.string("store"))
    let fleet = try makeFleet(store)
    let worker = Task { try await fleet.run() }
    let next = Locked(0)
    let senders = try arguments.int("senders", default: 64)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<senders {
            group.addTask {
                while true {
                    let index = next.withLock { value in
                        defer { value += 1 }
                        return value
                    }
                    if index >= stream.count { return }
                    if acknowledged.contains(index) { continue }
                    try await fleet.send(stream.event(index), to: stream.machine(index), id: stream.eventID(index))
                    // Written only once acknowledged: the check counts only what this file lists.
                    let line = Array("\(index)\n".utf8)
                    _ = line.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                }
            }
        }
        try await group.waitForAll()
    }
    while try await store.backlog(now: DurableMachines<FleetState, FleetEvent, FleetRecord>.systemTime()).pendingEvents
        > 0
    {
        try await Task.sleep(for: .milliseconds(50))
    }
    worker.cancel()
    try await worker.value
    close(file)
}

/// Applies what is left, waits for every timer to fall due and fire, then compares each machine
/// with the acknowledgement files; prints one line and returns whether nothing was lost,
/// duplicated, missed or fired twice.
func check(_ arguments: Arguments) async throws -> Bool {
    let workers = try arguments.int("workers")
    let machines = try arguments.int("machines")
    let total = try arguments.int("events")
    let files = arguments.strings("acks")
    guard files.count == workers else { throw UsageError("give one --acks file per worker (\(workers))") }
    let store = try await openStore(try arguments.string("store"))
    let fleet = try makeFleet(store)
    // The longest delay is 2 s: wait it out, then apply until nothing is pending or due.
    try await fleet.drain()
    try await Task.sleep(for: .milliseconds(2300))
    while true {
        try await fleet.drain()
        if try await store.backlog(now: Fleet.systemTime()).isEmpty { break }
    }
    var expected: [String: [Int]] = [:]
    var arms: [String: Set<Int>] = [:]
    var acknowledgedCount = 0
    for (worker, path) in files.enumerated() {
        let stream = EventStream(worker: worker, workers: workers, machines: machines, total: total)
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        for index in Set(lines.compactMap { Int($0) }) {
            acknowledgedCount += 1
            expected[stream.machine(index), default: []].append(stream.number(index))
            if case .arm = stream.event(index) { arms[stream.machine(index), default: []].insert(stream.number(index)) }
        }
    }
    var lost = 0
    var duplicated = 0
    var inconsistent = 0
    var missed = 0
    var firedTwice = 0
    let decoder = JSONDecoder()
    for id in try await store.machineIDs() {
        guard let machine = try await fleet.machine(id) else { continue }
        let received = machine.context.received
        let journal = try await store.journal(of: id)
        let applied = journal.compactMap { entry -> Int? in
            guard entry.kind == .event, entry.sequence != nil, let payload = entry.payload,
                let event = try? decoder.decode(FleetEvent.self, from: Data(payload.utf8))
            else { return nil }
            switch event {
            case .ping(let number), .arm(let number, _): return number
            case .fired: return nil
            }
        }
        // The machine is its journal replayed: the same events in the same order.
        if applied != received { inconsistent += 1 }
        let counts = Dictionary(received.map { ($0, 1) }, uniquingKeysWith: +)
        duplicated += counts.values.filter { $0 > 1 }.count
        let inJournal = Set(applied)
        lost += (expected[id] ?? []).filter { counts[$0] == nil || !inJournal.contains($0) }.count
        let fired = Dictionary(machine.context.fired.map { ($0, 1) }, uniquingKeysWith: +)
        firedTwice += fired.values.filter { $0 > 1 }.count
        missed += (arms[id] ?? []).filter { fired[$0] == nil }.count
    }
    let known = Set(try await store.machineIDs())
    lost += expected.filter { !known.contains($0.key) }.values.map(\.count).reduce(0, +)
    let due = arms.values.map(\.count).reduce(0, +)
    let label = arguments.strings("label").last ?? "store"
    print(
        "\(label): \(acknowledgedCount) events acknowledged, \(lost) lost, \(duplicated) duplicated; "
            + "\(due) timers due, \(missed) missed, \(firedTwice) fired twice")
    if inconsistent > 0 { print("\(label): \(inconsistent) machines differ from their journal") }
    return acknowledgedCount > 0 && lost == 0 && duplicated == 0 && missed == 0 && firedTwice == 0
        && inconsistent == 0
}

/// Empties the store: deletes the SQLite file, or every row of the PostgreSQL tables.
func reset(_ arguments: Arguments) async throws {
    let location = try arguments.string("store")
    if location.hasPrefix("sqlite:") {
        let path = String(location.dropFirst("sqlite:".count))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return
    }
    #if PostgreSQL
    guard let store = try await openStore(location) as? PostgresMachineStore else { return }
    try await store.removeAll()
    store.close()
    #endif
}
#else
import Foundation

FileHandle.standardError.write(
    Data("statechart-durability was built without the package trait Store: build it with --enable-all-traits\n".utf8))
exit(2)
#endif
