#if Store
import Foundation
import GRDB
import Statecharts
import StatechartsSCXML
import StatechartsStore
import Testing
#if ECMAScript
import StatechartsECMAScript
#endif
#if Inspector
import StatechartsInspector
#endif

// The examples of the article "Machines that outlive the process": a fleet of sensors kept in
// SQLite (and, when a server is configured, in PostgreSQL), each silent after 90 seconds without
// a heartbeat, after a restart too.

nonisolated enum SensorState: String, Hashable, Codable, Sendable { case online, silent, calibrating, faulty }

nonisolated enum SensorEvent: StatechartEvent, Codable, Hashable, Sendable {
    case heartbeat(battery: Int)
    case replaced
    case calibrated(offset: Int)
    case calibrationFailed

    enum Kind: Hashable, Sendable { case heartbeat, replaced, calibrated, calibrationFailed }
    var kind: Kind {
        switch self {
        case .heartbeat: .heartbeat
        case .replaced: .replaced
        case .calibrated: .calibrated
        case .calibrationFailed: .calibrationFailed
        }
    }
}

nonisolated struct Sensor: Codable, Sendable {
    var id: String
    var battery = 100
    var silences = 0
    var offset = 0
}

func sensorChart() throws -> Statechart<SensorState, SensorEvent, Sensor> {
    try Statechart("sensor", initial: .online) {
        StateNode(.online) {
            // Each heartbeat re-enters the state, which arms its timeout again.
            On(.heartbeat, to: .online) { scope in
                if case .heartbeat(let battery) = scope.event { scope.context.battery = battery }
            }
            After(.seconds(90), to: .silent) { scope in
                scope.context.silences += 1
                scope.log("silent for 90 s")
            }
        }
        StateNode(.silent) {
            On(.heartbeat, to: .online) { scope in
                if case .heartbeat(let battery) = scope.event { scope.context.battery = battery }
            }
        }
        On(.replaced) { scope in scope.context.battery = 100 }
    }
}

/// The sensor chart of the article's section on effects: a replaced sensor tells the fleet's
/// inventory machine, and an operations service outside the fleet.
func replacementChart() throws -> Statechart<SensorState, SensorEvent, Sensor> {
    try Statechart("sensor", initial: .online) {
        StateNode(.online)
        On(.replaced) { scope in
            guard scope.context.id != "inventory" else { return }
            // To the fleet's machine "inventory": journaled with this step, exactly once.
            scope.send(.replaced, to: "inventory")
            // Outside the fleet: an effect for `deliver`, at least once.
            scope.send(.replaced, to: "https://ops.example/replacements", type: "http")
        }
    }
}

/// The sensor chart of the article's section on work: a replaced sensor is calibrated by the
/// fleet's activity `calibrate`.
func calibrationChart() throws -> Statechart<SensorState, SensorEvent, Sensor> {
    try Statechart("sensor", initial: .online) {
        StateNode(.online) {
            On(.replaced, to: .calibrating)
        }
        StateNode(.calibrating) {
            // Work the fleet's workers run: the activity registered as "calibrate".
            Invoke("calibrate")
            On(.calibrated, to: .online) { scope in
                if case .calibrated(let offset) = scope.event { scope.context.offset = offset }
            }
            On(.calibrationFailed, to: .faulty)
        }
        StateNode(.faulty)
    }
}

/// The calibration service of the article's section on work: it remembers the keys it has seen,
/// and does each calibration once.
nonisolated final class CalibrationService: Sendable {
    private let seen = Locked([String: Int]())
    let failing: Bool

    init(failing: Bool = false) { self.failing = failing }

    func run(sensor: String, key: String) async throws -> Int {
        if failing { throw OperationsUnreachable() }
        return seen.withLock { seen in
            if let offset = seen[key] { return offset }
            seen[key] = sensor.count
            return sensor.count
        }
    }

    var calibrations: Int { seen.withLock { $0.count } }
}

nonisolated struct OperationsUnreachable: Error {}

typealias Sensors = DurableMachines<SensorState, SensorEvent, Sensor>

/// A wall clock the examples move by hand, in nanoseconds since 1970.
nonisolated final class ExampleWallClock: Sendable {
    private let time = Locked<Int64>(1_800_000_000_000_000_000)
    var now: Int64 { time.withLock { $0 } }
    func advance(by seconds: Int64) { time.withLock { $0 += seconds * 1_000_000_000 } }
}

