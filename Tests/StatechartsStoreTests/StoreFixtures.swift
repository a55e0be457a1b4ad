#if Store
import Foundation
import Statecharts
import StatechartsStore
import Testing

/// The stores the tests run on: SQLite in a new file each time, and PostgreSQL when
/// STATECHARTS_POSTGRES_URL names a server (`Scripts/postgres.sh` starts one and prints it).
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    /// The server's URL, when one is configured.
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["STATECHARTS_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every store available here: PostgreSQL only with a server.
    static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// A new, empty store of this kind.
    func make() async throws -> any MachineStore {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "statecharts-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try SQLiteMachineStore(path: folder.appendingPathComponent("machines.sqlite").path)
        case .postgres:
            #if PostgreSQL
            guard let url = Self.postgresURL else { throw StoreError.invalidConfiguration("no PostgreSQL server") }
            let store = try PostgresMachineStore(url: url, schema: Self.newSchemaName())
            try await store.prepare()
            return store
            #else
            throw StoreError.invalidConfiguration("built without the trait PostgreSQL")
            #endif
        }
    }
}

extension StoreKind {
    /// A schema of its own for each PostgreSQL store a test makes, so that tests running in
    /// parallel never see each other's machines.
    static func newSchemaName() -> String {
        "statecharts_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}

/// Why the PostgreSQL tests are skipped when they are.
let postgresSkipMessage =
    "PostgreSQL tests need a server: export STATECHARTS_POSTGRES_URL=\"$(Scripts/postgres.sh)\" (CI does)"

/// A fleet of orders on `store`, on `clock`.
func orders(
    _ store: any MachineStore, _ clock: TestClock, options: DurableOptions = DurableOptions(),
    errors: Locked<[String]>? = nil
) throws -> Orders {
    try Orders(
        chart: orderChart(), store: store, options: options, clock: clock.read,
        onError: { id, message in errors?.withLock { $0.append("\(id): \(message)") } }
    ) { id in Order(id: id) }
}

/// Four workers on `store` (four processes' worth) and eight senders: every event is applied
/// once, in order per sender, and numbered without gaps, read back by a fresh worker.
func fourWorkersShareAFleet(_ store: any MachineStore) async throws {
    let clock = TestClock()
    let options = DurableOptions(snapshotInterval: 7, machinesPerBatch: 8, eventsPerMachine: 4)
    let workers = try (0..<4).map { _ in try orders(store, clock, options: options) }
    let running = workers.map { worker in Task { try await worker.run() } }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for sender in 0..<8 {
            group.addTask {
                for item in 0..<50 {
                    try await workers[(sender + item) % 4].send(.add(sender * 1000 + item), to: "m\(item % 10)")
                }
            }
        }
        try await group.waitForAll()
    }
    for _ in 0..<500 {
        if try await store.backlog(now: clock.now).pendingEvents == 0 { break }
        try await Task.sleep(for: .milliseconds(10))
    }
    for task in running { task.cancel() }
    for task in running { try await task.value }
    #expect(try await store.backlog(now: clock.now).pendingEvents == 0)
    let reader = try orders(store, clock, options: options)
    for machine in 0..<10 {
        let items = try #require(try await reader.machine("m\(machine)")).context.items
        #expect(items.count == 40)
        #expect(Set(items).count == 40)
        for sender in 0..<8 {
            let mine = items.filter { $0 / 1000 == sender }
            #expect(mine == mine.sorted())
        }
        let record = try #require(try await store.record(of: "m\(machine)"))
        #expect(record.row.appliedSequence == 41)
        let sequences = try await store.journal(of: "m\(machine)").compactMap(\.sequence)
        #expect(sequences == Array(try #require(sequences.first)...41))
    }
}

/// A test's store around another: every requirement goes to `base`, except those the test's
/// type writes itself (a failure to inject, a call to count).
protocol ForwardingStore: MachineStore {
    var base: any MachineStore { get }
}

extension ForwardingStore {
    func prepare() async throws(StoreError) { try await base.prepare() }
    func enqueue(_ events: [IncomingEvent]) async throws(StoreError) -> [Admission] { try await base.enqueue(events) }
    func enqueue(
        collecting collect: @escaping @Sendable () -> [IncomingEvent]
    ) async throws(StoreError) -> [Admission] {
        try await base.enqueue(collecting: collect)
    }
    func process(
        _ request: ClaimRequest, apply: @escaping @Sendable ([ClaimedMachine]) throws -> [MachineUpdate]
    ) async throws(StoreError) -> [MachineUpdate] {
        try await base.process(request, apply: apply)
    }
    func record(of machine: String) async throws(StoreError) -> MachineRecord? { try await base.record(of: machine) }
    func journal(of machine: String) async throws(StoreError) -> [JournalEntry] { try await base.journal(of: machine) }
    func backlog(now: Int64) async throws(StoreError) -> Backlog { try await base.backlog(now: now) }
    func machineIDs() async throws(StoreError) -> [String] { try await base.machineIDs() }
    func census() async throws(StoreError) -> [MachineCensus] { try await base.census() }
    func claimEffects(_ request: EffectClaimRequest) async throws(StoreError) -> [OutboxEntry] {
        try await base.claimEffects(request)
    }
    func settleEffects(_ outcomes: [EffectOutcome]) async throws(StoreError) { try await base.settleEffects(outcomes) }
    func outbox(of machine: String) async throws(StoreError) -> [OutboxEntry] { try await base.outbox(of: machine) }
    func deadLetters(limit: Int) async throws(StoreError) -> [OutboxEntry] { try await base.deadLetters(limit: limit) }
    func retryDeadLetter(_ key: EffectKey, at time: Int64) async throws(StoreError) -> Bool {
        try await base.retryDeadLetter(key, at: time)
    }
    var preferredMachinesPerBatch: Int { base.preferredMachinesPerBatch }
}
#endif
