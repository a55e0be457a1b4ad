import Foundation
import Statecharts
import StatechartsSCXML

/// A machine of a chart driven step by step on a virtual clock, for `run` and `repl`.
struct ChartSession {
    let source: ChartSource
    var machine: StateMachine<String, SCXMLEvent, SCXMLSession>
    /// What `<log>` elements wrote during the last step.
    let logs = LogBuffer()
    var recorder = MachineRecorder<String, SCXMLEvent>()
    /// The event names the chart knows.
    let eventNames: [String]

    /// What a step did.
    struct Outcome: Encodable {
        /// The step as written.
        var step: String
        /// Whether a transition handled the event; `nil` for a wait or the start.
        var handled: Bool?
        /// The active atomic states after it.
        var active: [String]
        /// Every active state after it.
        var configuration: [String]
        /// The machine's time after it, in seconds.
        var time: Double
        /// `running` or `finished`.
        var status: String
        /// The microsteps taken.
        var microsteps: [String]
        /// What `<log>` elements wrote.
        var logs: [String]
    }

    init(source: ChartSource) {
        self.source = source
        let logs = logs
        machine = source.chart.makeMachine(sessionID: "statechart", log: { record in logs.append("\(record)") })
        eventNames = source.chart.statechart.eventNames
    }

    /// Starts the machine.
    mutating func start() throws -> Outcome {
        do {
            try machine.start(observer: &recorder)
        } catch {
            throw CommandError("\(error)")
        }
        return outcome("start", handled: nil)
    }

    /// Takes one step.
    ///
    /// - Throws: ``CommandError`` for an event the chart does not know, or a step that loops.
    mutating func take(_ step: Step) throws -> Outcome {
        do {
            switch step {
            case .event(let name):
                guard isKnown(name) else {
                    throw CommandError(
                        "the chart has no event '\(name)'; its events are \(eventNames.joined(separator: ", "))")
                }
                let handled = try machine.send(SCXMLEvent(name), observer: &recorder)
                return outcome(step.label, handled: handled)
            case .wait(let duration, _):
                try machine.advance(by: duration, observer: &recorder)
                return outcome(step.label, handled: nil)
            }
        } catch let error as MachineError<String, SCXMLEvent> {
            throw CommandError("\(error)")
        }
    }

    /// Whether the chart has a transition that could take an event named `name`.
    func isKnown(_ name: String) -> Bool {
        eventNames.contains(name)
            || source.chart.statechart.allTransitions.contains { transition in
                guard case .events(let patterns) = transition.trigger else { return false }
                return patterns.contains { pattern in
                    if case .descriptor(let descriptor) = pattern { return descriptor.matches(name) }
                    return false
                }
            }
    }

    /// The events some transition of the active states (or their ancestors) takes now.
    var eventsHandledNow: [String] { machine.handledEventNames }

    private mutating func outcome(_ step: String, handled: Bool?) -> Outcome {
        defer { recorder = MachineRecorder() }
        return Outcome(
            step: step, handled: handled, active: machine.activeStates, configuration: machine.configuration,
            time: Double(machine.now.components.seconds) + Double(machine.now.components.attoseconds) / 1e18,
            status: machine.status.rawValue, microsteps: recorder.microsteps.map { "\($0)" }, logs: logs.take())
    }
}

/// Collects `<log>` output between steps.
final class LogBuffer: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    func take() -> [String] {
        lock.withLock {
            defer { lines.removeAll() }
            return lines
        }
    }
}
