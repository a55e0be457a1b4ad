#if Store
import Foundation
import GRDB
import Statecharts
import StatechartsStore

#if PostgreSQL
import Logging
import PostgresNIO
#endif

/// Sends this worker's share of the events from `--senders` concurrent tasks while the fleet
/// applies them, and prints one JSON line: when it started, when its last event was acknowledged
/// and when nothing was pending any more, with the latency of each acknowledgement.
func bench(_ arguments: Arguments) async throws {
    let stream = EventStream(
        worker: try arguments.int("worker", default: 0), workers: try arguments.int("workers", default: 1),
        machines: try arguments.int("machines"), total: try arguments.int("events"))
    let store = try await openStore(try arguments.string("store"))
    let fleet = try Fleet(
        chart: fleetChart(relays: try arguments.int("relays", default: 0) == 1), store: store,
        options: DurableOptions(
            compaction: .afterSnapshot(keepingLast: 100),
            machinesPerBatch: arguments.strings("machines-per-batch").isEmpty
                ? nil : try arguments.int("machines-per-batch"),
            effectsPerBatch: try arguments.int("effects-per-batch", default: 256)),
        // With --outbox 1 (the default) every receipt is written with its step and delivered
        // after the commit; with 0 the fleet has no handler, and keeps only its relays.
        deliver: try arguments.int("outbox", default: 1) == 0 ? nil : { @Sendable _ in }
    ) { _ in FleetRecord() }
    let worker = Task { try await fleet.run() }
    let next = Locked(0)
    let latencies = Locked([Int64]())
    let senders = try arguments.int("senders", default: 256)
    let started = Fleet.systemTime()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<senders {
            group.addTask {
                var mine: [Int64] = []
                while true {
                    let index = takeIndex(next)
                    if index >= stream.count { break }
                    let sent = Fleet.systemTime()
                    try await fleet.send(stream.event(index), to: stream.machine(index), id: stream.eventID(index))
                    mine.append(Fleet.systemTime() - sent)
                }
                latencies.withLock { $0 += mine }
            }
        }
        try await group.waitForAll()
    }
    let acknowledged = Fleet.systemTime()
    // Asked every 5 ms, so it must not count the pending events: a count reads the whole
    // pending index, and took a tenth of the process's time in this loop.
    while try await store.hasPendingEvents() {
        try await Task.sleep(for: .milliseconds(5))
    }
    let applied = Fleet.systemTime()
    worker.cancel()
    try await worker.value
    let sorted = latencies.withLock { $0.sorted() }
    func percentile(_ p: Double) -> Int64 {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
    print(
        #"{"events": \#(stream.count), "started": \#(started), "acknowledged": \#(acknowledged), "applied": \#(applied), "#
            + #""p50": \#(percentile(0.5)), "p99": \#(percentile(0.99))}"#)
}

/// The hand-written baseline: the same JSON payloads inserted into a plain table, `--batch` rows
/// per transaction, with the database's own client and nothing else (no machine, no journal
/// numbering, no snapshots). Prints one JSON line with events per second.
func baseline(_ arguments: Arguments) async throws {
    let location = try arguments.string("store")
    let events = try arguments.int("events")
    let batch = max(1, try arguments.int("batch", default: 256))
    let stream = EventStream(worker: 0, workers: 1, machines: 10_000, total: events)
    let encoder = JSONEncoder()
    let rows = try (0..<events).map { index in
        (
            stream.machine(index), stream.eventID(index),
            String(decoding: try encoder.encode(stream.event(index)), as: UTF8.self)
        )
    }
    let started = Fleet.systemTime()
    if location.hasPrefix("sqlite:") {
        let pool = try DatabasePool(path: String(location.dropFirst("sqlite:".count)))
        // As the store does: GRDB sets a pool's writer to NORMAL when it sets up its log.
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try await pool.write { db in
            try db.execute(
                sql: """
                    DROP TABLE IF EXISTS bench_baseline;
                    CREATE TABLE bench_baseline (position INTEGER PRIMARY KEY, machine_id TEXT, event_id TEXT, payload TEXT)
                    """)
        }
        for start in stride(from: 0, to: events, by: batch) {
            let slice = Array(rows[start..<min(events, start + batch)])
            try await pool.write { db in
                let insert = try db.cachedStatement(
                    sql: "INSERT INTO bench_baseline (machine_id, event_id, payload) VALUES (?, ?, ?)")
                for row in slice { try insert.execute(arguments: [row.0, row.1, row.2]) }
            }
        }
    } else {
        #if PostgreSQL
        guard let components = URLComponents(string: location), let host = components.host, let user = components.user
        else { throw UsageError("not a URL: \(location)") }
        let client = PostgresClient(
            configuration: .init(
                host: host, port: components.port ?? 5432, username: user, password: components.password,
                database: String(components.path.dropFirst()), tls: .disable))
        let running = Task { await client.run() }
        let logger = Logger(label: "baseline") { _ in SwiftLogNoOpLogHandler() }
        try await client.query("DROP TABLE IF EXISTS bench_baseline", logger: logger)
        try await client.query(
            "CREATE TABLE bench_baseline (position BIGSERIAL PRIMARY KEY, machine_id TEXT, event_id TEXT, payload TEXT)",
            logger: logger)
        let began = Fleet.systemTime()
        for start in stride(from: 0, to: events, by: batch) {
            let slice = rows[start..<min(events, start + batch)]
            let machines = slice.map(\.0)
            let ids = slice.map(\.1)
            let payloads = slice.map(\.2)
            try await client.query(
                """
                INSERT INTO bench_baseline (machine_id, event_id, payload)
                SELECT * FROM unnest(\(machines)::text[], \(ids)::text[], \(payloads)::text[])
                """, logger: logger)
        }
        let ended = Fleet.systemTime()
        running.cancel()
        print(#"{"events": \#(events), "started": \#(began), "applied": \#(ended)}"#)
        return
        #else
        throw UsageError("built without the trait PostgreSQL")
        #endif
    }
    print(#"{"events": \#(events), "started": \#(started), "applied": \#(Fleet.systemTime())}"#)
}
#endif
