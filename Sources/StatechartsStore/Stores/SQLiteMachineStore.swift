#if Store
import Foundation
import GRDB

/// Durable machines in one SQLite file, in write-ahead-log mode: the embedded default, a path and
/// nothing else to set up.
///
/// ```swift
/// let store = try SQLiteMachineStore(path: "machines.sqlite")
/// ```
///
/// Every transaction is serialized by SQLite's write lock, so one worker at a time writes any
/// machine; several processes on the same host may share a file (each waits for the lock up to
/// ``Options/busyTimeout``), though one process is what SQLite serves best. With
/// ``Options/synchronous`` `full` (the default) a transaction is on disk, not only in the log's
/// buffers, when it commits: an acknowledged event survives the process and the machine being
/// switched off.
public struct SQLiteMachineStore: MachineStore {
    /// How the database file is opened.
    public struct Options: Sendable, Hashable {
        /// SQLite's `synchronous` setting: `full` (every commit reaches the disk) or `normal` (a
        /// commit survives the process, not a power cut).
        public var synchronous: Synchronous
        /// How long a transaction waits for another process's write lock.
        public var busyTimeout: Duration
        /// How many kibibytes of database pages each connection keeps in memory (SQLite's
        /// `cache_size`): the writer then reads the pages of busy machines from memory, not from
        /// the file.
        public var pageCacheKiB: Int
        /// After how many pages in the write-ahead log a commit copies them into the database
        /// file (SQLite's `wal_autocheckpoint`; SQLite's own default is 1,000). A fleet's
        /// transactions touch pages all over the file, so fewer, larger checkpoints copy each page
        /// once for many transactions; the log grows to about this many pages of 4 KiB.
        public var checkpointPages: Int

        /// SQLite's `synchronous` levels the store allows.
        public enum Synchronous: String, Sendable, Hashable {
            /// Each commit is synced to the disk.
            case full = "FULL"
            /// In write-ahead-log mode, commits survive a crash of the process; the last ones may
            /// be lost when the machine loses power.
            case normal = "NORMAL"
        }

        /// Options from their parts.
        public init(
            synchronous: Synchronous = .full, busyTimeout: Duration = .seconds(10), pageCacheKiB: Int = 32_768,
            checkpointPages: Int = 10_000
        ) {
            self.synchronous = synchronous
            self.busyTimeout = busyTimeout
            self.pageCacheKiB = pageCacheKiB
            self.checkpointPages = checkpointPages
        }
    }

    /// The database's file.
    public let path: String
    /// The connection the store reads and writes through: its own pool, or the app's.
    let pool: any DatabaseWriter

    /// Opens (creating it when missing) the database at `path` and brings its tables to this
    /// library's schema.
    ///
    /// - Throws: ``StoreError/database(store:operation:message:)`` when the file cannot be opened
    ///   or migrated; ``StoreError/schemaTooNew(found:supported:)`` when a newer library wrote it.
    public init(path: String, options: Options = Options()) throws(StoreError) {
        self.path = path
        var configuration = Configuration()
        let synchronous = options.synchronous.rawValue
        configuration.busyMode = .timeout(
            TimeInterval(options.busyTimeout.components.seconds)
                + TimeInterval(options.busyTimeout.components.attoseconds) / 1e18)
        let pageCache = max(0, options.pageCacheKiB)
        let checkpointPages = max(1, options.checkpointPages)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            try db.execute(sql: "PRAGMA cache_size = -\(pageCache)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // GRDB turns a pool's writer to `synchronous = NORMAL` when it sets up write-ahead
            // logging, after `prepareDatabase`: the level is set again on the writer, which is
            // the only connection that commits.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        } catch {
            throw Self.failure("opening \(path)", error)
        }
        try migrate()
    }

