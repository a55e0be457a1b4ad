#if Store
import Foundation
import Statecharts
import StatechartsStore

/// A worker process and nothing else: applies events and delivers receipts (to a handler that
/// accepts them) until it is killed, or for `--seconds` when given. It keeps every journal entry,
/// so that `pace` can read when each event was applied.
func serve(_ arguments: Arguments) async throws {
    let store = try await openStore(try arguments.string("store"))
    let fleet = try Fleet(
        chart: fleetChart(relays: false), store: store, options: DurableOptions(compaction: .never),
        deliver: { @Sendable _ in }
    ) { _ in FleetRecord() }
    let worker = Task { try await fleet.run() }
    let seconds = try arguments.int("seconds", default: 3600)
    try? await Task.sleep(for: .seconds(seconds))
    worker.cancel()
    try await worker.value
}

/// Another process that sends, paced: `--rate` events per second for `--seconds` (with `--rate 0`,
/// as fast as `--senders` concurrent tasks can), to `--machines` machines, while a `serve` process
/// applies them. Once nothing is pending, it reads from the journal when each event was applied
/// (the machine's epoch plus the entry's time: the worker's clock when its transaction began) and
/// prints one JSON line: the rate it reached, and the percentiles of the time from each event's
/// acknowledgement (its `send` returned, after the commit) to its application, and of the time
/// from the send's call.
func pace(_ arguments: Arguments) async throws {
    let rate = try arguments.int("rate")
    let seconds = try arguments.int("seconds", default: 10)
    // Bounded, so that the stream's arithmetic (events, nanoseconds) cannot overflow.
    guard rate <= 1_000_000, (1...86_400).contains(seconds) else {
        throw UsageError("--rate takes 0 to 1,000,000 events/s and --seconds 1 to 86,400")
    }
    let machines = try arguments.int("machines", default: 1000)
    let senders = try arguments.int("senders", default: rate == 0 ? 256 : 64)
    let store = try await openStore(try arguments.string("store"))
    // Sends only: this fleet never runs a worker.
    let fleet = try Fleet(chart: fleetChart(relays: false), store: store) { _ in FleetRecord() }
    let prefix = "pace-\(Fleet.systemTime())"
    let total = rate == 0 ? Int.max : rate * seconds
    let started = Fleet.systemTime()
    let deadline = started + Int64(seconds) * 1_000_000_000
    let next = Locked(0)
    // Per event: when `send` was called and when it returned.
    let sent = Locked([String: (called: Int64, acknowledged: Int64)]())
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<senders {
            group.addTask {
                while true {
                    let index = takeIndex(next)
                    if index >= total { return }
                    if rate > 0 {
                        // The event's moment in the paced stream.
                        let due = started + Int64(index) * 1_000_000_000 / Int64(rate)
                        let wait = due - Fleet.systemTime()
                        if wait > 0 { try await Task.sleep(for: .nanoseconds(wait)) }
                    } else if Fleet.systemTime() >= deadline {
                        return
                    }
                    let id = "\(prefix)-\(index)"
                    let called = Fleet.systemTime()
                    try await fleet.send(.ping(index), to: "paced-\(index % machines)", id: id)
                    let acknowledged = Fleet.systemTime()
                    sent.withLock { $0[id] = (called, acknowledged) }
                }
            }
        }
        try await group.waitForAll()
    }
    let finished = Fleet.systemTime()
    for _ in 0..<12_000 {
        if try await !store.hasPendingEvents() { break }
        try await Task.sleep(for: .milliseconds(10))
    }
    let times = sent.withLock { $0 }
    var fromAcknowledgement: [Int64] = []
    var fromCall: [Int64] = []
    for machine in 0..<machines {
        let id = "paced-\(machine)"
        guard let record = try await store.record(of: id) else { continue }
        for entry in try await store.journal(of: id) {
            guard entry.kind == .event, entry.sequence != nil, let eventID = entry.eventID,
                let time = times[eventID]
            else { continue }
            let applied = record.row.epoch + entry.time
            fromAcknowledgement.append(applied - time.acknowledged)
            fromCall.append(applied - time.called)
        }
    }
    func percentile(_ values: [Int64], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1e6
    }
    let reached = Double(times.count) / (Double(finished - started) / 1e9)
    print(
        #"{"events": \#(times.count), "applied": \#(fromAcknowledgement.count), "rate": \#(Int(reached)), "#
            + #""ack_p50_ms": \#(percentile(fromAcknowledgement, 0.5)), "#
            + #""ack_p99_ms": \#(percentile(fromAcknowledgement, 0.99)), "#
            + #""call_p50_ms": \#(percentile(fromCall, 0.5)), "call_p99_ms": \#(percentile(fromCall, 0.99))}"#)
}
#endif
