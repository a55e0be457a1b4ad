#if Store
import Foundation
import GRDB
import Statecharts
import StatechartsStore
import Testing

/// A fleet kept in the app's own GRDB database: the store's migrations in the app's migrator, and
/// events journaled in the app's own transactions, with its own rows.
@Suite struct AppDatabaseTests {
    struct Refused: Error {}

    static func file() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("app.sqlite").path
    }

    /// The app's database, with its own table and the store's, migrated by one migrator.
    static func migrated(_ database: some DatabaseWriter) throws {
        var migrator = DatabaseMigrator()
        // The app's own first migration has the name the store's once had: no collision.
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE shipments (id TEXT PRIMARY KEY NOT NULL, address TEXT NOT NULL)")
        }
        SQLiteMachineStore.registerMigrations(in: &migrator)
        try migrator.migrate(database)
    }

    @Test("an event sent in the app's transaction is journaled with the app's row, and applied")
    func committed() async throws {
        let database = try DatabasePool(path: try Self.file())
        try Self.migrated(database)
        let store = try SQLiteMachineStore(writer: database)
        let fleet = try orders(store, TestClock())
        try await database.write { db in
            try db.execute(sql: "INSERT INTO shipments (id, address) VALUES (?, ?)", arguments: ["s-1", "Quay 4"])
            try fleet.send(.add(1), to: "s-1", id: "create-s-1", in: db)
        }
        #expect(
            try await database.read { db in try String.fetchOne(db, sql: "SELECT address FROM shipments") }
                == "Quay 4")
        #expect(try await store.journal(of: "s-1").compactMap(\.eventID) == ["create-s-1"])
        // A retry in another transaction is recognized.
        let retry = try await database.write { db in try fleet.send(.add(1), to: "s-1", id: "create-s-1", in: db) }
        #expect(retry == .duplicate)
        try await fleet.drain()
        #expect(try await fleet.machine("s-1")?.context.items == [1])
    }

    @Test("a rollback of the app's transaction leaves neither its row nor the event")
    func rolledBack() async throws {
        let database = try DatabaseQueue(path: try Self.file())
        try Self.migrated(database)
        let store = try SQLiteMachineStore(writer: database)
        let fleet = try orders(store, TestClock())
        await #expect(throws: Refused.self) {
            try await database.write { db in
                try db.execute(sql: "INSERT INTO shipments (id, address) VALUES (?, ?)", arguments: ["s-2", "Pier 9"])
                try fleet.send(.add(2), to: "s-2", id: "create-s-2", in: db)
                throw Refused()
            }
        }
        #expect(try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM shipments") } == 0)
        #expect(try await store.journal(of: "s-2").isEmpty)
        #expect(try await store.machineIDs().isEmpty)
        #expect(try await fleet.drain() == 0)
        #expect(try await fleet.machine("s-2") == nil)
    }

    @Test("a database without the store's migrations is refused, and a fleet elsewhere cannot send in it")
    func refused() async throws {
        let bare = try DatabaseQueue(path: try Self.file())
        #expect(throws: StoreError.self) { try SQLiteMachineStore(writer: bare) }
        // A transaction of another database than the store's.
        let database = try DatabaseQueue(path: try Self.file())
        try Self.migrated(database)
        let fleet = try orders(try SQLiteMachineStore(writer: database), TestClock())
        await #expect(throws: StoreError.self) {
            try await bare.write { db in try fleet.send(.add(3), to: "s-3", in: db) }
        }
    }
}
#endif