    /// A store in the app's own database, through the `writer` (a `DatabasePool` or a
    /// `DatabaseQueue`) that the app already has: its machines live beside the app's rows, and
    /// ``DurableMachines/send(_:to:id:in:)`` journals an event in the app's own transaction.
    ///
    /// Register the store's migrations in the app's migrator, and migrate, before making it:
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// migrator.registerMigration("createShipments") { db in
    ///     try db.execute(sql: "CREATE TABLE shipments (id TEXT PRIMARY KEY NOT NULL, address TEXT NOT NULL)")
    /// }
    /// SQLiteMachineStore.registerMigrations(in: &migrator)
    /// try migrator.migrate(database)
    /// let store = try SQLiteMachineStore(writer: database)
    /// ```
    ///
    /// The app's configuration of the connection stands (its `synchronous` level, busy timeout and
    /// caches): ``Options`` apply only to the store's own file. GRDB sets a `DatabasePool`'s
    /// writer to `synchronous = NORMAL`, under which a commit survives the process but not a
    /// power cut; for commits on the disk, run `PRAGMA synchronous = FULL` on the writer
    /// (`writeWithoutTransaction`) after opening the pool.
    ///
    /// - Throws: ``StoreError/invalidConfiguration(_:)`` when the store's migrations have not all
    ///   been applied; ``StoreError/schemaTooNew(found:supported:)`` when a newer library wrote the
    ///   tables.
    public init(writer: any DatabaseWriter) throws(StoreError) {
        path = writer.path
        pool = writer
        let applied = try Self.appliedMigrations(writer, path: path)
        if let missing = Self.migrations.first(where: { !applied.contains($0) }) {
            throw .invalidConfiguration(
                "the store's migration '\(missing)' is not applied to \(path): register the store's migrations "
                    + "with SQLiteMachineStore.registerMigrations(in:) and migrate before making the store")
        }
    }

    /// The store's name in errors.
    static let name = "SQLite store"

