#if Store && PostgreSQL
import Foundation
import PostgresNIO
import Testing

@testable import StatechartsStore

/// How PostgreSQL runs a worker's statements on a journal of some size: a batch touches its own
/// rows through an index, and never reads the whole journal.
@Suite(.enabled(if: StoreKind.postgresURL != nil, Comment(rawValue: postgresSkipMessage)))
struct JournalPlanTests {
    /// A store whose journal holds `rows` events of 10,000 machines, pending, with fresh
    /// statistics.
    func storeWithJournal(rows: Int) async throws -> PostgresMachineStore {
        let url = try #require(StoreKind.postgresURL)
        let store = try PostgresMachineStore(url: url, schema: StoreKind.newSchemaName())
        try await store.prepare()
        try await store.transaction { connection in
            try await connection.query(
                """
                INSERT INTO statechart_journal (machine_id, event_id, kind, payload, acknowledged_at)
                SELECT 'machine-' || (g % 10000), 'event-' || g, 1, '{"ping":{"_0":1}}', g
                FROM generate_series(1, \(rows)) AS g
                """, logger: Logger(label: "test"))
            try await connection.query("ANALYZE statechart_journal", logger: Logger(label: "test"))
        }
        return store
    }

    @Test("Numbering a batch of 900 applied events reads them by position, not the whole journal")
    func markingAppliedUsesThePrimaryKey() async throws {
        let store = try await storeWithJournal(rows: 120_000)
        // The batch a worker applies: the latest 900 events, numbered 1 to 900.
        let applied = (0..<900).map { index in
            MachineUpdate.AppliedEvent(position: Int64(120_000 - index), sequence: Int64(index + 1), time: 7)
        }
        let query = PostgresMachineStore.markApplied(applied)
        let plan = try await store.transaction { connection in
            var lines: [String] = []
            for try await row in try await connection.query(
                PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds), logger: Logger(label: "test"))
            {
                lines.append(try row.decode(String.self))
            }
            return lines.joined(separator: "\n")
        }
        #expect(!plan.contains("Seq Scan on statechart_journal"), "\(plan)")
        #expect(plan.contains("statechart_journal_pkey"), "\(plan)")

        // And the statement does what it says: exactly those events are numbered, each with its own.
        let numbered = try await store.transaction { connection in
            try await connection.query(query, logger: Logger(label: "test"))
            var numbers: [Int64: Int64] = [:]
            for try await row in try await connection.query(
                "SELECT position, sequence FROM statechart_journal WHERE sequence IS NOT NULL",
                logger: Logger(label: "test"))
            {
                let (position, sequence) = try row.decode((Int64, Int64).self)
                numbers[position] = sequence
            }
            return numbers
        }
        #expect(numbered.count == 900)
        #expect(applied.allSatisfy { numbered[$0.position] == $0.sequence })
    }
}
#endif
