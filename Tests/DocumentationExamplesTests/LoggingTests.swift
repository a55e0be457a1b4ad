#if Logging
import Logging
import Statecharts
import StatechartsLogging
import Testing

// The example of the StatechartsLogging documentation, as it shows it, with the records kept by a
// log handler instead of printed.

/// The records a logger wrote, as `level message`.
nonisolated final class KeptRecords: Sendable {
    private let lines = Locked<[String]>([])

    init() {}

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}

/// A log handler that keeps every record it is given.
nonisolated struct KeepingHandler: LogHandler {
    let records: KeptRecords
    var logLevel: Logging.Logger.Level = .info
    var metadata: Logging.Logger.Metadata = [:]
    var metadataProvider: Logging.Logger.MetadataProvider?

    func log(event: LogEvent) {
        let machine = event.metadata?["machine"].map { "machine=\($0) " } ?? ""
        records.append("\(event.level) \(machine)\(event.message)")
    }

    subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

@Suite struct LoggingTests {
    @Test("the player's transitions are written to the logger, with the machine's name")
    @MainActor
    func playerLog() throws {
        let records = KeptRecords()
        func Logger(label: String) -> Logging.Logger {
            Logging.Logger(label: label) { _ in KeepingHandler(records: records) }
        }

        let log = MachineLogger(Logger(label: "com.example.player"), machine: "player")
        let player = IsolatedStatechart(try makePlayerChart(), context: Track(duration: 180), inspect: log.inspect)
        try player.start()
        try player.send(.play)
        // info machine=player play: exited [stopped], entered [active, playback, playing]

        #expect(
            records.all == [
                "info machine=player (start): exited [], entered [stopped]",
                "info machine=player play: exited [stopped], entered [active, playback, playing]",
            ])
    }
}

#if canImport(os)
import Foundation
import os

struct OSLogHandler: LogHandler {
    let logger: os.Logger
    var logLevel: Logging.Logger.Level = .info
    var metadata: Logging.Logger.Metadata = [:]
    var metadataProvider: Logging.Logger.MetadataProvider?

    init(label: String) {
        logger = os.Logger(subsystem: Bundle.main.bundleIdentifier ?? label, category: label)
    }

    func log(event: LogEvent) {
        let type: OSLogType =
            switch event.level {
            case .trace, .debug: .debug
            case .info, .notice: .info
            case .warning, .error: .error
            case .critical: .fault
            }
        let metadata = (event.metadata ?? [:]).map { "\($0)=\($1)" }.sorted().joined(separator: " ")
        logger.log(level: type, "\(event.message, privacy: .public) \(metadata, privacy: .public)")
    }

    subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}

/// What an app does once at launch.
func bootstrapLogging() {
    LoggingSystem.bootstrap(OSLogHandler.init)
}
#endif
#endif
