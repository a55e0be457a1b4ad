#if Store
import Foundation
import GRDB
import Statecharts
import Testing

@testable import StatechartsStore

/// How SQLite runs the statements of senders, workers and deliveries: each reaches its rows
/// through an index, and none reads a whole table of machines, journal, timers or outbox.
@Suite("SQLite's statements use the store's indexes")
struct SQLitePlanTests {
    /// Every statement the store ran on any of its connections, as SQLite expanded it.
    final class StatementLog: Sendable {
        let statements = Locked([String]())
        let recording = Locked(false)
    }

    /// A store on a file whose every connection records its statements in `log` while recording.
    func tracedStore(_ log: StatementLog) throws -> (SQLiteMachineStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = GRDB.Configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { event in
                guard case .statement(let statement) = event, log.recording.withLock({ $0 }) else { return }
                log.statements.withLock { $0.append(statement.expandedSQL) }
            }
        }
        let pool = try DatabasePool(path: folder.appendingPathComponent("m.sqlite").path, configuration: configuration)
        var migrator = DatabaseMigrator()
        SQLiteMachineStore.registerMigrations(in: &migrator)
        try migrator.migrate(pool)
        return (try SQLiteMachineStore(writer: pool), folder)
    }

    /// SQLite's plan of `sql`: one line per step.
    func plan(_ sql: String, in store: SQLiteMachineStore) async throws -> [String] {
        try await store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }
    }

    @Test("sends, steps, timers, compaction and deliveries reach their rows through indexes")
    func hotStatementsUseIndexes() async throws {
        let log = StatementLog()
        let (store, folder) = try tracedStore(log)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        let options = DurableOptions(snapshotInterval: 4, compaction: .afterSnapshot(keepingLast: 2))
        let fleet = try orders(store, clock, options: options)
        // Enough rows that a table scan would not be the planner's cheapest way.
        for item in 1...200 { try await fleet.send(.add(item), to: "machine-\(item % 40)") }
        try await fleet.drain()
        try await store.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO statechart_outbox (machine_id, sequence, effect_index, kind, payload, due_at)
                    SELECT id, 1, 0, 'log', '{"log":{"message":"m"}}', 0 FROM statechart_machines
                    """)
            try db.execute(sql: "ANALYZE")
        }

        log.recording.withLock { $0 = true }
        // A fleet with nothing in memory: it reads each machine's journal to rebuild it.
        let fresh = try orders(store, clock, options: options)
        for item in 201...260 { try await fresh.send(.add(item), to: "machine-\(item % 40)") }
        _ = try await fresh.send(.add(201), to: "machine-1", id: "again")
        _ = try await fresh.send(.add(201), to: "machine-1", id: "again")
        clock.advance(by: .seconds(3))
        try await fresh.drain()
        let claimed = try await store.claimEffects(EffectClaimRequest(now: clock.now, limit: 8, lease: { _ in 0 }))
        try await store.settleEffects(
            claimed.enumerated().map { index, entry in
                EffectOutcome(
                    key: entry.key, attempt: entry.attempts,
                    result: index % 3 == 0
                        ? .delivered : index % 3 == 1 ? .retry(at: clock.now, error: "e") : .deadLetter(error: "e"))
            })
        _ = try await store.retryDeadLetter(EffectKey(machine: "machine-2", sequence: 1, index: 0), at: clock.now)
        _ = try await store.record(of: "machine-3")
        _ = try await store.journal(of: "machine-3")
        _ = try await store.outbox(of: "machine-3")
        _ = try await store.hasPendingEvents()
        log.recording.withLock { $0 = false }

        let statements = Set(
            log.statements.withLock { $0 }.filter { sql in
                ["SELECT", "UPDATE", "DELETE", "WITH"].contains { sql.uppercased().hasPrefix($0) }
            })
        #expect(statements.count > 10)
        let tables = ["statechart_machines", "statechart_journal", "statechart_timers", "statechart_outbox"]
        var seenIndexes: Set<String> = []
        for sql in statements {
            let steps = try await plan(sql, in: store)
            for step in steps {
                // A full scan reads "SCAN <table>" with no index after it.
                #expect(!tables.contains { step == "SCAN \($0)" }, "\(sql)\n\(steps)")
                for index in [
                    "statechart_journal_machine", "statechart_journal_pending", "statechart_outbox_key",
                    "statechart_outbox_due",
                ] where step.contains("INDEX \(index) ") || step.hasSuffix("INDEX \(index)") {
                    seenIndexes.insert(index)
                }
            }
        }
        // Replaying, compacting and reading a machine's journal use the index of applied entries;
        // claims the index of pending events; settling the outbox's key.
        #expect(
            seenIndexes == [
                "statechart_journal_machine", "statechart_journal_pending", "statechart_outbox_key",
                "statechart_outbox_due",
            ])
        // And a send of an identifier already journaled was recognized.
        #expect(try await store.journal(of: "machine-1").filter { $0.eventID == "again" }.count == 1)
    }
}
#endif
