#if Store
import GRDB

extension SQLiteMachineStore {
    /// Claims due entries, soonest first, in one write transaction: SQLite's write lock makes it
    /// the only one, so no two workers claim the same attempt.
    public func claimEffects(_ request: EffectClaimRequest) async throws(StoreError) -> [OutboxEntry] {
        if request.limit < 1 { return [] }
        do {
            // A look first, in a read that takes no lock: a worker with nothing to deliver does
            // not queue for the write lock that the transactions applying events hold.
            let anyDue = try await pool.read { db in
                try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM statechart_outbox WHERE dead = 0 AND due_at <= ?)"),
                    arguments: [request.now]) ?? false
            }
            if !anyDue { return [] }
            return try await pool.write { db in
                let due = try Row.fetchAll(
                    db.cachedStatement(
                        sql: "\(Self.outboxColumns) WHERE dead = 0 AND due_at <= ? ORDER BY due_at LIMIT ?"),
                    arguments: [request.now, request.limit]
                ).map(Self.outboxEntry)
                let lease = try db.cachedStatement(
                    sql: """
                        UPDATE statechart_outbox SET attempts = attempts + 1, due_at = ?
                        WHERE machine_id = ? AND sequence = ? AND effect_index = ?
                        """)
                return try due.map { entry in
                    var claimed = entry
                    claimed.attempts += 1
                    claimed.dueAt = request.now &+ max(0, request.lease(entry.kind))
                    try lease.execute(arguments: [
                        claimed.dueAt, entry.key.machine, entry.key.sequence, entry.key.index,
                    ])
                    return claimed
                }
            }
        } catch {
            throw Self.failure("claiming effects", error)
        }
    }

    /// Removes delivered entries, and reschedules or buries failed ones, in one transaction.
    public func settleEffects(_ outcomes: [EffectOutcome]) async throws(StoreError) {
        if outcomes.isEmpty { return }
        do {
            try await pool.write { db in
                let delete = try db.cachedStatement(
                    sql: "DELETE FROM statechart_outbox WHERE machine_id = ? AND sequence = ? AND effect_index = ?")
                let retry = try db.cachedStatement(
                    sql: """
                        UPDATE statechart_outbox SET due_at = ?, last_error = ?
                        WHERE machine_id = ? AND sequence = ? AND effect_index = ? AND attempts = ? AND dead = 0
                        """)
                let bury = try db.cachedStatement(
                    sql: """
                        UPDATE statechart_outbox SET dead = 1, last_error = ?
                        WHERE machine_id = ? AND sequence = ? AND effect_index = ? AND attempts = ? AND dead = 0
                        """)
                for outcome in outcomes {
                    let key = outcome.key
                    switch outcome.result {
                    case .delivered:
                        try delete.execute(arguments: [key.machine, key.sequence, key.index])
                    case .retry(let time, let error):
                        try retry.execute(arguments: [
                            time, error, key.machine, key.sequence, key.index, outcome.attempt,
                        ])
                    case .deadLetter(let error):
                        try bury.execute(arguments: [error, key.machine, key.sequence, key.index, outcome.attempt])
                    }
                }
            }
        } catch {
            throw Self.failure("settling \(outcomes.count) effects", error)
        }
    }

    /// The machine's outbox entries, pending and dead, in the order it asked for them.
    public func outbox(of machine: String) async throws(StoreError) -> [OutboxEntry] {
        do {
            return try await pool.read { db in
                try Row.fetchAll(
                    db, sql: "\(Self.outboxColumns) WHERE machine_id = ? ORDER BY sequence, effect_index",
                    arguments: [machine]
                ).map(Self.outboxEntry)
            }
        } catch {
            throw Self.failure("reading the outbox of \(machine)", error)
        }
    }

    /// Dead letters, the longest dead first.
    public func deadLetters(limit: Int) async throws(StoreError) -> [OutboxEntry] {
        do {
            return try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql:
                        "\(Self.outboxColumns) WHERE dead = 1 ORDER BY due_at, machine_id, sequence, effect_index LIMIT ?",
                    arguments: [max(0, limit)]
                ).map(Self.outboxEntry)
            }
        } catch {
            throw Self.failure("reading dead letters", error)
        }
    }

    /// Makes a dead letter due again, its attempts counted from zero.
    public func retryDeadLetter(_ key: EffectKey, at time: Int64) async throws(StoreError) -> Bool {
        do {
            return try await pool.write { db in
                try db.execute(
                    sql: """
                        UPDATE statechart_outbox SET dead = 0, attempts = 0, due_at = ?
                        WHERE machine_id = ? AND sequence = ? AND effect_index = ? AND dead = 1
                        """, arguments: [time, key.machine, key.sequence, key.index])
                return db.changesCount > 0
            }
        } catch {
            throw Self.failure("retrying the dead letter \(key)", error)
        }
    }

    /// How many machines are in each configuration and status.
    public func census() async throws(StoreError) -> [MachineCensus] {
        do {
            return try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT configuration, status, count(*) AS machines FROM statechart_machines
                        GROUP BY configuration, status ORDER BY machines DESC, configuration, status
                        """
                ).map { MachineCensus(configuration: $0[0], status: $0[1], count: $0[2]) }
            }
        } catch {
            throw Self.failure("counting machines by state", error)
        }
    }

    static let outboxColumns = """
        SELECT machine_id, sequence, effect_index, kind, send_id, payload, due_at, attempts, last_error, dead
        FROM statechart_outbox
        """

    static func outboxEntry(_ row: Row) -> OutboxEntry {
        OutboxEntry(
            key: EffectKey(machine: row[0], sequence: row[1], index: row[2]), kind: row[3], sendID: row[4],
            payload: row[5], dueAt: row[6], attempts: row[7], lastError: row[8], isDeadLetter: (row[9] as Int) != 0)
    }
}
#endif
