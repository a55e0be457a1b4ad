#if Logging
import Logging
import Statecharts

/// Writes what a live machine does to a swift-log `Logger`: every event, microstep, unhandled event,
/// failed action, invocation and failure, each with structured metadata.
///
/// Pass its ``inspect(_:)`` as the inspection hook of a `StatechartActor` or an
/// `IsolatedStatechart`:
///
/// ```swift
/// let log = MachineLogger(Logger(label: "app.player"), machine: "player")
/// let player = IsolatedStatechart(chart, context: Player(), inspect: log.inspect)
/// ```
///
/// Every record carries the metadata `machine` (the label given here) and, when known, `event` and
/// `configuration` (the active states after the last microstep). A microstep adds `exited`,
/// `entered` and `transitions`; a failed action adds `action`, `state` and `error`. The levels are
/// those of ``Levels``, chosen so that the default level of swift-log (`info`) shows the transitions
/// taken and what fails, and `debug` also every event, what nobody handled and invocations.
public struct MachineLogger: Sendable {
    /// The logger records go to.
    public var logger: Logger
    /// The machine's name in every record (metadata `machine`).
    public var machine: String
    /// The level of each kind of record.
    public var levels: Levels
    /// The configuration after the last microstep, for the records that do not carry one.
    private let lastConfiguration = Locked<[String]?>(nil)

    /// A logger of the machine named `machine`, writing to `logger`.
    public init(_ logger: Logger, machine: String, levels: Levels = Levels()) {
        self.logger = logger
        self.machine = machine
        self.levels = levels
    }

    /// The level of each kind of record.
    public struct Levels: Sendable, Hashable {
        /// An event about to be processed: `debug`.
        public var event: Logger.Level = .debug
        /// A microstep: the transitions taken and the states exited and entered: `info`.
        public var microstep: Logger.Level = .info
        /// An event no transition handled: `debug`.
        public var unhandled: Logger.Level = .debug
        /// An invocation started or cancelled: `debug`.
        public var invocation: Logger.Level = .debug
        /// An action, guard or data closure that threw: `error`.
        public var failedAction: Logger.Level = .error
        /// Processing nobody awaited that failed (a timer's, an invocation's result): `error`.
        public var failure: Logger.Level = .error
        /// A message an action wrote (`Scope.log`, SCXML's `<log>`): `info`.
        public var log: Logger.Level = .info
        /// An event sent out that could not be delivered: `warning`.
        public var undelivered: Logger.Level = .warning

        /// The default levels.
        public init() {}
    }

    /// Writes one record: the inspection hook of a live machine.
    public func inspect<State, Event>(_ inspection: MachineInspection<State, Event>) where Event.Kind: Hashable {
        switch inspection {
        case .willProcess(let event):
            write(
                levels.event, "event \(event.name) (\(event.origin.rawValue))",
                ["event": .string(event.name), "origin": .string(event.origin.rawValue)])
        case .didTake(let microstep):
            let configuration = microstep.configuration.map { "\($0)" }
            lastConfiguration.withLock { $0 = configuration }
            var metadata: Logger.Metadata = [
                "exited": .array(microstep.exited.map { .string("\($0)") }),
                "entered": .array(microstep.entered.map { .string("\($0)") }),
                "transitions": .array(microstep.transitions.map { .string(Self.describe($0)) }),
            ]
            if let event = microstep.event { metadata["event"] = .string(event) }
            write(levels.microstep, microstep.description, metadata)
        case .unhandled(let event):
            write(
                levels.unhandled, "no transition handles \(event.name) (\(event.origin.rawValue))",
                ["event": .string(event.name), "origin": .string(event.origin.rawValue)])
        case .actionFailed(let failure):
            var metadata: Logger.Metadata = [
                "action": .string(failure.action.rawValue), "error": .string("\(failure.error)"),
            ]
            if let state = failure.state { metadata["state"] = .string("\(state)") }
            let place = failure.state.map { " of \($0)" } ?? ""
            write(
                levels.failedAction, "\(failure.action.rawValue) action\(place) threw: \(failure.error)", metadata)
        case .invocationStarted(let id, let name, let state):
            var metadata: Logger.Metadata = ["invocation": .string("\(id.rawValue)")]
            if let name { metadata["name"] = .string(name) }
            if let state { metadata["state"] = .string("\(state)") }
            write(levels.invocation, "started \(name ?? "invocation") (\(id))", metadata)
        case .invocationCancelled(let id):
            write(levels.invocation, "cancelled \(id)", ["invocation": .string("\(id.rawValue)")])
        case .log(let record):
            var metadata: Logger.Metadata = [:]
            if let label = record.label { metadata["label"] = .string(label) }
            if let location = record.location { metadata["location"] = .string("\(location)") }
            write(levels.log, record.description, metadata)
        case .undelivered(let outgoing, let reason):
            var metadata: Logger.Metadata = [
                "event": .string("\(outgoing.event)"), "target": .string(outgoing.target), "reason": .string(reason),
            ]
            if let location = outgoing.location { metadata["location"] = .string("\(location)") }
            write(levels.undelivered, "could not send \(outgoing.event) to \(outgoing.target): \(reason)", metadata)
        case .failed(let error):
            write(
                levels.failure, "processing failed: \(Self.describe(error))", ["error": .string(Self.describe(error))])
        }
    }

    private func write(_ level: Logger.Level, _ message: String, _ extra: Logger.Metadata) {
        guard logger.logLevel <= level else { return }
        var metadata = extra
        metadata["machine"] = .string(machine)
        if metadata["configuration"] == nil, let configuration = lastConfiguration.withLock({ $0 }) {
            metadata["configuration"] = .array(configuration.map { .string($0) })
        }
        logger.log(level: level, "\(message)", metadata: metadata)
    }

    private static func describe<State>(_ transition: TakenTransition<State>) -> String {
        let source = transition.source.map { "\($0)" } ?? "(initial)"
        let targets = transition.targets.map { "\($0)" }.joined(separator: ", ")
        return transition.targets.isEmpty ? "\(source) (targetless)" : "\(source) → \(targets)"
    }

    private static func describe<State, Event: StatechartEvent>(_ error: MachineError<State, Event>) -> String {
        error.description
    }
}
#endif
