#if Store
#if PostgreSQL
import Foundation
import Statecharts
import Logging
import PostgresNIO

/// Durable machines in PostgreSQL, shared by workers in any number of processes on any number of
/// hosts (with the trait PostgreSQL, on by default).
///
/// ```swift
/// let store = try PostgresMachineStore(url: "postgres://app:secret@db.internal:5432/fleet")
/// try await store.prepare()
/// ```
///
/// A worker's transaction claims machines with `SELECT … FOR UPDATE SKIP LOCKED` on their rows:
/// the row lock makes it the machine's one writer until it commits, and other workers skip the
/// machine instead of waiting for it. A worker that dies mid-transaction holds nothing: PostgreSQL
/// rolls its transaction back when the connection drops, and the next worker claims the machines
/// and their pending events. Schema versions are recorded in `statechart_schema_migrations` and
/// applied under an advisory lock, so workers starting together migrate once.
///
/// The tables live in one schema (`public` unless you name another), so that several fleets, or
/// a fleet and its tests, can share a database. The store keeps a pool of connections;
/// ``close()`` ends it.
public final class PostgresMachineStore: MachineStore {
    /// The pool of connections, and the task that runs it; replaced by a new one when an
    /// operation outlives ``operationTimeLimit`` (see ``bounded(_:)``).
    private let pool: Locked<(client: PostgresClient, running: Task<Void, Never>)>
    private let configuration: PostgresClient.Configuration
    /// How long one operation may take before the store gives up on its pool of connections.
    public let operationTimeLimit: Duration
    /// The schema that holds the tables.
    public let schema: String
    let logger: Logger
    /// The listeners of ``listen(_:)``, which share one listening connection.
    let notifications = NotificationHub()

    /// The store's name in errors.
    static let name = "PostgreSQL store"

    /// The schema version this library writes.
    static let schemaVersion = 2

