#if Store
import Foundation
import Statecharts
import StatechartsStore

// The crash tests and the benchmark of durable machines (Scripts/durability.sh runs them):
//
//   statechart-durability work     --store S --worker K --workers W --machines M --events E --acks FILE
//                                  --deliveries FILE --activities FILE [--senders C] [--chart document]
//   statechart-durability check    --store S --workers W --machines M --events E --acks FILE...
//                                  --deliveries FILE --activities FILE [--label L] [--chart document]
//   statechart-durability bench    --store S --worker K --workers W --machines M --events E [--senders C]
//   statechart-durability baseline --store S --events E [--batch B]
//   statechart-durability serve    --store S [--seconds T]
//   statechart-durability pace     --store S --rate R [--seconds T] [--machines M] [--senders C]
//   statechart-durability reset    --store S
//
// S is sqlite:PATH or postgres://user:password@host:port/database.

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    switch arguments.command {
    case "work": try await work(arguments)
    case "check": exit(try await (arguments.isDocument ? checkDocument(arguments) : check(arguments)) ? 0 : 1)
    case "bench": try await bench(arguments)
    case "baseline": try await baseline(arguments)
    case "serve": try await serve(arguments)
    case "pace": try await pace(arguments)
    case "reset": try await reset(arguments)
    default:
        throw UsageError("unknown command '\(arguments.command)': work, check, bench, baseline, serve, pace or reset")
    }
} catch {
    FileHandle.standardError.write(Data("statechart-durability: \(error)\n".utf8))
    exit(2)
}

/// The fleet on `store`, keeping its whole journal (the check reads it), delivering receipts to
/// the file `deliveries` and running the activity `reserve`, which records each run in the file
/// `activities`.
///
/// The receiver refuses one first or second attempt in ten, so that retries happen under the kills
/// too; every delivery it accepts is appended to the file (`KEY NUMBER`) before it returns, so a
/// worker killed after that and before its outcome is recorded delivers the receipt again. The
/// activity does the same: it fails one first or second attempt in ten, takes up to 20 ms, and
/// records `KEY NUMBER` before it returns.
func makeFleet(_ store: any MachineStore, deliveries path: String, activities: String) throws -> Fleet {
    let file = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard file >= 0 else { throw UsageError("cannot open \(path)") }
    let runs = open(activities, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard runs >= 0 else { throw UsageError("cannot open \(activities)") }
    let reserve = DurableActivity<FleetState, FleetEvent, FleetRecord> { request in
        guard let number = request.context.reserving else { return nil }
        if request.attempt < 3 && Int.random(in: 0..<10) == 0 { throw ReceiverRefused() }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
        let line = Array("\(request.key) \(number)\n".utf8)
        _ = line.withUnsafeBytes { write(runs, $0.baseAddress, $0.count) }
        return .reserved(number)
    }
    return try Fleet(
        chart: crashTestChart(), store: store,
        options: DurableOptions(
            compaction: .never,
            retry: RetryPolicy(
                maximumAttempts: 100, initialDelay: .milliseconds(5), maximumDelay: .milliseconds(50),
                timeLimit: .seconds(2)),
            leaseMargin: .seconds(1)),
        deliver: { delivery in
            guard case .send(.receipt(let number), _, _, _) = delivery.effect else { return }
            if delivery.attempt < 3 && Int.random(in: 0..<10) == 0 { throw ReceiverRefused() }
            let line = Array("\(delivery.key) \(number)\n".utf8)
            _ = line.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        },
        activities: ["reserve": reserve],
        onError: { id, message in FileHandle.standardError.write(Data("\(id): \(message)\n".utf8)) }
    ) { _ in FleetRecord() }
}

struct ReceiverRefused: Error, CustomStringConvertible {
    var description: String { "the receiver refused the receipt this time" }
}

/// Sends this worker's events that its acknowledgement file does not list yet, records each one
/// acknowledged, and applies events and timers of any machine meanwhile; ends when its events are
/// all acknowledged and applied.
func work(_ arguments: Arguments) async throws {
    let stream = EventStream(
        worker: try arguments.int("worker"), workers: try arguments.int("workers"),
        machines: try arguments.int("machines"), total: try arguments.int("events"), reserves: true)
    let path = try arguments.string("acks")
    let acknowledged = Set(
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0) })
    let file = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard file >= 0 else { throw UsageError("cannot open \(path)") }
    let store = try await openStore(
        try arguments.string("store"),
        operationTimeLimit: arguments.isDocument ? documentOperationTimeLimit : .seconds(5))
    let run: @Sendable () async throws -> Void
    let send: @Sendable (Int) async throws -> Void
    if arguments.isDocument {
        let fleet = try makeDocumentFleet(store, activities: try arguments.string("activities"))
        run = { try await fleet.run() }
        send = { index in try await sendRetrying(fleet, stream, index) }
    } else {
        let fleet = try makeFleet(
            store, deliveries: try arguments.string("deliveries"), activities: try arguments.string("activities"))
        run = { try await fleet.run() }
        send = { index in try await sendRetrying(fleet, stream, index) }
    }
    let worker = Task { try await run() }
    let next = Locked(0)
    let senders = try arguments.int("senders", default: 64)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<senders {
            group.addTask {
                while true {
                    let index = takeIndex(next)
                    if index >= stream.count { return }
                    if acknowledged.contains(index) { continue }
                    try await send(index)
                    // Written only once acknowledged: the check counts only what this file lists.
                    let line = Array("\(index)\n".utf8)
                    _ = line.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                }
            }
        }
        try await group.waitForAll()
    }
    while (try? await store.hasPendingEvents()) != false {
        try await Task.sleep(for: .milliseconds(50))
    }
    worker.cancel()
    try await worker.value
    close(file)
}

