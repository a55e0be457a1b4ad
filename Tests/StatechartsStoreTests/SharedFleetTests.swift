#if Store
import Foundation
import GRDB
import Statecharts
import Testing

@testable import StatechartsStore

/// Several workers on one PostgreSQL store, as several processes would be: each machine has one
/// writer at a time, and a worker that fails mid-transaction leaves its machines to the others.
@Suite(.serialized, .enabled(if: StoreKind.postgresURL != nil, Comment(rawValue: postgresSkipMessage)))
struct SharedFleetTests {
    @Test("four workers share a fleet: every event applied once, in order, numbered without gaps")
    func fourWorkers() async throws {
        try await fourWorkersShareAFleet(try await StoreKind.postgres.make())
    }

    #if PostgreSQL
    @Test("a machine a worker holds is skipped by the others, not waited for")
    func oneWriter() async throws {
        let store = try await StoreKind.postgres.make()
        let postgres = try #require(store as? PostgresMachineStore)
        let clock = TestClock()
        let fleet = try orders(store, clock)
        try await fleet.send(.add(1), to: "held")
        try await fleet.send(.add(2), to: "free")
        let holding = Locked(false)
        let release = Locked(false)
        // Another worker's transaction holds the row of "held" (as a claim does) and stays open,
        // waiting without blocking a thread.
        let first = Task {
            try await postgres.client.withTransaction(logger: postgres.logger) { connection in
                try await connection.query(
                    "SELECT id FROM statechart_machines WHERE id = 'held' FOR UPDATE", logger: postgres.logger)
                holding.withLock { $0 = true }
                while !release.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        while !holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        // Meanwhile a worker claims what is left: the other machine, at once.
        let seen = Locked([String]())
        let claimAll = ClaimRequest(now: clock.now, machineLimit: 10, eventLimit: 10) { _ in nil }
        _ = try await store.process(claimAll) { claimed in
            seen.withLock { $0 = claimed.map(\.record.id) }
            return []
        }
        #expect(seen.withLock { $0 } == ["free"])
        release.withLock { $0 = true }
        try await first.value
        // Nothing was applied by either: both machines still have their event pending.
        #expect(try await store.backlog(now: clock.now).pendingEvents == 2)
        try await fleet.drain()
        #expect(try #require(try await fleet.machine("held")).context.items == [1])
        #expect(try #require(try await fleet.machine("free")).context.items == [2])
    }
    #endif

    @Test("a worker that fails mid-transaction leaves its machines to the next")
    func failedWorker() async throws {
        let store = try await StoreKind.postgres.make()
        let clock = TestClock()
        let fleet = try orders(store, clock)
        for item in 1...5 { try await fleet.send(.add(item), to: "crashy") }
        struct Crash: Error {}
        let request = ClaimRequest(now: clock.now, machineLimit: 10, eventLimit: 10) { _ in nil }
        await #expect(throws: StoreError.self) {
            try await store.process(request) { _ in throw Crash() }
        }
        #expect(try await store.backlog(now: clock.now).pendingEvents == 5)
        let other = try orders(store, clock)
        #expect(try await other.drain() == 1)
        #expect(try #require(try await other.machine("crashy")).context.items == [1, 2, 3, 4, 5])
    }

    #if PostgreSQL
    @Test("tables of a newer schema are refused")
    func newerSchema() async throws {
        let url = try #require(StoreKind.postgresURL)
        let store = try PostgresMachineStore(url: url, schema: StoreKind.newSchemaName())
        try await store.prepare()
        try await store.client.query("INSERT INTO statechart_schema_migrations (version) VALUES (99)")
        await #expect(throws: StoreError.schemaTooNew(found: 99, supported: 2)) { try await store.prepare() }
        try await store.client.query("DELETE FROM statechart_schema_migrations WHERE version = 99")
        try await store.prepare()
        store.close()
    }

    @Test("tables of schema version 1 gain the outbox, their machines kept")
    func fromVersion1() async throws {
        let url = try #require(StoreKind.postgresURL)
        let store = try PostgresMachineStore(url: url, schema: StoreKind.newSchemaName())
        try await store.prepare()
        let clock = TestClock()
        try await orders(store, clock).send(.add(1), to: "old")
        // As a library of version 1 left them.
        try await store.client.query("DROP TABLE statechart_outbox")
        try await store.client.query("DELETE FROM statechart_schema_migrations WHERE version = 2")
        try await store.prepare()
        let fleet = try orders(store, clock)
        try await fleet.drain()
        #expect(try await fleet.machine("old")?.context.items == [1])
        #expect(try await fleet.outbox(of: "old").isEmpty)
        store.close()
    }

    @Test("a schema name that is not a plain identifier is refused")
    func badSchemaName() throws {
        let url = try #require(StoreKind.postgresURL)
        for name in ["public; DROP TABLE x", "Fleet", "", "1fleet", String(repeating: "a", count: 64)] {
            #expect(throws: StoreError.self) { try PostgresMachineStore(url: url, schema: name) }
        }
        #expect(try PostgresMachineStore(url: url, schema: "fleet_2").schema == "fleet_2")
    }

    @Test("a worker is woken by another process's send through NOTIFY, not by its poll")
    func wokenByNotification() async throws {
        let url = try #require(StoreKind.postgresURL)
        let schema = StoreKind.newSchemaName()
        let workerStore = try PostgresMachineStore(url: url, schema: schema)
        try await workerStore.prepare()
        // Another process: a store of its own on the same schema.
        let senderStore = try PostgresMachineStore(url: url, schema: schema)
        let clock = TestClock()
        // It would look for work only once a minute by itself.
        let worker = try orders(workerStore, clock, options: DurableOptions(pollInterval: .seconds(60)))
        let sender = try orders(senderStore, clock)
        let heard = Locked([StoreChange]())
        let listener = Task { try await senderStore.listen { change in heard.withLock { $0.append(change) } } }
        let running = Task { try await worker.run() }
        // Started listening: it tells of the work before it, once of each kind.
        for _ in 0..<500 where heard.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(200))
        for item in 1...3 {
            try await sender.send(.add(item), to: "woken")
            // Applied long before the worker's poll, in a bounded wait.
            var applied = false
            for _ in 0..<1000 {
                if try await workerStore.backlog(now: clock.now).pendingEvents == 0 {
                    applied = true
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(applied)
        }
        #expect(try await worker.machine("woken")?.context.items == [1, 2, 3])
        #expect(heard.withLock { $0.filter { $0 == .events }.count } >= 4)
        running.cancel()
        listener.cancel()
        try await running.value
        try await listener.value
        workerStore.close()
        senderStore.close()
    }
    #endif
}

/// The SQLite store's own concerns: its file and its schema.
@Suite struct SQLiteStoreTests {
    @Test("a file written by a newer schema is refused with the versions")
    func newerSchema() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("m.sqlite").path
        do {
            let store = try SQLiteMachineStore(path: path)
            try await store.pool.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('statecharts-store-v5')")
            }
        }
        #expect(throws: StoreError.schemaTooNew(found: 5, supported: 4)) { try SQLiteMachineStore(path: path) }
    }