    /// A store on the database at `url` (`postgres://user:password@host:port/database`), over at
    /// most `connections` connections, without TLS unless the URL asks for it
    /// (`?sslmode=require`).
    ///
    /// The tables go in `schema`, which ``prepare()`` creates when it does not exist. An
    /// operation that takes longer than `operationTimeLimit` fails, and the store starts a new pool
    /// of connections (see ``init(configuration:schema:operationTimeLimit:)``).
    ///
    /// - Throws: ``StoreError/invalidConfiguration(_:)`` when the URL is not one, or the schema
    ///   name is not a plain lowercase identifier.
    public convenience init(
        url: String, schema: String = "public", connections: Int = 4, operationTimeLimit: Duration = .seconds(30)
    ) throws(StoreError) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, let user = components.user
        else {
            throw .invalidConfiguration("'\(url)' is not a postgres://user:password@host:port/database URL")
        }
        let requireTLS = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } ?? false
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: String(components.path.drop(while: { $0 == "/" })).nilIfEmpty,
            tls: requireTLS ? .require(.makeClientConfiguration()) : .disable)
        configuration.options.maximumConnections = max(1, connections)
        try self.init(configuration: configuration, schema: schema, operationTimeLimit: operationTimeLimit)
    }

    /// A store on the database that `configuration` describes, with its tables in `schema`.
    ///
    /// - Throws: ``StoreError/invalidConfiguration(_:)`` when the schema name is not a plain
    ///   lowercase identifier (letters, digits and underscores, at most 63 bytes).
    ///
    /// An operation (a transaction, a read) that takes longer than `operationTimeLimit` fails with
    /// ``StoreError/database(store:operation:message:)``, and the store starts a new pool of
    /// connections for the next ones: after a server restart or connections cut mid-way, a pool
    /// can be left waiting for connections that never come back.
    public init(
        configuration: PostgresClient.Configuration, schema: String = "public",
        operationTimeLimit: Duration = .seconds(30)
    ) throws(StoreError) {
        guard Self.isPlainIdentifier(schema) else {
            throw .invalidConfiguration("'\(schema)' is not a schema name of lowercase letters, digits and underscores")
        }
        var configuration = configuration
        configuration.options.additionalStartupParameters.append(("search_path", schema))
        self.schema = schema
        self.configuration = configuration
        self.operationTimeLimit = operationTimeLimit
        logger = Logger(label: "statecharts.store.postgres") { _ in SwiftLogNoOpLogHandler() }
        pool = Locked(Self.startPool(configuration, logger))
    }

    deinit {
        notifications.stop()
        pool.withLock { $0.running }.cancel()
    }

    /// Closes the store's connections.
    public func close() {
        notifications.stop()
        pool.withLock { $0.running }.cancel()
    }

    /// The pool of connections now.
    var client: PostgresClient { pool.withLock { $0.client } }

    private static func startPool(
        _ configuration: PostgresClient.Configuration, _ logger: Logger
    ) -> (client: PostgresClient, running: Task<Void, Never>) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return (client, Task { await client.run() })
    }

    /// Why an operation failed when it outlived ``operationTimeLimit``.
    struct OperationTimedOut: Error, CustomStringConvertible {
        let limit: Duration
        var description: String {
            "no answer within \(limit); the store starts a new pool of connections for the next operations"
        }
    }

    /// Runs `operation` on the pool, for at most ``operationTimeLimit``. Past it, the caller gets
    /// ``OperationTimedOut`` at once, `operation` is cancelled (a task that does not answer its
    /// cancellation is left behind, never awaited), and the pool is replaced by a new one, so
    /// that a pool left waiting for dead connections does not hold up the store for good.
    func bounded<Result: Sendable>(
        _ operation: @escaping @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        let client = client
        let task = Task { try await operation(client) }
        let limit = operationTimeLimit
        let settled = Locked(false)
        let outcome: Result? = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result?, any Error>) in
                Task {
                    let result = await task.result
                    if Self.settle(settled) { continuation.resume(with: result.map { $0 as Result? }) }
                }
                Task {
                    try? await Task.sleep(for: limit)
                    if Self.settle(settled) { continuation.resume(returning: nil) }
                }
            }
        } onCancel: {
            task.cancel()
        }
        guard let outcome else {
            task.cancel()
            replacePool(after: client)
            throw OperationTimedOut(limit: limit)
        }
        return outcome
    }

    /// Whether this caller is the first to settle: the other finds it settled.
    private static func settle(_ settled: Locked<Bool>) -> Bool {
        settled.withLock { settled in
            defer { settled = true }
            return !settled
        }
    }

    /// Starts a new pool in place of `stale`, unless another operation did already.
    private func replacePool(after stale: PostgresClient) {
        let old = pool.withLock { pool -> Task<Void, Never>? in
            guard pool.client === stale else { return nil }
            let running = pool.running
            pool = Self.startPool(configuration, logger)
            return running
        }
        old?.cancel()
    }

    /// A transaction on a connection of the pool, within ``operationTimeLimit``.
    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = logger
        return try await bounded { client in try await client.withTransaction(logger: logger) { try await body($0) } }
    }

    /// A connection of the pool, within ``operationTimeLimit``.
    func connection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await bounded { client in try await client.withConnection { try await body($0) } }
    }

    /// Whether `name` can be written in SQL as it is: a lowercase letter or underscore, then up
    /// to 62 lowercase letters, digits or underscores.
    static func isPlainIdentifier(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 63,
            first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return bytes.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    static func failure(_ operation: String, _ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresTransactionError {
            if let inner = error.closureError { return failure(operation, inner) }
            if let inner = error.commitError { return failure(operation, inner) }
            if let inner = error.beginError { return failure(operation, inner) }
        }
        if let error = error as? PSQLError {
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            return .database(store: name, operation: operation, message: message)
        }
        return .database(store: name, operation: operation, message: String(reflecting: error))
    }

    /// Creates or migrates the tables, once, however many workers call it at the same time.
    public func prepare() async throws(StoreError) {
        let logger = logger
        let schema = schema
        do {
            try await transaction { connection in
                try await connection.collect("SELECT pg_advisory_xact_lock(72017201)", logger: logger)
                try await connection.collect(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
                try await connection.collect(
                    """
                    CREATE TABLE IF NOT EXISTS statechart_schema_migrations (
                        version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                var current = 0
                for row in try await connection.collect(
                    "SELECT coalesce(max(version), 0) FROM statechart_schema_migrations", logger: logger
                ) {
                    let version = try row.decode(Int.self)
                    current = version
                }
                if current > Self.schemaVersion {
                    throw StoreError.schemaTooNew(found: current, supported: Self.schemaVersion)
                }
                if current < 1 {
                    for statement in Self.version1 {
                        try await connection.collect(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.collect(
                        "INSERT INTO statechart_schema_migrations (version) VALUES (1)", logger: logger)
                }
                if current < 2 {
                    for statement in Self.version2 {
                        try await connection.collect(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.collect(
                        "INSERT INTO statechart_schema_migrations (version) VALUES (2)", logger: logger)
                }
            }
        } catch {
            throw Self.failure("migrating the schema", error)
        }
    }

    static let version1 = [
        """
        CREATE TABLE statechart_machines (
            id TEXT PRIMARY KEY,
            epoch BIGINT NOT NULL,
            applied_sequence BIGINT NOT NULL DEFAULT 0,
            snapshot_sequence BIGINT NOT NULL DEFAULT 0,
            snapshot TEXT,
            configuration TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'notStarted')
        """,
        """
        CREATE TABLE statechart_journal (
            position BIGSERIAL PRIMARY KEY,
            machine_id TEXT NOT NULL,
            event_id TEXT,
            kind INTEGER NOT NULL,
            payload TEXT,
            sequence BIGINT,
            time BIGINT,
            acknowledged_at BIGINT NOT NULL)
        """,
        "CREATE UNIQUE INDEX statechart_journal_event ON statechart_journal (machine_id, event_id)",
        "CREATE UNIQUE INDEX statechart_journal_sequence ON statechart_journal (machine_id, sequence)",
        "CREATE INDEX statechart_journal_pending ON statechart_journal (position) WHERE sequence IS NULL",
        """
        CREATE TABLE statechart_timers (
            machine_id TEXT NOT NULL,
            serial BIGINT NOT NULL,
            name TEXT NOT NULL,
            due_at BIGINT NOT NULL,
            PRIMARY KEY (machine_id, serial))
        """,
        "CREATE INDEX statechart_timers_due ON statechart_timers (due_at)",
    ]

    /// The outbox: effects of applied steps until they are delivered, and dead letters.
    static let version2 = [
        """
        CREATE TABLE statechart_outbox (
            machine_id TEXT NOT NULL,
            sequence BIGINT NOT NULL,
            effect_index INTEGER NOT NULL,
            kind TEXT NOT NULL,
            send_id TEXT,
            payload TEXT NOT NULL,
            due_at BIGINT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            dead BOOLEAN NOT NULL DEFAULT false,
            PRIMARY KEY (machine_id, sequence, effect_index))
        """,
        "CREATE INDEX statechart_outbox_due ON statechart_outbox (due_at) WHERE NOT dead",
        "CREATE INDEX statechart_outbox_dead ON statechart_outbox (due_at) WHERE dead",
        "CREATE INDEX statechart_outbox_send ON statechart_outbox (machine_id, send_id) WHERE send_id IS NOT NULL",
    ]

    /// Journals `events` in one transaction, creating the machines they name; returns once it is
    /// committed.
    public func enqueue(_ events: [IncomingEvent]) async throws(StoreError) -> [Admission] {
        if events.isEmpty { return [] }
        let logger = logger
        do {
            let inserted = try await transaction { connection -> [String: Int64] in
                try await Self.journal(events, connection, logger)
            }
            var seen: Set<String> = []
            return events.map { event in
                let key = event.machine + "\u{0}" + event.eventID
                guard seen.insert(key).inserted, let position = inserted[key] else { return .duplicate }
                return .journaled(position: position)
            }
        } catch {
            throw Self.failure("journaling \(events.count) events", error)
        }
    }

    /// Journals `events` on `connection`, creating the machines they name; returns the position of
    /// each event journaled, by machine and event identifier joined with a NUL.
    ///
    /// Only machines that do not exist are inserted, in the order of their identifiers. An
    /// `INSERT … ON CONFLICT` on a machine's row that a worker's transaction has updated waits for
    /// that transaction; a worker's transaction that journals its sends to other machines while
    /// holding its own would then wait in a circle with another doing the same (PostgreSQL's
    /// "deadlock detected"). The rows that exist are left out by a look at the snapshot, which
    /// waits for no one.
    static func journal(
        _ events: [IncomingEvent], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [String: Int64] {
        var epochs: [String: Int64] = [:]
        for event in events where epochs[event.machine] == nil { epochs[event.machine] = event.acknowledgedAt }
        let machines = epochs.keys.sorted()
        let machineEpochs = machines.map { epochs[$0] ?? 0 }
        try await connection.collect(
            """
            INSERT INTO statechart_machines (id, epoch)
            SELECT id, epoch FROM unnest(\(machines)::text[], \(machineEpochs)::bigint[]) AS t(id, epoch)
            WHERE NOT EXISTS (SELECT 1 FROM statechart_machines m WHERE m.id = t.id)
            ORDER BY id ON CONFLICT DO NOTHING
            """, logger: logger)
        let ids = events.map(\.machine)
        let eventIDs = events.map(\.eventID)
        let payloads = events.map(\.payload)
        let times = events.map(\.acknowledgedAt)
        let kinds = events.map(\.kind.rawValue)
        var inserted: [String: Int64] = [:]
        // The notification (``listen(_:)``) goes in the same statement, when something was
        // inserted: no round trip of its own.
        let change = StoreChange.events.rawValue
        let rows = try await connection.collect(
            """
            WITH inserted AS (
                INSERT INTO statechart_journal (machine_id, event_id, kind, payload, acknowledged_at)
                SELECT m, e, k, p, a FROM unnest(\(ids)::text[], \(eventIDs)::text[], \(payloads)::text[],
                    \(times)::bigint[], \(kinds)::integer[]) AS t(m, e, p, a, k)
                ON CONFLICT (machine_id, event_id) DO NOTHING
                RETURNING machine_id, event_id, position
            ), notified AS (
                SELECT pg_notify('statecharts_' || current_schema(), \(change)) FROM (SELECT 1) AS one
                WHERE EXISTS (SELECT 1 FROM inserted)
            )
            SELECT i.machine_id, i.event_id, i.position FROM inserted i LEFT JOIN notified ON true
            """, logger: logger)
        for row in rows {
            let (machine, eventID, position) = try row.decode((String, String, Int64).self)
            inserted[machine + "\u{0}" + eventID] = position
        }
        return inserted
    }

    /// Tells the listeners of this schema's fleet (``listen(_:)``) of `change` when the
    /// transaction on `connection` commits; PostgreSQL sends one notification per transaction
    /// however many times it is asked.
    static func notify(_ change: StoreChange, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let payload = change.rawValue
        try await connection.collect(
            "SELECT pg_notify('statecharts_' || current_schema(), \(payload))", logger: logger)
    }

    /// Every store on the same schema, in every process, notifies on this channel.
    var channel: String { "statecharts_\(schema)" }

    /// `true`: `LISTEN`/`NOTIFY`.
    public var notifiesChanges: Bool { true }

    /// 256 machines: workers of several processes claim at the same time, each skipping the
    /// machines another holds, and larger batches kept them waiting on each other's commits
    /// (four workers, 100,000 events: 7,016 and 8,928 applied events per second at 256, 6,878 and
    /// 7,440 at 1,024, 5,829 and 6,686 at 4,096).
    public var preferredMachinesPerBatch: Int { 256 }

    /// Calls `wake` for each notification on the schema's channel, and once for each kind when it
    /// starts, for the work committed before then, until the task is cancelled. Every listener of
    /// this store shares one connection (one of the pool's), which listens again a second after it
    /// fails; polling finds the work meanwhile.
    public func listen(_ wake: @escaping @Sendable (StoreChange) -> Void) async throws(StoreError) {
        let current: @Sendable () -> PostgresClient? = { [weak self] in self?.client }
        let id = notifications.add(wake) { [channel, logger] hub in
            Task { await Self.listen(current, channel: channel, logger: logger, hub: hub) }
        }
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        notifications.remove(id)
    }

    /// Listens on `channel`, on a connection of the store's pool as it is now (`client`: `nil`
    /// once the store is gone), and hands each notification to `hub`, until cancelled.
    static func listen(
        _ client: @escaping @Sendable () -> PostgresClient?, channel: String, logger: Logger, hub: NotificationHub
    ) async {
        while !Task.isCancelled, let pool = client() {
            do {
                try await pool.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        hub.wake(.events)
                        hub.wake(.effects)
                        for try await notification in notifications {
                            hub.wake(StoreChange(rawValue: notification.payload) ?? .events)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for notifications failed, again in a second: \(error)")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Claims machines with pending events (oldest first) or timers due with `FOR UPDATE SKIP
    /// LOCKED`, skipping those other workers hold, and commits what `apply` returns.
    public func process(
        _ request: ClaimRequest, apply: @escaping @Sendable ([ClaimedMachine]) throws -> [MachineUpdate]
    ) async throws(StoreError) -> [MachineUpdate] {
        let logger = logger
        do {
            return try await transaction { connection -> [MachineUpdate] in
                var rows = try await Self.claim(connection, request, logger)
                if rows.isEmpty { return [] }
                rows.sort { $0.id < $1.id }
                let ids = rows.map(\.id)
                var pending: [String: [PendingEvent]] = [:]
                for row in try await connection.collect(
                    """
                    SELECT position, machine_id, event_id, payload, kind FROM statechart_journal
                    WHERE machine_id = ANY(\(ids)::text[]) AND sequence IS NULL ORDER BY position
                    """, logger: logger
                ) {
                    let (position, machine, eventID, payload, kind) = try row.decode(
                        (Int64, String, String?, String?, Int).self)
                    guard pending[machine, default: []].count < request.eventLimit else { continue }
                    pending[machine, default: []].append(
                        PendingEvent(
                            position: position, eventID: eventID ?? "", payload: payload ?? "",
                            kind: JournalEntry.Kind(rawValue: kind) ?? .event))
                }
                let stale = rows.filter { request.cachedSequence($0.id) != $0.appliedSequence }
                var replay: [String: [JournalEntry]] = [:]
                for row in stale { replay[row.id] = [] }
                if !stale.isEmpty {
                    let staleIDs = stale.map(\.id)
                    let after = stale.map(\.snapshotSequence)
                    for row in try await connection.collect(
                        """
                        SELECT j.machine_id, j.sequence, j.kind, j.time, j.event_id, j.payload
                        FROM statechart_journal j
                        JOIN unnest(\(staleIDs)::text[], \(after)::bigint[]) AS s(id, after) ON j.machine_id = s.id
                        WHERE j.sequence > s.after ORDER BY j.machine_id, j.sequence
                        """, logger: logger
                    ) {
                        let (machine, sequence, kind, time, eventID, payload) = try row.decode(
                            (String, Int64, Int, Int64, String?, String?).self)
                        replay[machine, default: []].append(
                            JournalEntry(
                                sequence: sequence, kind: JournalEntry.Kind(rawValue: kind) ?? .advance, time: time,
                                eventID: eventID, payload: payload))
                    }
                }
                let claimed = rows.map { row in
                    ClaimedMachine(record: row, replay: replay[row.id], pending: pending[row.id] ?? [])
                }
                let updates = try apply(claimed)
                try await Self.write(updates, connection, logger)
                return updates
            }
        } catch {
            throw Self.failure("applying events", error)
        }
    }

    /// Locks the rows of machines with pending events, then of machines with timers due, skipping
    /// those another worker holds.
    static func claim(
        _ connection: PostgresConnection, _ request: ClaimRequest, _ logger: Logger
    ) async throws -> [MachineRow] {
        var rows: [MachineRow] = []
        let scan = request.machineLimit * 16
        let excluded = request.excluded.sorted()
        rows += try await lock(
            connection,
            candidates: """
                SELECT machine_id FROM statechart_journal
                WHERE sequence IS NULL AND NOT (machine_id = ANY(\(excluded)::text[])) ORDER BY position LIMIT \(scan)
                """, limit: request.machineLimit, excluding: [], logger)
        if rows.count < request.machineLimit {
            rows += try await lock(
                connection,
                candidates: """
                    SELECT machine_id FROM statechart_timers
                    WHERE due_at <= \(request.now) AND NOT (machine_id = ANY(\(excluded)::text[]))
                    ORDER BY due_at LIMIT \(scan)
                    """, limit: request.machineLimit - rows.count, excluding: rows.map(\.id), logger)
        }
        return rows
    }

    static func lock(
        _ connection: PostgresConnection, candidates: PostgresQuery, limit: Int, excluding: [String], _ logger: Logger
    ) async throws -> [MachineRow] {
        var ids: [String] = []
        var seen = Set(excluding)
        for row in try await connection.collect(candidates, logger: logger) {
            let id = try row.decode(String.self)
            guard seen.insert(id).inserted else { continue }
            ids.append(id)
        }
        if ids.isEmpty { return [] }
        var rows: [MachineRow] = []
        for row in try await connection.collect(
            """
            SELECT id, epoch, applied_sequence, snapshot_sequence, snapshot, configuration, status
            FROM statechart_machines WHERE id = ANY(\(ids)::text[])
            ORDER BY id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            """, logger: logger
        ) {
            let (id, epoch, applied, snapshotSequence, snapshot, configuration, status) = try row.decode(
                (String, Int64, Int64, Int64, String?, String, String).self)
            rows.append(
                MachineRow(
                    id: id, epoch: epoch, appliedSequence: applied, snapshotSequence: snapshotSequence,
                    snapshot: snapshot, configuration: configuration, status: status))
        }
        return rows
    }

    static func write(_ updates: [MachineUpdate], _ connection: PostgresConnection, _ logger: Logger) async throws {
        if updates.isEmpty { return }
        let applied = updates.flatMap(\.appliedEvents)
        if !applied.isEmpty { try await connection.collect(markApplied(applied), logger: logger) }
        let entries = updates.flatMap { update in update.newEntries.map { (update.id, $0) } }
        if !entries.isEmpty {
            let ids = entries.map(\.0)
            let kinds = entries.map { $0.1.kind.rawValue }
            let sequences = entries.map { $0.1.sequence ?? 0 }
            let times = entries.map(\.1.time)
            let now = Int64(Date().timeIntervalSince1970 * 1e9)
            try await connection.collect(
                """
                INSERT INTO statechart_journal (machine_id, kind, sequence, time, acknowledged_at)
                SELECT m, k, s, t, \(now) FROM unnest(\(ids)::text[], \(kinds)::integer[], \(sequences)::bigint[], \(times)::bigint[])
                    AS u(m, k, s, t)
                """, logger: logger)
        }
        let ids = updates.map(\.id)
        let sequences = updates.map(\.appliedSequence)
        let configurations = updates.map(\.configuration)
        let statuses = updates.map(\.status)
        let snapshots = updates.map { $0.snapshot ?? "" }
        try await connection.collect(
            """
            UPDATE statechart_machines m SET applied_sequence = u.applied, configuration = u.configuration,
                status = u.status, snapshot = coalesce(nullif(u.snapshot, ''), m.snapshot),
                snapshot_sequence = CASE WHEN u.snapshot = '' THEN m.snapshot_sequence ELSE u.applied END
            FROM unnest(\(ids)::text[], \(sequences)::bigint[], \(configurations)::text[], \(statuses)::text[],
                \(snapshots)::text[]) AS u(id, applied, configuration, status, snapshot)
            WHERE m.id = u.id
            """, logger: logger)
        let retimed = updates.filter { $0.timers != nil }
        if !retimed.isEmpty {
            let retimedIDs = retimed.map(\.id)
            try await connection.collect(
                "DELETE FROM statechart_timers WHERE machine_id = ANY(\(retimedIDs)::text[])", logger: logger)
            let timers = retimed.flatMap { update in (update.timers ?? []).map { (update.id, $0) } }
            if !timers.isEmpty {
                let machines = timers.map(\.0)
                let serials = timers.map(\.1.serial)
                let names = timers.map(\.1.name)
                let due = timers.map(\.1.dueAt)
                try await connection.collect(
                    """
                    INSERT INTO statechart_timers (machine_id, serial, name, due_at)
                    SELECT * FROM unnest(\(machines)::text[], \(serials)::bigint[], \(names)::text[], \(due)::bigint[])
                    """, logger: logger)
            }
        }
        let sends = updates.flatMap(\.sends)
        if !sends.isEmpty { _ = try await journal(sends, connection, logger) }
        let activity = OutboxEntry.activityKind
        let cancelled = updates.flatMap { update in update.cancelledSends.map { (update.id, $0) } }
        if !cancelled.isEmpty {
            let machines = cancelled.map(\.0)
            let sendIDs = cancelled.map(\.1)
            try await connection.collect(
                """
                DELETE FROM statechart_outbox o USING unnest(\(machines)::text[], \(sendIDs)::text[]) AS c(id, send)
                WHERE o.machine_id = c.id AND o.send_id = c.send AND o.kind <> \(activity) AND NOT o.dead
                """, logger: logger)
        }
        let stopped = updates.flatMap { update in update.cancelledActivities.map { (update.id, $0) } }
        if !stopped.isEmpty {
            let machines = stopped.map(\.0)
            let invocations = stopped.map(\.1)
            try await connection.collect(
                """
                DELETE FROM statechart_outbox o USING unnest(\(machines)::text[], \(invocations)::text[]) AS c(id, send)
                WHERE o.machine_id = c.id AND o.send_id = c.send AND o.kind = \(activity)
                """, logger: logger)
        }
        let effects = updates.flatMap(\.outbox)
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        if effects.contains(where: { $0.dueAt <= now }) { try await notify(.effects, connection, logger) }
        if !effects.isEmpty {
            let machines = effects.map(\.key.machine)
            let sequences = effects.map(\.key.sequence)
            let indexes = effects.map { Int64($0.key.index) }
            let kinds = effects.map(\.kind)
            let sendIDs = effects.map { $0.sendID ?? "" }
            let payloads = effects.map(\.payload)
            let due = effects.map(\.dueAt)
            let attempts = effects.map { Int64($0.attempts) }
            try await connection.collect(
                """
                INSERT INTO statechart_outbox (machine_id, sequence, effect_index, kind, send_id, payload, due_at, attempts)
                SELECT m, s, i, k, nullif(d, ''), p, t, a FROM unnest(\(machines)::text[], \(sequences)::bigint[],
                    \(indexes)::bigint[], \(kinds)::text[], \(sendIDs)::text[], \(payloads)::text[], \(due)::bigint[],
                    \(attempts)::bigint[])
                    AS e(m, s, i, k, d, p, t, a)
                """, logger: logger)
        }
        let compacted = updates.compactMap { update in update.compactThrough.map { (update.id, $0) } }
        if !compacted.isEmpty {
            let machines = compacted.map(\.0)
            let through = compacted.map(\.1)
            try await connection.collect(
                """
                DELETE FROM statechart_journal j USING unnest(\(machines)::text[], \(through)::bigint[]) AS c(id, through)
                WHERE j.machine_id = c.id AND j.sequence <= c.through
                """, logger: logger)
        }
    }

    /// Numbers the events `applied`, by journal position.
    ///
    /// The positions are also given as `position = ANY(…)`: joined only to the array, the
    /// planner, which cannot tell how many journal rows match, hashes the whole journal once it
    /// holds about a hundred thousand rows (62 ms for a batch of 900 on a journal of 110,000,
    /// where reading the 900 rows through the primary key takes 2). The array is sent twice; that
    /// costs less than a statement of its own would.
    static func markApplied(_ applied: [MachineUpdate.AppliedEvent]) -> PostgresQuery {
        let positions = applied.map(\.position)
        let sequences = applied.map(\.sequence)
        let times = applied.map(\.time)
        return """
            UPDATE statechart_journal j SET sequence = u.sequence, time = u.time
            FROM unnest(\(positions)::bigint[], \(sequences)::bigint[], \(times)::bigint[]) AS u(position, sequence, time)
            WHERE j.position = u.position AND j.position = ANY(\(positions)::bigint[])
            """
    }

    /// The machine's row, its journal after its snapshot (pending events left out) and its timers.
    public func record(of machine: String) async throws(StoreError) -> MachineRecord? {
        let logger = logger
        do {
            return try await connection { connection -> MachineRecord? in
                var found: MachineRow?
                for row in try await connection.collect(
                    """
                    SELECT epoch, applied_sequence, snapshot_sequence, snapshot, configuration, status
                    FROM statechart_machines WHERE id = \(machine)
                    """, logger: logger
                ) {
                    let (epoch, applied, snapshotSequence, snapshot, configuration, status) = try row.decode(
                        (Int64, Int64, Int64, String?, String, String).self)
                    found = MachineRow(
                        id: machine, epoch: epoch, appliedSequence: applied, snapshotSequence: snapshotSequence,
                        snapshot: snapshot, configuration: configuration, status: status)
                }
                guard let row = found else { return nil }
                let journal = try await Self.entries(
                    connection,
                    """
                    SELECT sequence, kind, time, event_id, payload FROM statechart_journal
                    WHERE machine_id = \(machine) AND sequence > \(row.snapshotSequence) ORDER BY sequence
                    """, logger)
                var timers: [TimerRow] = []
                for row in try await connection.collect(
                    """
                    SELECT serial, name, due_at FROM statechart_timers WHERE machine_id = \(machine)
                    ORDER BY due_at, serial
                    """, logger: logger
                ) {
                    let (serial, name, due) = try row.decode((Int64, String, Int64).self)
                    timers.append(TimerRow(serial: serial, name: name, dueAt: due))
                }
                return MachineRecord(row: row, journal: journal, timers: timers)
            }
        } catch {
            throw Self.failure("reading machine \(machine)", error)
        }
    }

    static func entries(
        _ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger
    ) async throws
        -> [JournalEntry]
    {
        var entries: [JournalEntry] = []
        for row in try await connection.collect(query, logger: logger) {
            let (sequence, kind, time, eventID, payload) = try row.decode((Int64?, Int, Int64?, String?, String?).self)
            entries.append(
                JournalEntry(
                    sequence: sequence, kind: JournalEntry.Kind(rawValue: kind) ?? .advance, time: time ?? 0,
                    eventID: eventID, payload: payload))
        }
        return entries
    }

    /// Every journal entry of the machine that compaction kept, applied or pending, in order.
    public func journal(of machine: String) async throws(StoreError) -> [JournalEntry] {
        let logger = logger
        do {
            return try await connection { connection in
                try await Self.entries(
                    connection,
                    """
                    SELECT sequence, kind, time, event_id, payload FROM statechart_journal WHERE machine_id = \(machine)
                    ORDER BY sequence IS NULL, sequence, position
                    """, logger)
            }
        } catch {
            throw Self.failure("reading the journal of \(machine)", error)
        }
    }

    /// Whether any event is pending: the first entry of the pending index, not a count of them.
    public func hasPendingEvents() async throws(StoreError) -> Bool {
        let logger = logger
        do {
            return try await connection { connection in
                var found = false
                for row in try await connection.collect(
                    "SELECT EXISTS (SELECT 1 FROM statechart_journal WHERE sequence IS NULL)", logger: logger)
                {
                    found = try row.decode(Bool.self)
                }
                return found
            }
        } catch {
            throw Self.failure("looking for pending events", error)
        }
    }

    /// How many events are pending and how many timers are due by `now`.
    public func backlog(now: Int64) async throws(StoreError) -> Backlog {
        let logger = logger
        do {
            return try await connection { connection in
                var backlog = Backlog(pendingEvents: 0, dueTimers: 0)
                for row in try await connection.collect(
                    """
                    SELECT (SELECT count(*) FROM statechart_journal WHERE sequence IS NULL),
                           (SELECT count(*) FROM statechart_timers WHERE due_at <= \(now)),
                           (SELECT count(*) FROM statechart_outbox WHERE NOT dead AND due_at <= \(now)),
                           (SELECT count(*) FROM statechart_outbox WHERE dead)
                    """, logger: logger
                ) {
                    let (pending, due, effects, dead) = try row.decode((Int, Int, Int, Int).self)
                    backlog = Backlog(pendingEvents: pending, dueTimers: due, dueEffects: effects, deadLetters: dead)
                }
                return backlog
            }
        } catch {
            throw Self.failure("counting the backlog", error)
        }
    }

    /// The identifiers of every machine, sorted.
    public func machineIDs() async throws(StoreError) -> [String] {
        let logger = logger
        do {
            return try await connection { connection in
                var ids: [String] = []
                for row in try await connection.collect(
                    "SELECT id FROM statechart_machines ORDER BY id", logger: logger
                ) {
                    let id = try row.decode(String.self)
                    ids.append(id)
                }
                return ids
            }
        } catch {
            throw Self.failure("listing machines", error)
        }
    }

    /// Deletes every machine, journal entry, timer and outbox entry: for tests and benchmarks.
    public func removeAll() async throws(StoreError) {
        do {
            try await client.query(
                "TRUNCATE statechart_machines, statechart_journal, statechart_timers, statechart_outbox RESTART IDENTITY",
                logger: logger)
        } catch {
            throw Self.failure("emptying the tables", error)
        }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
#endif
#endif
