#if Logging
import Clocks
import Logging
import Statecharts
import StatechartsLogging
import Testing

/// The records a logger wrote.
final class LogRecords: Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let records = Locked<[Record]>([])

    func append(_ record: Record) { records.withLock { $0.append(record) } }

    var all: [Record] { records.withLock { $0 } }

    /// The messages at `level`.
    func messages(at level: Logger.Level) -> [String] { all.filter { $0.level == level }.map(\.message) }
}

/// A log handler that keeps every record it is given.
struct KeepingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    func log(event: LogEvent) {
        records.append(.init(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

enum Kettle: Hashable, Sendable { case off, heating, boiled }

enum KettleEvent: StatechartEvent, CaseIterable { case switchOn, switchOff, descale }

struct Boil: Error, CustomStringConvertible {
    var description: String { "the element is scaled" }
}

func kettleChart() throws -> Statechart<Kettle, KettleEvent, Int> {
    try Statechart(initial: .off) {
        StateNode(.off) {
            On(.switchOn, to: .heating)
            On(.descale) { _ in throw Boil() }
        }
        StateNode(.heating) {
            Invoke("thermostat") { _ in
                try await Task.sleep(for: .seconds(3600))
                return nil
            }
            After(.seconds(90), to: .boiled)
            On(.switchOff, to: .off)
        }
        StateNode(.boiled) { On(.switchOff, to: .off) }
    }
}

@MainActor
@Suite("The logging inspector")
struct MachineLoggerTests {
    let clock = TestClock()
    let timers: TimerWheel
    let records = LogRecords()

    init() { timers = TimerWheel(clock: clock) }

    func logger(level: Logger.Level) -> Logger {
        let records = records
        return Logger(label: "test.kettle") { _ in KeepingLogHandler(records: records, logLevel: level) }
    }

    @Test("each event, microstep, unhandled event, failed action and invocation is a record at its level")
    func everyRecord() async throws {
        let log = MachineLogger(logger(level: .trace), machine: "kettle")
        let kettle = IsolatedStatechart(try kettleChart(), context: 0, timers: timers, inspect: log.inspect)
        try kettle.start()
        try kettle.send(.descale)
        try kettle.send(.switchOff)  // not handled while off
        try kettle.send(.switchOn)
        await clock.advance(by: .seconds(90))
        await timers.settle()
        #expect(kettle.isActive(.boiled))

        #expect(
            records.all.map { "\($0.level) \($0.message)" } == [
                "info (start): exited [], entered [off]",
                "debug event descale (external)",
                "error transition action of off threw: the element is scaled",
                "info descale: exited [], entered []",
                "debug event error.execution (internal)",
                "debug no transition handles error.execution (internal)",
                "debug event switchOff (external)",
                "debug no transition handles switchOff (external)",
                "debug event switchOn (external)",
                "info switchOn: exited [off], entered [heating]",
                "debug started thermostat (invocation 0)",
                "debug event after.90000ms.heating (timer)",
                "info after.90000ms.heating: exited [heating], entered [boiled]",
                "debug cancelled invocation 0",
            ])
        #expect(records.all.allSatisfy { $0.metadata["machine"] == "kettle" })

        let unhandled = try #require(records.all.first { $0.message.hasSuffix("handles switchOff (external)") })
        #expect(unhandled.metadata["event"] == "switchOff")
        #expect(unhandled.metadata["origin"] == "external")
        #expect(unhandled.metadata["configuration"] == .array(["off"]))

        let failed = try #require(records.all.first { $0.level == .error })
        #expect(failed.metadata["action"] == "transition")
        #expect(failed.metadata["state"] == "off")
        #expect(failed.metadata["error"] == "the element is scaled")

        let heating = try #require(records.all.first { $0.message.hasPrefix("switchOn:") })
        #expect(heating.metadata["event"] == "switchOn")
        #expect(heating.metadata["exited"] == .array(["off"]))
        #expect(heating.metadata["entered"] == .array(["heating"]))
        #expect(heating.metadata["configuration"] == .array(["heating"]))
        #expect(heating.metadata["transitions"] == .array(["off → heating"]))

        let started = try #require(records.all.first { $0.message.hasPrefix("started thermostat") })
        #expect(started.metadata["state"] == "heating")
        #expect(started.metadata["name"] == "thermostat")
        #expect(started.metadata["invocation"] == "0")
        #expect(records.all.last?.metadata["configuration"] == .array(["boiled"]))
    }

    @Test("at the default level, info, only the transitions taken and what fails are written")
    func defaultLevel() throws {
        let log = MachineLogger(logger(level: .info), machine: "kettle")
        let kettle = IsolatedStatechart(try kettleChart(), context: 0, timers: timers, inspect: log.inspect)
        try kettle.start()
        try kettle.send(.switchOff)
        try kettle.send(.descale)
        #expect(
            records.all.map { "\($0.level) \($0.message)" } == [
                "info (start): exited [], entered [off]",
                "error transition action of off threw: the element is scaled",
                "info descale: exited [], entered []",
            ])
    }

    @Test("the levels can be chosen")
    func chosenLevels() throws {
        var levels = MachineLogger.Levels()
        levels.unhandled = .warning
        let log = MachineLogger(logger(level: .warning), machine: "kettle", levels: levels)
        let kettle = IsolatedStatechart(try kettleChart(), context: 0, timers: timers, inspect: log.inspect)
        try kettle.start()
        try kettle.send(.switchOff)
        #expect(records.all.map(\.message) == ["no transition handles switchOff (external)"])
        #expect(records.all.first?.level == .warning)
    }

    @Test("a StatechartActor logs the same records")
    @MainActor
    func actor() async throws {
        let log = MachineLogger(logger(level: .info), machine: "kettle")
        let kettle = StatechartActor(try kettleChart(), context: 0, timers: timers, inspect: log.inspect)
        try await kettle.start()
        try await kettle.send(.switchOn)
        #expect(records.messages(at: .info).count == 2)
        #expect(records.all.last?.metadata["configuration"] == .array(["heating"]))
    }
}
#endif