/// Sends event `index` of `stream` as a client that wants it acknowledged does: when the database
/// fails, it sends again with the same identifier, which the journal recognizes if the first
/// attempt committed after all.
func sendRetrying(_ fleet: Fleet, _ stream: EventStream, _ index: Int) async throws {
    try await retryingDatabaseFailures { () async throws(StoreError) in
        try await fleet.send(stream.event(index), to: stream.machine(index), id: stream.eventID(index))
    }
}

/// Applies what is left, waits for every timer to fall due and fire and every effect to be
/// delivered, then compares each machine with the acknowledgement files and the deliveries with
/// the journal; prints one line and returns whether nothing was lost, duplicated, missed, fired
/// twice or delivered with another key.
func check(_ arguments: Arguments) async throws -> Bool {
    let workers = try arguments.int("workers")
    let files = arguments.strings("acks")
    guard files.count == workers else { throw UsageError("give one --acks file per worker (\(workers))") }
    let deliveries = try arguments.string("deliveries")
    let activities = try arguments.string("activities")
    let store = try await openStore(try arguments.string("store"))
    let fleet = try makeFleet(store, deliveries: deliveries, activities: activities)
    try await settleEverything(store, drain: { try await fleet.drain() })
    let acknowledged = try readAcknowledged(arguments)
    let expected = acknowledged.expected
    let arms = acknowledged.arms
    let relays = acknowledged.relays
    let acknowledgedCount = acknowledged.count
    var tally = CrashTally()
    var receipts: [String: Int] = [:]
    var relaysLost = 0
    var relaysDuplicated = 0
    // Each activity's outcome, by the key its runs recorded.
    var outcomeKeys: [String: Int] = [:]
    let decoder = JSONDecoder()
    for id in try await store.machineIDs() {
        guard let machine = try await fleet.machine(id) else { continue }
        let received = machine.context.received
        let journal = try await store.journal(of: id)
        var applied: [Int] = []
        for entry in journal where entry.kind == .event {
            guard let sequence = entry.sequence, let payload = entry.payload,
                let event = try? decoder.decode(FleetEvent.self, from: Data(payload.utf8))
            else { continue }
            switch event {
            case .ping(let number):
                applied.append(number)
                // Its receipt is the first effect of the step that applied it.
                receipts[EffectKey(machine: id, sequence: sequence, index: 0).description] = number
            case .arm(let number, _), .reserve(let number): applied.append(number)
            case .fired, .receipt, .relayed, .reserved: break
            }
        }
        for entry in journal where entry.kind == .outcome {
            guard let key = entry.eventID, let payload = entry.payload,
                let outcome = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                let event = outcome["event"] as? [String: Any], let reserved = event["reserved"] as? [String: Any],
                let number = reserved["_0"] as? Int
            else { continue }
            outcomeKeys[key] = number
        }
        let context = machine.context
        tally.add(
            CrashTally.Machine(
                received: received, fired: context.fired, reservations: context.reservations,
                reserved: context.reserved, superseded: context.superseded),
            applied: applied, expected: expected[id] ?? [], arms: arms[id] ?? [])
        let relayed = Dictionary(machine.context.relayed.map { ($0, 1) }, uniquingKeysWith: +)
        relaysDuplicated += relayed.values.filter { $0 > 1 }.count
        relaysLost += (relays[id] ?? []).filter { relayed[$0] == nil }.count
    }
    let known = Set(try await store.machineIDs())
    tally.lost += expected.filter { !known.contains($0.key) }.values.map(\.count).reduce(0, +)
    relaysLost += relays.filter { !known.contains($0.key) }.values.map(\.count).reduce(0, +)
    // Every receipt due (one per applied ping, keyed by its step) delivered, each under its first key.
    let lines = ((try? String(contentsOfFile: deliveries, encoding: .utf8)) ?? "").split(separator: "\n")
    var delivered: [String: Int] = [:]
    var newKeys = 0
    for line in lines {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let number = Int(parts[1]) else { continue }
        let key = String(parts[0])
        delivered[key, default: 0] += 1
        if receipts[key] != number { newKeys += 1 }
    }
    let receiptsLost = receipts.keys.filter { delivered[$0] == nil }.count
    let deliveredAgain = delivered.values.map { $0 - 1 }.reduce(0, +)
    let runs = try readActivityRuns(activities, outcomeKeys: outcomeKeys)
    let runAgain = runs.again
    let runsWithOtherKey = runs.withOtherKey
    let dead = try await store.backlog(now: Fleet.systemTime()).deadLetters
    let due = arms.values.map(\.count).reduce(0, +)
    let relaysDue = relays.values.map(\.count).reduce(0, +)
    let label = arguments.strings("label").last ?? "store"
    print(
        "\(label): \(acknowledgedCount) events acknowledged, \(tally.lost) lost, \(tally.duplicated) duplicated; "
            + "\(due) timers due, \(tally.missed) missed, \(tally.firedTwice) fired twice; "
            + "\(receipts.count) effects due, \(receiptsLost) lost, \(deliveredAgain) delivered again "
            + (newKeys == 0 ? "(all with their first key)" : "(\(newKeys) with another key)") + "; "
            + "\(relaysDue) sends between machines, \(relaysLost) lost, \(relaysDuplicated) duplicated; "
            + "\(tally.reservations) activities started, \(tally.activitiesLost) lost, "
            + "\(tally.activitiesDuplicated) duplicated, \(tally.activitiesCancelled) cancelled with their state, "
            + "\(runAgain) run again "
            + (runsWithOtherKey == 0 ? "(all with their first key)" : "(\(runsWithOtherKey) with another key)"))
    if tally.inconsistent > 0 { print("\(label): \(tally.inconsistent) machines differ from their journal") }
    if dead > 0 { print("\(label): \(dead) effects are dead letters") }
    return acknowledgedCount > 0 && tally.isClean && receiptsLost == 0 && newKeys == 0 && relaysLost == 0
        && relaysDuplicated == 0 && dead == 0 && !receipts.isEmpty && runsWithOtherKey == 0
}

