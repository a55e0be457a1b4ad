#if Store
import Foundation
import Statecharts
import StatechartsStore

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
#endif