@Suite("Machines that outlive the process")
struct DurableMachinesExamples {
    static func temporaryPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sensors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("sensors.sqlite").path
    }

    @Test("a fleet in SQLite: sends acknowledged, a retry recognized, a worker that applies them")
    func sqliteFleet() async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteMachineStore(path: path)
        let sensors = try DurableMachines(chart: sensorChart(), store: store) { id in Sensor(id: id) }

        try await sensors.send(.heartbeat(battery: 80), to: "sensor-7", id: "sensor-7/1042")

        let retry = try await sensors.send(.heartbeat(battery: 80), to: "sensor-7", id: "sensor-7/1042")
        #expect(retry == .duplicate)

        let worker = Task { try await sensors.run() }

        for _ in 0..<500 where try await !store.backlog(now: Sensors.systemTime()).isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }

        worker.cancel()
        try await worker.value

        let sensor = try await sensors.machine("sensor-7")  // from its snapshot and journal
        #expect(sensor?.configuration == [.online])
        #expect(sensor?.context.battery == 80)
    }

    @Test("looking back: a machine's journal replayed, each step with its machine, and shown in the inspector")
    func history() async throws {
        let store = try SQLiteMachineStore(path: try Self.temporaryPath())
        let sensors = try DurableMachines(chart: sensorChart(), store: store) { id in Sensor(id: id) }
        for battery in [80, 75] { try await sensors.send(.heartbeat(battery: battery), to: "sensor-7") }
        try await sensors.drain()
        #expect(try await sensors.history(of: "sensor-7") != nil)

        guard let history = try await sensors.history(of: "sensor-7") else { return }
        for step in history.steps {
            print("#\(step.sequence)", step.event.map { "\($0)" } ?? "\(step.kind)", step.snapshot.configuration)
        }

        #expect(history.steps.map(\.sequence) == [1, 2, 3])
        #expect(history.steps.map(\.snapshot.context.battery) == [100, 80, 75])
        #if Inspector
        let timeline =
            [(label: "start", snapshot: history.initial)]
            + history.steps.map { (label: "#\($0.sequence)", snapshot: $0.snapshot) }
        let inspector = try await InspectorServer.show(timeline, of: sensorChart())
        print("the past of sensor-7: \(inspector.pageURL)")

        #expect(inspector.pageURL.hasPrefix("http://127.0.0.1:"))
        await inspector.stop()
        #endif
    }

    @Test("a timeout due while no process ran fires when a worker next runs, and effects leave after the commit")
    func restart() async throws {
        let path = try Self.temporaryPath()
        let wall = ExampleWallClock()
        do {
            let sensors = try DurableMachines(
                chart: sensorChart(), store: try SQLiteMachineStore(path: path), clock: { wall.now }
            ) { id in Sensor(id: id) }
            try await sensors.send(.heartbeat(battery: 55), to: "sensor-9")
            try await sensors.drain()
        }
        // The process stops; two minutes pass; another starts on the same file.
        wall.advance(by: 120)
        let alerts = Locked([String]())

        let sensors = try DurableMachines(
            chart: sensorChart(), store: try SQLiteMachineStore(path: path), clock: { wall.now },
            deliver: { delivery in
                // After the commit, at least once, with a key that is the same on every attempt.
                if case .log(_, let message) = delivery.effect {
                    alerts.withLock { $0.append("\(delivery.machine): \(message)") }
                }
            },
            onError: { id, message in print("sensor \(id): \(message)") }
        ) { id in Sensor(id: id) }

        try await sensors.drain()
        let sensor = try #require(try await sensors.machine("sensor-9"))
        #expect(sensor.configuration == [.silent], "the timeout fell due while no process ran")
        #expect(sensor.context.silences == 1)
        #expect(alerts.withLock { $0 } == ["sensor-9: silent for 90 s"])
    }

    @Test("effects: a send within the fleet journaled with its step, a dead letter retried and delivered")
    func outbox() async throws {
        let path = try Self.temporaryPath()
        let store = try SQLiteMachineStore(path: path)
        let reachable = Locked(false)
        let posted = Locked([String]())
        let sensors = try DurableMachines(
            chart: replacementChart(), store: store,
            options: DurableOptions(retry: RetryPolicy(maximumAttempts: 2, initialDelay: .zero)),
            deliver: { delivery in
                guard reachable.withLock({ $0 }) else { throw OperationsUnreachable() }
                posted.withLock { $0.append(delivery.key.description) }
            }
        ) { id in Sensor(id: id) }
        try await sensors.send(.replaced, to: "sensor-4")
        try await sensors.drain()
        // The inventory's event came with the step that sent it, under the effect's key.
        #expect(try await store.journal(of: "inventory").compactMap(\.eventID) == ["sensor-4/2/0"])
        #expect(posted.withLock { $0 }.isEmpty)
        reachable.withLock { $0 = true }

        for letter in try await sensors.deadLetters() {
            print("\(letter.key): \(letter.attempts) attempts, last: \(letter.error)")
            try await sensors.retryDeadLetter(letter.key)
        }

        try await sensors.drain()
        #expect(posted.withLock { $0 } == ["sensor-4/2/1"])
        #expect(try await sensors.deadLetters().isEmpty)
    }

    @Test("work: an activity run by the fleet's workers, its result journaled, its failure an event")
    func activities() async throws {
        let store = try SQLiteMachineStore(path: try Self.temporaryPath())
        for calibration in [CalibrationService(), CalibrationService(failing: true)] {
            let calibrate = DurableActivity<SensorState, SensorEvent, Sensor> { request in
                // At least once, in any worker: the key lets the service recognize a repeat.
                let offset = try await calibration.run(sensor: request.context.id, key: request.key.description)
                return .calibrated(offset: offset)
            } onFailure: { _ in
                .calibrationFailed
            }
            let sensors = try DurableMachines(
                chart: calibrationChart(), store: store,
                options: DurableOptions(retryByKind: [.activity: RetryPolicy(maximumAttempts: 1)]),
                activities: ["calibrate": calibrate]
            ) { id in Sensor(id: id) }
            let id = calibration.failing ? "sensor-31" : "sensor-30"
            try await sensors.send(.replaced, to: id)
            try await sensors.drain()
            let sensor = try #require(try await sensors.machine(id))
            if calibration.failing {
                #expect(sensor.configuration == [.faulty])
            } else {
                #expect(sensor.configuration == [.online])
                #expect(sensor.context.offset == 9)
                #expect(calibration.calibrations == 1)
            }
        }
    }

    #if ECMAScript
    @Test("documents that last: a document's fleet, its data in snapshots, its timer and its Swift work durable")
    func durableDocument() async throws {
        let store = try SQLiteMachineStore(path: try Self.temporaryPath())
        let calibration = CalibrationService()
        let clock = ExampleWallClock()
        let sensorDocument = fixture("sensor.scxml")

        let chart = try SCXMLChart.load(contentsOf: sensorDocument, dataModels: ECMAScriptDataModel.withBuiltIns)
        let calibrate = SCXMLInvoker { request in
            // At least once, in any worker: the key is the same on every attempt.
            let offset = try await calibration.run(sensor: request.sessionID, key: request.key ?? "")
            return .object(["offset": .number(Double(offset))])
        }
        let sensors = try DurableMachines(
            document: chart, store: store, clock: { clock.now }, invokers: ["calibrate": calibrate])
        try await sensors.send("replaced", to: "sensor-40")

        try await sensors.drain()
        var sensor = try #require(try await sensors.machine("sensor-40"))
        #expect(sensor.configuration == ["online"])
        var model = sensor.context.model
        let origin = SourcePosition(file: "example", line: 1, column: 1)
        #expect(try model.load("offset", at: origin) == .number(9))
        #expect(calibration.calibrations == 1)
        // Its watchdog is a timer row: 90 seconds later, whichever process runs, it is silent.
        clock.advance(by: 90)
        try await sensors.drain()
        sensor = try #require(try await sensors.machine("sensor-40"))
        #expect(sensor.configuration == ["silent"])
    }
    #endif

    @Test("the app's own database: the store's migrations in its migrator, an event sent with its rows")
    func appDatabase() async throws {
        let database = try DatabasePool(path: try Self.temporaryPath())

        var migrator = DatabaseMigrator()
        migrator.registerMigration("createInstallations") { db in
            try db.execute(sql: "CREATE TABLE installations (sensor TEXT PRIMARY KEY NOT NULL, site TEXT NOT NULL)")
        }
        SQLiteMachineStore.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        let store = try SQLiteMachineStore(writer: database)

        let sensors = try DurableMachines(chart: sensorChart(), store: store) { id in Sensor(id: id) }

        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO installations (sensor, site) VALUES (?, ?)", arguments: ["sensor-12", "Dock B"])
            try sensors.send(.replaced, to: "sensor-12", id: "install-sensor-12", in: db)
        }

        try await sensors.drain()
        #expect(try await sensors.machine("sensor-12")?.context.battery == 100)
        #expect(
            try await database.read { db in try String.fetchOne(db, sql: "SELECT site FROM installations") } == "Dock B"
        )
    }

    #if PostgreSQL
    @Test(
        "a fleet in PostgreSQL, shared by workers",
        .enabled(if: ProcessInfo.processInfo.environment["STATECHARTS_POSTGRES_URL"]?.isEmpty == false))
    func postgresFleet() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["STATECHARTS_POSTGRES_URL"])
        let schema = "statecharts_docs_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")

        let store = try PostgresMachineStore(url: url, schema: schema)
        try await store.prepare()
        let sensors = try DurableMachines(chart: sensorChart(), store: store) { id in Sensor(id: id) }

        try await sensors.send(.heartbeat(battery: 42), to: "sensor-3")
        try await sensors.drain()
        #expect(try await sensors.machine("sensor-3")?.context.battery == 42)
        store.close()
    }
    #endif
}
#endif
