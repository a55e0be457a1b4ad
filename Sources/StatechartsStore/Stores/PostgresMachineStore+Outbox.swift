#if Store
#if PostgreSQL
import Logging
import PostgresNIO

extension PostgresMachineStore {
    /// Claims due entries, soonest first, with `FOR UPDATE SKIP LOCKED`: workers claiming at the
    /// same moment take different entries instead of waiting for each other.
    public func claimEffects(_ request: EffectClaimRequest) async throws(StoreError) -> [OutboxEntry] {
        if request.limit < 1 { return [] }
        let logger = logger
        do {
            return try await transaction { connection -> [OutboxEntry] in
                var due = try await Self.outboxEntries(
                    connection,
                    """
                    \(unescaped: Self.outboxColumns) WHERE NOT dead AND due_at <= \(request.now)
                    ORDER BY due_at LIMIT \(request.limit) FOR UPDATE SKIP LOCKED
                    """, logger)
                if due.isEmpty { return [] }
                for index in due.indices {
                    due[index].attempts += 1
                    due[index].dueAt = request.now &+ max(0, request.lease(due[index].kind))
                }
                let machines = due.map(\.key.machine)
                let sequences = due.map(\.key.sequence)
                let indexes = due.map { Int64($0.key.index) }
                let leases = due.map(\.dueAt)
                try await connection.collect(
                    """
                    UPDATE statechart_outbox o SET attempts = o.attempts + 1, due_at = c.lease
                    FROM unnest(\(machines)::text[], \(sequences)::bigint[], \(indexes)::bigint[], \(leases)::bigint[])
                        AS c(m, s, i, lease)
                    WHERE o.machine_id = c.m AND o.sequence = c.s AND o.effect_index = c.i
                    """, logger: logger)
                return due
            }
        } catch {
            throw Self.failure("claiming effects", error)
        }
    }

    /// Removes delivered entries, and reschedules or buries failed ones, in one transaction.
    public func settleEffects(_ outcomes: [EffectOutcome]) async throws(StoreError) {
        if outcomes.isEmpty { return }
        let logger = logger
        do {
            try await transaction { connection in
                let delivered = outcomes.filter { $0.result == .delivered }.map(\.key)
                if !delivered.isEmpty {
                    let machines = delivered.map(\.machine)
                    let sequences = delivered.map(\.sequence)
                    let indexes = delivered.map { Int64($0.index) }
                    try await connection.collect(
                        """
                        DELETE FROM statechart_outbox o
                        USING unnest(\(machines)::text[], \(sequences)::bigint[], \(indexes)::bigint[]) AS d(m, s, i)
                        WHERE o.machine_id = d.m AND o.sequence = d.s AND o.effect_index = d.i
                        """, logger: logger)
                }
                var failed: [(EffectKey, Int, Int64, String, Bool)] = []
                for outcome in outcomes {
                    switch outcome.result {
                    case .delivered: continue
                    case .retry(let time, let error): failed.append((outcome.key, outcome.attempt, time, error, false))
                    case .deadLetter(let error): failed.append((outcome.key, outcome.attempt, 0, error, true))
                    }
                }
                if !failed.isEmpty {
                    let machines = failed.map(\.0.machine)
                    let sequences = failed.map(\.0.sequence)
                    let indexes = failed.map { Int64($0.0.index) }
                    let attempts = failed.map { Int64($0.1) }
                    let times = failed.map(\.2)
                    let errors = failed.map(\.3)
                    let dead = failed.map(\.4)
                    try await connection.collect(
                        """
                        UPDATE statechart_outbox o SET dead = f.dead, last_error = f.error,
                            due_at = CASE WHEN f.dead THEN o.due_at ELSE f.time END
                        FROM unnest(\(machines)::text[], \(sequences)::bigint[], \(indexes)::bigint[],
                            \(attempts)::bigint[], \(times)::bigint[], \(errors)::text[], \(dead)::boolean[])
                            AS f(m, s, i, attempt, time, error, dead)
                        WHERE o.machine_id = f.m AND o.sequence = f.s AND o.effect_index = f.i
                            AND o.attempts = f.attempt AND NOT o.dead
                        """, logger: logger)
                }
            }
        } catch {
            throw Self.failure("settling \(outcomes.count) effects", error)
        }
    }

    /// The machine's outbox entries, pending and dead, in the order it asked for them.
    public func outbox(of machine: String) async throws(StoreError) -> [OutboxEntry] {
        let logger = logger
        do {
            return try await connection { connection in
                try await Self.outboxEntries(
                    connection,
                    "\(unescaped: Self.outboxColumns) WHERE machine_id = \(machine) ORDER BY sequence, effect_index",
                    logger)
            }
        } catch {
            throw Self.failure("reading the outbox of \(machine)", error)
        }
    }

    /// Dead letters, the longest dead first.
    public func deadLetters(limit: Int) async throws(StoreError) -> [OutboxEntry] {
        let logger = logger
        do {
            return try await connection { connection in
                try await Self.outboxEntries(
                    connection,
                    """
                    \(unescaped: Self.outboxColumns) WHERE dead
                    ORDER BY due_at, machine_id, sequence, effect_index LIMIT \(max(0, limit))
                    """, logger)
            }
        } catch {
            throw Self.failure("reading dead letters", error)
        }
    }

    /// Makes a dead letter due again, its attempts counted from zero.
    public func retryDeadLetter(_ key: EffectKey, at time: Int64) async throws(StoreError) -> Bool {
        let logger = logger
        do {
            return try await connection { connection in
                let rows = try await connection.collect(
                    """
                    UPDATE statechart_outbox SET dead = false, attempts = 0, due_at = \(time)
                    WHERE machine_id = \(key.machine) AND sequence = \(key.sequence)
                        AND effect_index = \(Int64(key.index)) AND dead
                    RETURNING machine_id
                    """, logger: logger)
                return !rows.isEmpty
            }
        } catch {
            throw Self.failure("retrying the dead letter \(key)", error)
        }
    }

    /// How many machines are in each configuration and status.
    public func census() async throws(StoreError) -> [MachineCensus] {
        let logger = logger
        do {
            return try await connection { connection in
                var lines: [MachineCensus] = []
                for row in try await connection.collect(
                    """
                    SELECT configuration, status, count(*) AS machines FROM statechart_machines
                    GROUP BY configuration, status ORDER BY machines DESC, configuration, status
                    """, logger: logger
                ) {
                    let (configuration, status, count) = try row.decode((String, String, Int).self)
                    lines.append(MachineCensus(configuration: configuration, status: status, count: count))
                }
                return lines
            }
        } catch {
            throw Self.failure("counting machines by state", error)
        }
    }

    static let outboxColumns = """
        SELECT machine_id, sequence, effect_index, kind, send_id, payload, due_at, attempts, last_error, dead
        FROM statechart_outbox
        """

    static func outboxEntries(
        _ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger
    ) async throws -> [OutboxEntry] {
        var entries: [OutboxEntry] = []
        for row in try await connection.collect(query, logger: logger) {
            let (machine, sequence, index, kind, sendID, payload, due, attempts, error, dead) = try row.decode(
                (String, Int64, Int, String, String?, String, Int64, Int, String?, Bool).self)
            entries.append(
                OutboxEntry(
                    key: EffectKey(machine: machine, sequence: sequence, index: index), kind: kind, sendID: sendID,
                    payload: payload, dueAt: due, attempts: attempts, lastError: error, isDeadLetter: dead))
        }
        return entries
    }
}
#endif
#endif
