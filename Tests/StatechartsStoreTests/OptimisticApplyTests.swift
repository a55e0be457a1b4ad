#if Store
import Foundation
import GRDB
import Statecharts
import Testing

@testable import StatechartsStore

/// SQLite's workers claim machines in a read, step them outside any transaction, and write them
/// only where no other worker applied them since the claim.
@Suite("SQLite applies outside its write transaction")
struct OptimisticApplyTests {
    @Test("four workers on one SQLite file: every event applied once, in order, numbered without gaps")
    func fourWorkers() async throws {
        try await fourWorkersShareAFleet(try await StoreKind.sqlite.make())
    }

    @Test("a machine another worker applied between the claim and the write is left out, with all it would write")
    func lostRace() async throws {
        let store = try #require(try await StoreKind.sqlite.make() as? SQLiteMachineStore)
        let clock = TestClock()
        let fleet = try orders(store, clock)
        try await fleet.send(.add(1), to: "raced")
        try await fleet.send(.add(2), to: "calm")
        let now = clock.now
        let request = ClaimRequest(now: now, machineLimit: 8, eventLimit: 8, cachedSequence: { _ in nil })
        let written = try await store.process(request) { claimed in
            let updates = try claimed.compactMap { machine in
                try fleet.apply(machine, cached: nil, now: now, decoder: JSONDecoder())?.0
            }
            // Meanwhile another worker applies `raced` and commits: its start and its event.
            try store.pool.write { db in
                try db.execute(
                    sql: """
                        UPDATE statechart_journal SET sequence = 2, time = 0 WHERE machine_id = 'raced';
                        INSERT INTO statechart_journal (machine_id, kind, sequence, time, acknowledged_at)
                        VALUES ('raced', 2, 1, 0, 0);
                        UPDATE statechart_machines SET applied_sequence = 2, configuration = 'theirs' WHERE id = 'raced';
                        """)
            }
            return updates
        }
        #expect(written.map(\.id) == ["calm"])
        let raced = try #require(try await store.record(of: "raced"))
        #expect(raced.row.appliedSequence == 2)
        #expect(raced.row.configuration == "theirs")
        #expect(try await store.journal(of: "raced").map(\.sequence) == [1, 2])
        let calm = try #require(try await store.record(of: "calm"))
        #expect(calm.row.appliedSequence == 2)
        #expect(try await store.journal(of: "calm").map(\.sequence) == [1, 2])
        #expect(try await store.backlog(now: now).pendingEvents == 0)
    }
}
/// The values a fleet encoded, handed back to its own worker instead of being decoded.
@Suite("Values kept beside their JSON")
struct DecodedValueCacheTests {
    @Test("a value comes back once, and only for the JSON it was kept with")
    func onceAndOnlyForItsJSON() {
        let cache = DecodedValueCache<Int64, OrderEvent>(limit: 4)
        cache.keep(.add(1), as: #"{"add":{"_0":1}}"#, for: 7)
        // Another process's event at the same position (SQLite gave it out again): decoded instead.
        #expect(cache.take(7, payload: #"{"add":{"_0":2}}"#) == nil)
        #expect(cache.take(7, payload: #"{"add":{"_0":1}}"#) == nil)
        cache.keep(.add(1), as: #"{"add":{"_0":1}}"#, for: 7)
        #expect(cache.take(7, payload: #"{"add":{"_0":1}}"#) == .add(1))
        #expect(cache.take(7, payload: #"{"add":{"_0":1}}"#) == nil)
    }

    @Test("a full cache starts again empty rather than grow")
    func bounded() {
        let cache = DecodedValueCache<Int64, OrderEvent>(limit: 4)
        for position in Int64(0)..<4 { cache.keep(.add(Int(position)), as: "\(position)", for: position) }
        #expect(cache.count == 4)
        cache.keep(.add(9), as: "9", for: 9)
        #expect(cache.count == 1)
        #expect(cache.take(0, payload: "0") == nil)
        #expect(cache.take(9, payload: "9") == .add(9))
    }

    @Test("a fleet's worker applies the events its own sends journaled without decoding them")
    func aFleetUsesWhatItEncoded() async throws {
        let store = try await StoreKind.sqlite.make()
        let clock = TestClock()
        let fleet = try orders(store, clock)
        try await fleet.send(.add(1), to: "m")
        #expect(fleet.sentEvents.count == 1)
        try await fleet.drain()
        #expect(fleet.sentEvents.count == 0)
        #expect(try #require(try await fleet.machine("m")).context.items == [1])
    }

    @Test("a claim takes each machine's later pending events too, in order, up to the limit per machine")
    func laterEventsOfClaimedMachines() async throws {
        let store = try #require(try await StoreKind.sqlite.make() as? SQLiteMachineStore)
        let clock = TestClock()
        let fleet = try orders(store, clock)
        // Journaled round-robin: a scan in journal order meets a, b and c before any second event.
        for number in 1...6 {
            for machine in ["a", "b", "c"] { try await fleet.send(.add(number), to: machine) }
        }
        let request = ClaimRequest(now: clock.now, machineLimit: 2, eventLimit: 4, cachedSequence: { _ in nil })
        let claimed = try await store.pool.read { db in try SQLiteMachineStore.claimable(db, request) }
        #expect(claimed.0 == ["a", "b"])
        let numbers = { (machine: String) in
            try (claimed.1[machine] ?? []).map {
                try JSONDecoder().decode(OrderEvent.self, from: Data($0.payload.utf8))
            }
        }
        #expect(try numbers("a") == [.add(1), .add(2), .add(3), .add(4)])
        #expect(try numbers("b") == [.add(1), .add(2), .add(3), .add(4)])
        #expect(claimed.1["c"] == nil)
        let positions = (claimed.1["a"] ?? []).map(\.position)
        #expect(positions == positions.sorted())
        // Applied through the fleet: the first transaction applies four events of a and of b.
        let fleetOfTwo = try orders(store, clock, options: DurableOptions(machinesPerBatch: 2, eventsPerMachine: 4))
        #expect(try await fleetOfTwo.process() == 2)
        #expect(try await store.backlog(now: clock.now).pendingEvents == 18 - 8)
        try await fleetOfTwo.drain()
        for machine in ["a", "b", "c"] {
            #expect(try await fleetOfTwo.machine(machine)?.context.items == [1, 2, 3, 4, 5, 6])
        }
    }

    @Test("the writer commits at the options' synchronous level, though GRDB's pool sets it to NORMAL")
    func synchronousLevel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // SQLite's levels: 1 is NORMAL, 2 is FULL.
        let full = try SQLiteMachineStore(path: folder.appendingPathComponent("full.sqlite").path)
        let fullLevel = try full.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(fullLevel == 2)
        let normal = try SQLiteMachineStore(
            path: folder.appendingPathComponent("normal.sqlite").path,
            options: SQLiteMachineStore.Options(synchronous: .normal))
        let normalLevel = try normal.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(normalLevel == 1)
    }
}
#endif