/// Applies what is left, waits for every timer to fall due and fire and every effect to be
/// delivered: the longest delay is 2 s, so it waits that out, then applies and delivers (`drain`)
/// until nothing is pending, not even what a killed worker still holds (its lease ends within 3 s):
/// counted at a time an hour ahead, every timer and effect is due. Bounded: a minute at most.
func settleEverything(_ store: any MachineStore, drain: () async throws -> Void) async throws {
    try await drain()
    try await Task.sleep(for: .milliseconds(2300))
    for _ in 0..<600 {
        try await drain()
        let waiting = try await store.backlog(now: Fleet.systemTime() + 3_600_000_000_000)
        if waiting.pendingEvents == 0 && waiting.dueEffects == 0 { break }
        try await Task.sleep(for: .milliseconds(100))
    }
}

/// What the workers' acknowledgement files say was acknowledged: the numbers each machine was
/// sent, the arms among them, and the numbers relayed to each relay machine.
struct Acknowledged {
    var expected: [String: [Int]] = [:]
    var arms: [String: Set<Int>] = [:]
    var relays: [String: [Int]] = [:]
    var count = 0
}

/// Reads the `--acks` files of a check.
func readAcknowledged(_ arguments: Arguments) throws -> Acknowledged {
    let workers = try arguments.int("workers")
    let machines = try arguments.int("machines")
    let total = try arguments.int("events")
    var acknowledged = Acknowledged()
    for (worker, path) in arguments.strings("acks").enumerated() {
        let stream = EventStream(worker: worker, workers: workers, machines: machines, total: total, reserves: true)
        let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
        for index in Set(lines.compactMap { Int($0) }) {
            acknowledged.count += 1
            let event = stream.event(index)
            let number = stream.number(index)
            acknowledged.expected[stream.machine(index), default: []].append(number)
            if case .arm = event { acknowledged.arms[stream.machine(index), default: []].insert(number) }
            if isRelayed(event) { acknowledged.relays[relayMachine(number), default: []].append(number) }
        }
    }
    return acknowledged
}

/// Every run of an activity recorded in the file `path` with its key (`KEY NUMBER`): how many
/// were runs again, and how many ran under a key whose journaled outcome (`outcomeKeys`) is of
/// another number.
func readActivityRuns(_ path: String, outcomeKeys: [String: Int]) throws -> (again: Int, withOtherKey: Int) {
    var runs: [String: Int] = [:]
    var withOtherKey = 0
    for line in ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n") {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let number = Int(parts[1]) else { continue }
        runs[String(parts[0]), default: 0] += 1
        if let journaled = outcomeKeys[String(parts[0])], journaled != number { withOtherKey += 1 }
    }
    return (runs.values.map { $0 - 1 }.reduce(0, +), withOtherKey)
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
