#if Tools
#if Store
import ArgumentParser
import Foundation
import Statecharts
import StatechartsStore

/// `statechart fleet STORE`: what a fleet of durable machines holds, read from its store, and the
/// retry of a dead letter.
public struct FleetCommand: AsyncParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Show what a store of durable machines holds, and retry its dead letters.",
        discussion: """
            STORE is a SQLite file (a path, or sqlite:PATH) or a PostgreSQL URL \
            (postgres://user:password@host:port/database, with --schema for another schema than \
            public). Without options: the machines by configuration and status with their counts, \
            the work waiting (pending events, timers and effects due) and the dead letters. With \
            --machine ID: that machine's row, the data of its latest snapshot, the tail of its \
            journal, its pending timers and what it has in the outbox. With --retry KEY: the dead \
            letter KEY (machine/sequence/index, as listed) is due again, and the next worker delivers \
            it under the same key. The tool reads the store as it is; it never creates one: a SQLite \
            file that does not exist is an error. A file of an older schema is brought to this \
            version's, as any DurableMachines opening it would.
            """)

    /// The store.
    @Argument(help: "A SQLite file (PATH or sqlite:PATH) or a postgres:// URL.")
    public var store: String

    /// The machine to show.
    @Option(help: "Show this machine: its row, data, journal tail, timers and outbox.")
    public var machine: String?

    /// The dead letter to retry.
    @Option(help: "Make the dead letter with this key (machine/sequence/index) due again.")
    public var retry: String?

    /// The schema of a PostgreSQL store.
    @Option(help: "The PostgreSQL schema that holds the tables (public).")
    public var schema = "public"

    /// How many journal entries to show.
    @Option(help: "How many of the machine's last journal entries to show (20).")
    public var journalTail = 20

    /// How many dead letters to list.
    @Option(help: "List at most this many dead letters (20).")
    public var deadLetters = 20

    /// Whether to write JSON.
    @Flag(help: "Write one JSON object instead of text.")
    public var json = false

    /// A command ready to parse.
    public init() {}

    /// Checks that at most one of --machine and --retry is given, and the counts.
    public func validate() throws {
        if machine != nil && retry != nil { throw ValidationError("give --machine or --retry, not both") }
        if journalTail < 0 || deadLetters < 0 { throw ValidationError("the counts must be 0 or more") }
        if let retry, EffectKey(retry) == nil {
            throw ValidationError("'\(Escaping.terminal(retry))' is not an effect key: machine/sequence/index")
        }
    }

    /// Opens the store and does what was asked.
    public func run() async throws {
        let opened = try await Self.open(store, schema: schema)
        defer { opened.close() }
        if let retry, let key = EffectKey(retry) {
            try await retryDeadLetter(key, in: opened.store)
        } else if let machine {
            try await show(machine, in: opened.store)
        } else {
            try await summarize(opened.store)
        }
    }

    // MARK: - Opening

    /// A store and how to close it.
    struct OpenedStore {
        var store: any MachineStore
        var close: () -> Void
    }

    /// The store `location` names: a SQLite file that exists, checked by its real path, or a
    /// PostgreSQL URL.
    static func open(_ location: String, schema: String) async throws -> OpenedStore {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            #if PostgreSQL
            let store = try PostgresMachineStore(url: location, schema: schema, connections: 1)
            try await store.prepare()
            return OpenedStore(store: store) { store.close() }
            #else
            throw CommandError("this build has no PostgreSQL store: build it with the trait PostgreSQL")
            #endif
        }
        let path = location.hasPrefix("sqlite:") ? String(location.dropFirst("sqlite:".count)) : location
        guard let real = realpath(path, nil) else {
            throw CommandError("no store at '\(path)': the file does not exist (the tool never creates one)")
        }
        defer { free(real) }
        let resolved = String(cString: real)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw CommandError("no store at '\(path)': it is not a file")
        }
        return OpenedStore(store: try SQLiteMachineStore(path: resolved)) {}
    }

    // MARK: - Summary

    struct Summary: Encodable {
        var machines: Int
        var census: [MachineCensus]
        var pendingEvents: Int
        var dueTimers: Int
        var dueEffects: Int
        var deadLetterCount: Int
        var deadLetters: [Effect]
    }

    func summarize(_ store: any MachineStore) async throws {
        let census = try await store.census()
        let backlog = try await store.backlog(now: Self.now())
        let letters = try await store.deadLetters(limit: deadLetters).map(Effect.init)
        let summary = Summary(
            machines: census.map(\.count).reduce(0, +), census: census, pendingEvents: backlog.pendingEvents,
            dueTimers: backlog.dueTimers, dueEffects: backlog.dueEffects, deadLetterCount: backlog.deadLetters,
            deadLetters: letters)
        if json { return try Self.write(summary) }
        printLine(Escaping.terminal("\(summary.machines) machines"))
        for line in census {
            printLine(Escaping.terminal("  \(line.count)\t\(line.configuration)\t\(line.status)"))
        }
        printLine(
            "waiting: \(backlog.pendingEvents) events pending, \(backlog.dueTimers) timers due, "
                + "\(backlog.dueEffects) effects due")
        printLine("dead letters: \(backlog.deadLetters)")
        for letter in letters { printLine(Escaping.terminal("  " + letter.line)) }
    }

    // MARK: - One machine

    struct Machine: Encodable {
        var id: String
        var configuration: String
        var status: String
        var epoch: Int64
        var appliedSequence: Int64
        var snapshotSequence: Int64
        /// The snapshot's JSON (a `MachineArchive`), as kept.
        var snapshot: String?
        var journal: [Entry]
        var timers: [Timer]
        var outbox: [Effect]
    }

    struct Entry: Encodable {
        var sequence: Int64?
        var kind: String
        var time: Int64
        var eventID: String?
        var payload: String?

        init(_ entry: JournalEntry) {
            sequence = entry.sequence
            kind = "\(entry.kind)"
            time = entry.time
            eventID = entry.eventID
            payload = entry.payload
        }

        var line: String {
            let number = sequence.map { "#\($0)" } ?? "pending"
            let id = eventID.map { " id \($0)" } ?? ""
            return "\(number)\t\(kind) at \(Self.seconds(time))\(id)" + (payload.map { "\t\($0)" } ?? "")
        }

        static func seconds(_ nanoseconds: Int64) -> String {
            let whole = nanoseconds / 1_000_000_000
            let milliseconds = (nanoseconds % 1_000_000_000) / 1_000_000
            return "\(whole).\(String(repeating: "0", count: 3 - String(milliseconds).count))\(milliseconds) s"
        }
    }

    struct Timer: Encodable {
        var serial: Int64
        var name: String
        var dueAt: Int64
    }

    struct Effect: Encodable {
        var key: String
        var kind: String
        var dueAt: Int64
        var attempts: Int
        var lastError: String?
        var deadLetter: Bool
        var payload: String

        init(_ entry: OutboxEntry) {
            key = entry.key.description
            kind = entry.kind
            dueAt = entry.dueAt
            attempts = entry.attempts
            lastError = entry.lastError
            deadLetter = entry.isDeadLetter
            payload = entry.payload
        }

        var line: String {
            let state = deadLetter ? "dead" : "due \(FleetCommand.date(dueAt))"
            let error = lastError.map { ", last error: \($0)" } ?? ""
            return "\(key)\t\(kind)\t\(state), \(attempts) attempts\(error)\t\(payload)"
        }
    }

    func show(_ id: String, in store: any MachineStore) async throws {
        guard let record = try await store.record(of: id) else {
            throw CommandError("the store has no machine '\(Escaping.terminal(id))'")
        }
        let journal = try await store.journal(of: id)
        let row = record.row
        let machine = Machine(
            id: row.id, configuration: row.configuration, status: row.status, epoch: row.epoch,
            appliedSequence: row.appliedSequence, snapshotSequence: row.snapshotSequence, snapshot: row.snapshot,
            journal: journal.suffix(journalTail).map(Entry.init),
            timers: record.timers.map { Timer(serial: $0.serial, name: $0.name, dueAt: $0.dueAt) },
            outbox: try await store.outbox(of: id).map(Effect.init))
        if json { return try Self.write(machine) }
        printLine(Escaping.terminal("machine \(row.id): \(row.configuration) (\(row.status))"))
        printLine("created \(Self.date(row.epoch)); journal applied through #\(row.appliedSequence)")
        if let snapshot = row.snapshot {
            printLine("snapshot at #\(row.snapshotSequence):")
            printLine(Escaping.terminal("  " + snapshot))
        } else {
            printLine("no snapshot yet: the machine is its journal replayed from its initial data")
        }
        printLine("journal, last \(machine.journal.count) of \(journal.count) (times in the machine's time):")
        for entry in machine.journal { printLine(Escaping.terminal("  " + entry.line)) }
        printLine("timers: \(record.timers.count)")
        for timer in record.timers {
            printLine(Escaping.terminal("  \(timer.name) due \(Self.date(timer.dueAt))"))
        }
        printLine("outbox: \(machine.outbox.count)")
        for effect in machine.outbox { printLine(Escaping.terminal("  " + effect.line)) }
    }

    // MARK: - Retrying

    struct Retried: Encodable {
        var retried: String
    }

    func retryDeadLetter(_ key: EffectKey, in store: any MachineStore) async throws {
        guard try await store.retryDeadLetter(key, at: Self.now()) else {
            throw CommandError("the store has no dead letter '\(Escaping.terminal(key.description))'")
        }
        if json { return try Self.write(Retried(retried: key.description)) }
        printLine(Escaping.terminal("\(key) is due again: the next worker delivers it, under the same key"))
    }

    // MARK: - Writing

    static func write(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        printJSON(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The time now, in nanoseconds since 1970.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1e9) }

    /// `time` (nanoseconds since 1970) as an ISO 8601 date, in UTC.
    static func date(_ time: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(time / 1_000_000) / 1000)
        return date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    }
}
#endif
#endif
