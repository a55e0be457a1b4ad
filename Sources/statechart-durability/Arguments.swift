#if Store
import Foundation
import Statecharts
import StatechartsStore

/// The command line: a command and `--name value` options.
struct Arguments {
    let command: String
    private var values: [String: [String]] = [:]

    init(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw UsageError("no command") }
        self.command = command
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else {
                throw UsageError("expected --name value, found '\(name)'")
            }
            values[String(name.dropFirst(2)), default: []].append(value)
        }
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name]?.last else { throw UsageError("--\(name) is required") }
        return value
    }

    func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the crash test runs the SCXML document (`--chart document`) rather than the typed chart.
    var isDocument: Bool { values["chart"]?.last == "document" }

    func int(_ name: String, default fallback: Int? = nil) throws -> Int {
        guard let text = values[name]?.last else {
            if let fallback { return fallback }
            throw UsageError("--\(name) is required")
        }
        guard let value = Int(text), value >= 0 else { throw UsageError("--\(name) takes a number, not '\(text)'") }
        return value
    }
}

/// Does `operation` until it does not fail with a database failure (a server restarting, a
/// connection cut), as a client of an at-least-once API does, every 100 ms for up to a minute.
@discardableResult
func retryingDatabaseFailures<Result>(_ operation: () async throws(StoreError) -> Result) async throws -> Result {
    var attempt = 0
    while true {
        attempt += 1
        do throws(StoreError) {
            return try await operation()
        } catch {
            guard case .database = error, attempt < 600 else { throw error }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// The next index of a stream that several sender tasks share: each index is taken once.
func takeIndex(_ next: Locked<Int>) -> Int {
    next.withLock { value in
        defer { value += 1 }
        return value
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// How long a document's crash-test worker lets one PostgreSQL operation take: the whole
/// transaction that applies a batch, which rebuilds each claimed machine's JavaScript virtual
/// machine while it holds the transaction. With 5 s, four workers of a debug build on two cores
/// gave up on their first batches again and again: each abandoned transaction's work ran on, and
/// its machines had to be rebuilt by the next, so that none committed (CI, 2026-12-01).
let documentOperationTimeLimit: Duration = .seconds(30)

/// A store from `sqlite:PATH` or a `postgres://` URL.
///
/// An operation on PostgreSQL gives up after `operationTimeLimit`: 5 s for the typed chart, whose
/// crash test restarts the server and wants the workers back soon. A document's workers take 30 s
/// (`documentOperationTimeLimit`), since applying a batch holds the transaction while it rebuilds
/// each machine's JavaScript virtual machine.
func openStore(
    _ location: String, connections: Int = 4, operationTimeLimit: Duration = .seconds(5)
) async throws -> any MachineStore {
    if location.hasPrefix("sqlite:") {
        return try SQLiteMachineStore(path: String(location.dropFirst("sqlite:".count)))
    }
    if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
        #if PostgreSQL
        // An operation stuck on a pool left waiting for dead connections gives up after the limit,
        // and the store starts a new pool.
        let store = try PostgresMachineStore(
            url: location, connections: connections, operationTimeLimit: operationTimeLimit)
        // A connection cut (the crash tests' proxy) or a server restarting fails the migration:
        // try again, for up to a minute.
        try await retryingDatabaseFailures { () async throws(StoreError) in try await store.prepare() }
        return store
        #else
        throw UsageError("built without the trait PostgreSQL")
        #endif
    }
    throw UsageError("--store takes sqlite:PATH or postgres://user:password@host:port/database, not '\(location)'")
}

/// The stream of events one worker sends: deterministic, so that a restarted worker and the
/// check know what each event was.
struct EventStream {
    let worker: Int
    let workers: Int
    let machines: Int
    let total: Int
    /// Whether one event in ten is a `reserve` (the crash tests' booking region).
    var reserves = false

    /// How many events this worker sends.
    var count: Int { total / workers + (worker < total % workers ? 1 : 0) }

    /// The event's number: unique across workers.
    func number(_ index: Int) -> Int { worker * 100_000_000 + index }

    /// Which machine the event goes to.
    func machine(_ index: Int) -> String { "machine-\(mix(number(index)) % UInt64(machines))" }

    /// The event: one in five arms a delayed event of 0.2 to 2 s; with `reserves`, one in ten
    /// reserves.
    func event(_ index: Int) -> FleetEvent {
        let bits = mix(number(index) &+ 0x9E37)
        if bits % 5 == 0 { return .arm(number(index), milliseconds: 200 + Int((bits >> 8) % 1800)) }
        if reserves && bits % 10 == 1 { return .reserve(number(index)) }
        return .ping(number(index))
    }

    /// The event's identifier.
    func eventID(_ index: Int) -> String { "\(worker)-\(index)" }

    private func mix(_ value: Int) -> UInt64 {
        var x = UInt64(bitPattern: Int64(value)) &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
}
#endif