    static func failure(_ operation: String, _ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            return .database(store: name, operation: operation, message: error.message ?? "\(error.resultCode)")
        }
        return .database(store: name, operation: operation, message: "\(error)")
    }

    /// The identifiers of the migrations this library writes, newest last: prefixed, so that they
    /// stand beside an app's own in one migrator.
    static let migrations = [
        "statecharts-store-v1", "statecharts-store-v2", "statecharts-store-v3", "statecharts-store-v4",
    ]

    /// The prefix of the store's migration identifiers.
    static let migrationPrefix = "statecharts-store-v"

    /// Brings the store's own file to this library's schema.
    private func migrate() throws(StoreError) {
        var migrator = DatabaseMigrator()
        Self.registerMigrations(in: &migrator)
        do {
            _ = try Self.appliedMigrations(pool, path: path)
            try migrator.migrate(pool)
        } catch {
            throw Self.failure("migrating \(path)", error)
        }
    }

    /// The store's migrations that `writer`'s database has applied.
    ///
    /// - Throws: ``StoreError/schemaTooNew(found:supported:)`` when a newer library applied one
    ///   this library does not know.
    static func appliedMigrations(_ writer: any DatabaseWriter, path: String) throws(StoreError) -> Set<String> {
        let applied: Set<String>
        do {
            applied = try writer.read { db in
                try db.tableExists("grdb_migrations")
                    ? String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
            }
        } catch {
            throw failure("reading the migrations of \(path)", error)
        }
        let mine = applied.filter { $0.hasPrefix(migrationPrefix) }
        if let unknown = mine.first(where: { !migrations.contains($0) }) {
            throw .schemaTooNew(
                found: Int(unknown.dropFirst(migrationPrefix.count)) ?? migrations.count + 1,
                supported: migrations.count)
        }
        return mine
    }

    /// Registers the store's migrations in an app's `migrator`, after the app's own: the tables of
    /// ``MachineStore``, each created by the migration of the library version that added it.
    /// Identifiers start with `statecharts-store-`, so they do not collide with the app's.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("statecharts-store-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE statechart_machines (
                        id TEXT PRIMARY KEY NOT NULL,
                        epoch INTEGER NOT NULL,
                        applied_sequence INTEGER NOT NULL DEFAULT 0,
                        snapshot_sequence INTEGER NOT NULL DEFAULT 0,
                        snapshot TEXT,
                        configuration TEXT NOT NULL DEFAULT '',
                        status TEXT NOT NULL DEFAULT 'notStarted'
                    ) WITHOUT ROWID;
                    CREATE TABLE statechart_journal (
                        position INTEGER PRIMARY KEY AUTOINCREMENT,
                        machine_id TEXT NOT NULL,
                        event_id TEXT,
                        kind INTEGER NOT NULL,
                        payload TEXT,
                        sequence INTEGER,
                        time INTEGER,
                        acknowledged_at INTEGER NOT NULL
                    );
                    CREATE UNIQUE INDEX statechart_journal_event ON statechart_journal(machine_id, event_id);
                    CREATE INDEX statechart_journal_pending ON statechart_journal(position) WHERE sequence IS NULL;
                    CREATE TABLE statechart_timers (
                        machine_id TEXT NOT NULL,
                        serial INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        due_at INTEGER NOT NULL,
                        PRIMARY KEY (machine_id, serial)
                    ) WITHOUT ROWID;
                    CREATE INDEX statechart_timers_due ON statechart_timers(due_at);
                    """)
        }
        migrator.registerMigration("statecharts-store-v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE statechart_outbox (
                        machine_id TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        effect_index INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        send_id TEXT,
                        payload TEXT NOT NULL,
                        due_at INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        dead INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (machine_id, sequence, effect_index)
                    ) WITHOUT ROWID;
                    CREATE INDEX statechart_outbox_due ON statechart_outbox(due_at) WHERE dead = 0;
                    CREATE INDEX statechart_outbox_dead ON statechart_outbox(due_at) WHERE dead = 1;
                    CREATE INDEX statechart_outbox_send ON statechart_outbox(machine_id, send_id)
                        WHERE send_id IS NOT NULL;
                    """)
        }
        // Each machine's pending events, in order: a claim reads a machine's later events from
        // it without scanning its applied entries.
        migrator.registerMigration("statecharts-store-v3") { db in
            try db.execute(
                sql: """
                    CREATE INDEX statechart_journal_machine_pending ON statechart_journal(machine_id, position)
                        WHERE sequence IS NULL
                    """)
        }
        // Where a commit writes in the order of time, where it can, instead of on a page per
        // machine (measured in Evolution/0017-durable-outbox.md):
        // - events are recognized by their identifier first, so that identifiers that grow with
        //   time (a counter, a ULID, a UUIDv7) are added at the index's end;
        // - a machine's entries are found by an index of applied entries only, which a worker's
        //   step writes once per machine of its batch;
        // - the index of each machine's pending events, which every send and every step wrote on
        //   a page per machine, is gone: a claim reads a machine's later events by going on
        //   through the pending events;
        // - the outbox is kept in the order its entries were written, which is about the order
        //   they are delivered and deleted in, and found by key through a small index.
        migrator.registerMigration("statecharts-store-v4") { db in
            try db.execute(
                sql: """
                    DROP INDEX statechart_journal_machine_pending;
                    DROP INDEX statechart_journal_event;
                    CREATE UNIQUE INDEX statechart_journal_event_id ON statechart_journal(event_id, machine_id)
                        WHERE event_id IS NOT NULL;
                    CREATE INDEX statechart_journal_machine ON statechart_journal(machine_id, sequence)
                        WHERE sequence IS NOT NULL;
                    CREATE TABLE statechart_outbox_v4 (
                        position INTEGER PRIMARY KEY,
                        machine_id TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        effect_index INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        send_id TEXT,
                        payload TEXT NOT NULL,
                        due_at INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT,
                        dead INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO statechart_outbox_v4
                        (machine_id, sequence, effect_index, kind, send_id, payload, due_at, attempts, last_error, dead)
                    SELECT machine_id, sequence, effect_index, kind, send_id, payload, due_at, attempts, last_error, dead
                    FROM statechart_outbox ORDER BY due_at, machine_id, sequence, effect_index;
                    DROP TABLE statechart_outbox;
                    ALTER TABLE statechart_outbox_v4 RENAME TO statechart_outbox;
                    CREATE UNIQUE INDEX statechart_outbox_key ON statechart_outbox(machine_id, sequence, effect_index);
                    CREATE INDEX statechart_outbox_due ON statechart_outbox(due_at) WHERE dead = 0;
                    CREATE INDEX statechart_outbox_dead ON statechart_outbox(due_at) WHERE dead = 1;
                    CREATE INDEX statechart_outbox_send ON statechart_outbox(machine_id, send_id)
                        WHERE send_id IS NOT NULL;
                    """)
        }
    }

    /// Does nothing more: the tables are migrated when the store is opened.
    public func prepare() async throws(StoreError) {}

    /// 2,048 machines: SQLite writes one transaction at a time, so a worker that applies more
    /// machines' events in each one shares its commit, and the pages it writes, among more
    /// events. A worker's steps run outside the write transaction (``process(_:apply:)``), so a
    /// large batch does not hold the writer while it steps.
    public var preferredMachinesPerBatch: Int { 2048 }

    /// Journals `events` in one transaction, creating the machines they name; returns once it is
    /// committed (synced to the disk with `synchronous` `full`).
    public func enqueue(_ events: [IncomingEvent]) async throws(StoreError) -> [Admission] {
        if events.isEmpty { return [] }
        do {
            return try await pool.write { db in try Self.journal(db, events) }
        } catch {
            throw Self.failure("journaling \(events.count) events", error)
        }
    }

    /// Journals the events `collect` returns in one transaction, calling it once this process's
    /// writer connection is free: the events sent while the writer was busy (with a worker's
    /// transaction, say) join the ones that were waiting when the call began.
    public func enqueue(
        collecting collect: @escaping @Sendable () -> [IncomingEvent]
    ) async throws(StoreError) -> [Admission] {
        do {
            return try await pool.write { db in
                let events = collect()
                return events.isEmpty ? [] : try Self.journal(db, events)
            }
        } catch {
            throw Self.failure("journaling events", error)
        }
    }

    /// Journals `events`, creating the machines they name, in the transaction of `db`.
    static func journal(_ db: Database, _ events: [IncomingEvent]) throws -> [Admission] {
        let machine = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO statechart_machines (id, epoch) VALUES (?, ?)")
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO statechart_journal (machine_id, event_id, kind, payload, acknowledged_at)
                VALUES (?, ?, ?, ?, ?)
                """)
        var admissions: [Admission] = []
        admissions.reserveCapacity(events.count)
        for event in events {
            try machine.execute(arguments: [event.machine, event.acknowledgedAt])
            try insert.execute(arguments: [
                event.machine, event.eventID, event.kind.rawValue, event.payload, event.acknowledgedAt,
            ])
            admissions.append(db.changesCount > 0 ? .journaled(position: db.lastInsertedRowID) : .duplicate)
        }
        return admissions
    }

    /// Claims machines with pending events (oldest first) or timers due in a read, applies them
    /// outside any transaction, and commits what `apply` returns in a write transaction that first
    /// checks each machine's row: a machine whose applied sequence moved since the read (another
    /// worker applied it meanwhile) is left out, with all it would have written.
    ///
    /// SQLite has one writer at a time. Applying inside the write transaction kept that writer
    /// busy with the machines' steps, their JSON and their outbox, while the senders' transactions
    /// waited; now the writer only writes, and the steps run beside it, on another core.
    ///
    /// - Returns: The updates committed: those of the machines no other worker applied first.
    public func process(
        _ request: ClaimRequest, apply: @escaping @Sendable ([ClaimedMachine]) throws -> [MachineUpdate]
    ) async throws(StoreError) -> [MachineUpdate] {
        do {
            let claimed: [ClaimedMachine] = try await pool.read { db in
                let (ids, pending) = try Self.claimable(db, request)
                if ids.isEmpty { return [] }
                var claimed: [ClaimedMachine] = []
                claimed.reserveCapacity(ids.count)
                for row in try Self.rows(db, ids) {
                    let replay =
                        request.cachedSequence(row.id) == row.appliedSequence
                        ? nil : try Self.entries(db, row.id, after: row.snapshotSequence)
                    claimed.append(ClaimedMachine(record: row, replay: replay, pending: pending[row.id] ?? []))
                }
                return claimed
            }
            if claimed.isEmpty { return [] }
            let updates = try apply(claimed)
            if updates.isEmpty { return [] }
            let claimedSequences = Dictionary(
                claimed.map { ($0.record.id, $0.record.appliedSequence) }, uniquingKeysWith: { first, _ in first })
            return try await pool.write { db in try Self.write(db, updates, claimedAt: claimedSequences) }
        } catch {
            throw Self.failure("applying events", error)
        }
    }

    /// The machines with pending events, oldest event first, each with its first pending events;
    /// then, while there is room, those with timers due.
    ///
    /// One scan of the pending events in the order they were journaled picks the machines, each
    /// with the prefix of its own events the scan met. Once it has picked
    /// ``ClaimRequest/machineLimit`` machines, the scan goes on for their later events only (up to
    /// ``ClaimRequest/eventLimit`` each), until each has its limit or over at most four times as
    /// many more entries as the batch may take: a fleet behind its senders applies several events
    /// of a machine in one step of it, instead of one per transaction.
    static func claimable(_ db: Database, _ request: ClaimRequest) throws -> ([String], [String: [PendingEvent]]) {
        var ids: [String] = []
        var pending: [String: [PendingEvent]] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT position, machine_id, event_id, payload, kind FROM statechart_journal
                    WHERE sequence IS NULL ORDER BY position
                    """))
        // Once the machines are chosen, the scan goes on for their later events only: until each
        // has as many as a batch takes, or after four times as many more entries as the batch may
        // take (the others' events among them).
        let (perMachine, overflowPerMachine) = request.eventLimit.multipliedReportingOverflow(by: 4)
        let (product, overflow) = request.machineLimit.multipliedReportingOverflow(by: perMachine)
        var extraBudget = overflow || overflowPerMachine ? Int.max : product
        var unfilled = 0
        while let row = try rows.next() {
            let full = ids.count >= request.machineLimit
            if full {
                extraBudget -= 1
                if extraBudget < 0 || unfilled == 0 { break }
            }
            let machine: String = row[1]
            if request.excluded.contains(machine) { continue }
            if var events = pending[machine] {
                if events.count < request.eventLimit {
                    pending[machine] = nil
                    events.append(Self.pendingEvent(row))
                    if events.count == request.eventLimit { unfilled -= 1 }
                    pending[machine] = events
                }
            } else if !full {
                ids.append(machine)
                pending[machine] = [Self.pendingEvent(row)]
                if request.eventLimit > 1 { unfilled += 1 }
            }
        }
        if ids.count < request.machineLimit {
            var seen = Set(ids)
            let due = try String.fetchCursor(
                db.cachedStatement(
                    sql: "SELECT machine_id FROM statechart_timers WHERE due_at <= ? ORDER BY due_at LIMIT ?"),
                arguments: [request.now, request.machineLimit * 2])
            while ids.count < request.machineLimit, let id = try due.next() {
                if !request.excluded.contains(id), seen.insert(id).inserted { ids.append(id) }
            }
        }
        return (ids, pending)
    }

    /// The pending event of a row of `position, machine_id, event_id, payload, kind`.
    static func pendingEvent(_ row: Row) -> PendingEvent {
        PendingEvent(
            position: row[0], eventID: row[2] ?? "", payload: row[3] ?? "",
            kind: JournalEntry.Kind(rawValue: row[4]) ?? .event)
    }

    /// The rows of the machines `ids`, in one query.
    static func rows(_ db: Database, _ ids: [String]) throws -> [MachineRow] {
        let list = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
        let statement = try db.cachedStatement(
            sql: """
                SELECT id, epoch, applied_sequence, snapshot_sequence, snapshot, configuration, status
                FROM statechart_machines WHERE id IN (SELECT value FROM json_each(?))
                """)
        return try Row.fetchAll(statement, arguments: [list]).map { row in
            MachineRow(
                id: row[0], epoch: row[1], appliedSequence: row[2], snapshotSequence: row[3], snapshot: row[4],
                configuration: row[5], status: row[6])
        }
    }

    /// The row of the machine `id`, if it exists.
    static func row(_ db: Database, _ id: String) throws -> MachineRow? {
        try rows(db, [id]).first
    }

    static func entries(_ db: Database, _ id: String, after sequence: Int64) throws -> [JournalEntry] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT sequence, kind, time, event_id, payload FROM statechart_journal
                WHERE machine_id = ? AND sequence > ? ORDER BY sequence
                """)
        return try Row.fetchAll(statement, arguments: [id, sequence]).map { row in
            JournalEntry(
                sequence: row[0], kind: JournalEntry.Kind(rawValue: row[1]) ?? .advance, time: row[2],
                eventID: row[3], payload: row[4])
        }
    }

    /// Writes the updates of the machines whose applied sequence is still the one they were claimed
    /// at (`claimedAt`), and returns those; the others, applied by another worker since, write
    /// nothing: not their row, journal, timers or outbox, nor their sends to other machines.
    static func write(
        _ db: Database, _ updates: [MachineUpdate], claimedAt claimed: [String: Int64]
    ) throws
        -> [MachineUpdate]
    {
        let applied = try db.cachedStatement(
            sql: "UPDATE statechart_journal SET sequence = ?, time = ? WHERE position = ?")
        let entry = try db.cachedStatement(
            sql: """
                INSERT INTO statechart_journal (machine_id, event_id, kind, payload, sequence, time, acknowledged_at)
                VALUES (?, NULL, ?, NULL, ?, ?, ?)
                """)
        let machine = try db.cachedStatement(
            sql: """
                UPDATE statechart_machines SET applied_sequence = ?, configuration = ?, status = ?,
                snapshot = coalesce(?, snapshot), snapshot_sequence = CASE WHEN ? IS NULL THEN snapshot_sequence ELSE ? END
                WHERE id = ? AND applied_sequence = ?
                """)
        let clearTimers = try db.cachedStatement(sql: "DELETE FROM statechart_timers WHERE machine_id = ?")
        let timer = try db.cachedStatement(
            sql: "INSERT INTO statechart_timers (machine_id, serial, name, due_at) VALUES (?, ?, ?, ?)")
        let compact = try db.cachedStatement(
            sql: "DELETE FROM statechart_journal WHERE machine_id = ? AND sequence <= ?")
        let effect = try db.cachedStatement(
            sql: """
                INSERT INTO statechart_outbox
                    (machine_id, sequence, effect_index, kind, send_id, payload, due_at, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let cancel = try db.cachedStatement(
            sql: "DELETE FROM statechart_outbox WHERE machine_id = ? AND send_id = ? AND kind <> ? AND dead = 0")
        let cancelActivity = try db.cachedStatement(
            sql: "DELETE FROM statechart_outbox WHERE machine_id = ? AND send_id = ? AND kind = ?")
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        var written: [MachineUpdate] = []
        written.reserveCapacity(updates.count)
        for update in updates {
            guard let claimedSequence = claimed[update.id] else { continue }
            try machine.execute(arguments: [
                update.appliedSequence, update.configuration, update.status, update.snapshot, update.snapshot,
                update.appliedSequence, update.id, claimedSequence,
            ])
            if db.changesCount > 0 { written.append(update) }
        }
        let sends = written.flatMap(\.sends)
        if !sends.isEmpty { _ = try journal(db, sends) }
        for update in written {
            for event in update.appliedEvents {
                try applied.execute(arguments: [event.sequence, event.time, event.position])
            }
            for new in update.newEntries {
                try entry.execute(arguments: [update.id, new.kind.rawValue, new.sequence, new.time, now])
            }
            if let timers = update.timers {
                try clearTimers.execute(arguments: [update.id])
                for row in timers {
                    try timer.execute(arguments: [update.id, row.serial, row.name, row.dueAt])
                }
            }
            if let through = update.compactThrough {
                try compact.execute(arguments: [update.id, through])
            }
            for sendID in update.cancelledSends {
                try cancel.execute(arguments: [update.id, sendID, OutboxEntry.activityKind])
            }
            for invocation in update.cancelledActivities {
                try cancelActivity.execute(arguments: [update.id, invocation, OutboxEntry.activityKind])
            }
            for entry in update.outbox {
                try effect.execute(arguments: [
                    entry.key.machine, entry.key.sequence, entry.key.index, entry.kind, entry.sendID, entry.payload,
                    entry.dueAt, entry.attempts,
                ])
            }
        }
        return written
    }

    /// The machine's row, its journal after its snapshot (pending events left out) and its timers.
    public func record(of machine: String) async throws(StoreError) -> MachineRecord? {
        do {
            return try await pool.read { db in
                guard let row = try Self.row(db, machine) else { return nil }
                return MachineRecord(
                    row: row, journal: try Self.entries(db, machine, after: row.snapshotSequence),
                    timers: try Self.timers(db, machine))
            }
        } catch {
            throw Self.failure("reading machine \(machine)", error)
        }
    }

    static func timers(_ db: Database, _ id: String) throws -> [TimerRow] {
        try Row.fetchAll(
            db, sql: "SELECT serial, name, due_at FROM statechart_timers WHERE machine_id = ? ORDER BY due_at, serial",
            arguments: [id]
        ).map { TimerRow(serial: $0[0], name: $0[1], dueAt: $0[2]) }
    }

    /// Every journal entry of the machine that compaction kept, applied or pending, in order.
    public func journal(of machine: String) async throws(StoreError) -> [JournalEntry] {
        do {
            return try await pool.read { db in
                // The applied entries through the machine's index, the pending ones through the
                // index of pending events: no index holds both.
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT sequence, kind, time, event_id, payload FROM (
                            SELECT sequence, kind, time, event_id, payload, position FROM statechart_journal
                            WHERE machine_id = ?1 AND sequence IS NOT NULL
                            UNION ALL
                            SELECT sequence, kind, time, event_id, payload, position FROM statechart_journal
                            WHERE sequence IS NULL AND machine_id = ?1
                        ) ORDER BY sequence IS NULL, sequence, position
                        """, arguments: [machine]
                ).map { row in
                    JournalEntry(
                        sequence: row[0], kind: JournalEntry.Kind(rawValue: row[1]) ?? .advance, time: row[2] ?? 0,
                        eventID: row[3], payload: row[4])
                }
            }
        } catch {
            throw Self.failure("reading the journal of \(machine)", error)
        }
    }

    /// How many events are pending and how many timers are due by `now`.
    public func backlog(now: Int64) async throws(StoreError) -> Backlog {
        do {
            return try await pool.read { db in
                Backlog(
                    pendingEvents: try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM statechart_journal WHERE sequence IS NULL") ?? 0,
                    dueTimers: try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM statechart_timers WHERE due_at <= ?", arguments: [now]) ?? 0,
                    dueEffects: try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM statechart_outbox WHERE dead = 0 AND due_at <= ?",
                        arguments: [now]) ?? 0,
                    deadLetters: try Int.fetchOne(db, sql: "SELECT count(*) FROM statechart_outbox WHERE dead = 1")
                        ?? 0)
            }
        } catch {
            throw Self.failure("counting the backlog", error)
        }
    }

    /// Whether any event is pending: the first entry of the pending index, not a count of them.
    public func hasPendingEvents() async throws(StoreError) -> Bool {
        do {
            return try await pool.read { db in
                try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM statechart_journal WHERE sequence IS NULL)")) ?? false
            }
        } catch {
            throw Self.failure("looking for pending events", error)
        }
    }

    /// The identifiers of every machine, sorted.
    public func machineIDs() async throws(StoreError) -> [String] {
        do {
            return try await pool.read { db in
                try String.fetchAll(db, sql: "SELECT id FROM statechart_machines ORDER BY id")
            }
        } catch {
            throw Self.failure("listing machines", error)
        }
    }
}
#endif