    @Test("a file of schema version 1 gains the outbox and today's indexes, its machines kept")
    func fromVersion1() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("m.sqlite").path
        let clock = TestClock()
        do {
            let store = try SQLiteMachineStore(path: path)
            try await orders(store, clock).send(.add(1), to: "old")
            // As a library of version 1 left it.
            try await store.pool.write { db in
                try db.execute(
                    sql: """
                        DROP TABLE statechart_outbox; DROP INDEX statechart_journal_event_id;
                        DROP INDEX statechart_journal_machine;
                        CREATE UNIQUE INDEX statechart_journal_event ON statechart_journal(machine_id, event_id);
                        DELETE FROM grdb_migrations WHERE identifier IN
                            ('statecharts-store-v2', 'statecharts-store-v3', 'statecharts-store-v4')
                        """)
            }
        }
        let store = try SQLiteMachineStore(path: path)
        let fleet = try orders(store, clock)
        try await fleet.drain()
        #expect(try await fleet.machine("old")?.context.items == [1])
        #expect(try await fleet.outbox(of: "old").isEmpty)
        let indexes = try await store.pool.read { db in
            try String.fetchSet(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'statechart_%'")
        }
        #expect(
            indexes == [
                "statechart_journal_event_id", "statechart_journal_pending", "statechart_journal_machine",
                "statechart_timers_due", "statechart_outbox_key", "statechart_outbox_due", "statechart_outbox_dead",
                "statechart_outbox_send",
            ])
    }

    @Test("a file of schema version 3 keeps its journal, its pending events and its outbox through version 4")
    func fromVersion3() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // As a library of version 3 wrote it: a machine started and applied through its first event,
        // a second event pending, an effect due in the outbox and a dead letter. Its epoch is the
        // test clock's time, so that its 30 seconds in `open` have not passed.
        let versionThree = folder.appendingPathComponent("v3.sqlite").path
        do {
            let queue = try DatabaseQueue(path: versionThree)
            var migrator = DatabaseMigrator()
            SQLiteMachineStore.registerMigrations(in: &migrator)
            try migrator.migrate(queue, upTo: "statecharts-store-v3")
            try await queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO statechart_machines (id, epoch, applied_sequence, configuration, status)
                        VALUES ('old', 1800000000000000000, 2, 'open', 'running');
                        INSERT INTO statechart_journal (machine_id, event_id, kind, payload, sequence, time, acknowledged_at)
                        VALUES ('old', NULL, 2, NULL, 1, 0, 1),
                               ('old', 'first', 0, '{"add":{"_0":1}}', 2, 0, 1),
                               ('old', 'second', 0, '{"add":{"_0":2}}', NULL, NULL, 2);
                        INSERT INTO statechart_outbox (machine_id, sequence, effect_index, kind, payload, due_at)
                        VALUES ('old', 2, 0, 'log', '{"log":{"message":"due"}}', 5),
                               ('old', 2, 1, 'log', '{"log":{"message":"dead"}}', 3);
                        UPDATE statechart_outbox SET dead = 1, attempts = 4, last_error = 'gone' WHERE effect_index = 1;
                        """)
            }
        }
        let store = try SQLiteMachineStore(path: versionThree)
        #expect(try await store.journal(of: "old").map(\.eventID) == [nil, "first", "second"])
        #expect(try await store.backlog(now: 10).pendingEvents == 1)
        let outbox = try await store.outbox(of: "old")
        #expect(outbox.map(\.key.index) == [0, 1])
        #expect(outbox.map(\.isDeadLetter) == [false, true])
        #expect(outbox[1].lastError == "gone")
        #expect(outbox[1].attempts == 4)
        // The identifiers are still recognized: a send of "first" again is a duplicate.
        let admissions = try await store.enqueue([
            IncomingEvent(machine: "old", eventID: "first", payload: #"{"add":{"_0":1}}"#, acknowledgedAt: 3),
            IncomingEvent(machine: "old", eventID: "third", payload: #"{"add":{"_0":3}}"#, acknowledgedAt: 3),
        ])
        #expect(admissions.first == .duplicate)
        #expect(try await store.backlog(now: 10).pendingEvents == 2)
        #expect(try await store.retryDeadLetter(EffectKey(machine: "old", sequence: 2, index: 1), at: 4))
        #expect(try await store.deadLetters(limit: 10).isEmpty)
        // A fleet rebuilds the machine from its journal and applies the two pending events.
        let errors = Locked([String]())
        let fleet = try orders(store, TestClock(), errors: errors)
        try await fleet.drain()
        #expect(errors.withLock { $0 } == [])
        let items = try await fleet.machine("old")?.context.items
        #expect(items == [1, 2, 3])
    }

    @Test("a file that cannot be opened is a typed error")
    func unopenable() {
        #expect(throws: StoreError.self) { try SQLiteMachineStore(path: "/nonexistent-folder/m.sqlite") }
    }

    @Test("the machines survive closing and reopening the file")
    func reopen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("m.sqlite").path
        let clock = TestClock()
        do {
            let fleet = try orders(try SQLiteMachineStore(path: path), clock)
            try await fleet.send(.add(3), to: "kept")
            try await fleet.send(.pay, to: "kept")
        }
        let fleet = try orders(try SQLiteMachineStore(path: path), clock)
        try await fleet.drain()
        let machine = try #require(try await fleet.machine("kept"))
        #expect(machine.context.items == [3])
        #expect(machine.configuration == [.paid])
    }
}
#if PostgreSQL
/// PostgreSQL's bound on each operation, which needs no server: a socket that never answers.
@Suite struct PostgresTimeLimitTests {
    @Test(
        "an operation on a server that never answers fails after operationTimeLimit, with a typed error",
        .timeLimit(.minutes(1)))
    func silentServer() async throws {
        // A socket on loopback that takes connections into its backlog and never says a word.
        let listener = try SilentListener()
        defer { listener.close() }
        let store = try PostgresMachineStore(
            url: "postgres://nobody:secret@127.0.0.1:\(listener.port)/nothing", schema: "silent",
            operationTimeLimit: .milliseconds(300))
        defer { store.close() }
        for _ in 0..<2 {
            // The second runs on the new pool the first one's time-out started.
            await #expect {
                try await store.prepare()
            } throws: { error in
                guard case StoreError.database(_, _, let message) = error else { return false }
                return message.contains("no answer within 0.3 seconds")
            }
        }
    }
}

/// A TCP socket on 127.0.0.1, on a port of the system's choosing, that never accepts: the kernel
/// completes connections into its backlog, and nothing ever answers them.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw StoreError.invalidConfiguration("no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(descriptor)
            throw StoreError.invalidConfiguration("cannot listen on loopback")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
#endif
#endif
