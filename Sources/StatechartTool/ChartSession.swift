import Foundation
import Statecharts
import StatechartsSCXML

/// A document run step by step on a virtual clock, for `run` and `repl`: an ``SCXMLSession``, as
/// the library and `statechart test` run it, with the sessions it invokes.
struct ChartSession {
    let source: ChartSource
    var session: SCXMLSession
    /// The event names the chart knows.
    let eventNames: [String]
    /// How long to wait, in real time, for events on their way through event I/O processors.
    let eventWaitLimit: Duration

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
        /// The active atomic states of each invoked session running after it, by session identifier.
        var invoked: [String: [String]]
        /// The session's time after it, in seconds.
        var time: Double
        /// `running` or `finished`.
        var status: String
        /// The top session's microsteps.
        var microsteps: [String]
        /// What `<log>` elements wrote, in every session.
        var logs: [String]
    }

    init(source: ChartSource, eventProcessors: [any SCXMLEventProcessor] = [], eventWaitLimit: Duration = .seconds(5)) {
        self.source = source
        self.eventWaitLimit = eventWaitLimit
        session = SCXMLSession(
            chart: source.chart,
            options: .init(
                sessionID: "statechart", dataModels: source.dataModels, eventProcessors: eventProcessors,
                recordsMicrosteps: true))
        eventNames = source.chart.statechart.eventNames
    }

    /// Problems that the session found before it started, such as a `<send>` through an event
    /// I/O processor it was not given.
    var warnings: [SCXMLDiagnostic] { session.problems }

    /// Starts the session.
    mutating func start() async throws -> Outcome {
        do {
            var step = try session.start()
            step.merge(try await session.settle(upTo: eventWaitLimit))
            return outcome("start", step)
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// Takes one step.
    ///
    /// - Throws: ``CommandError`` for an event the chart does not know, or a step that loops.
    mutating func take(_ step: Step) async throws -> Outcome {
        do {
            switch step {
            case .event(let name):
                guard isKnown(name) else {
                    throw CommandError(
                        "the chart has no event '\(name)'; its events are \(eventNames.joined(separator: ", "))")
                }
                var result = try session.send(SCXMLEvent(name))
                result.merge(try await session.settle(upTo: eventWaitLimit))
                return outcome(step.label, result)
            case .wait(let duration, _):
                var result = try session.advance(by: duration)
                result.merge(try await session.settle(upTo: eventWaitLimit))
                return outcome(step.label, result)
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
    var eventsHandledNow: [String] { session.machine.handledEventNames }

    private func outcome(_ label: String, _ step: SCXMLStep) -> Outcome {
        let now = session.now.components
        var invoked: [String: [String]] = [:]
        for id in session.childSessionIDs { invoked[id] = session.activeStates(ofSession: id) }
        return Outcome(
            step: label, handled: step.handled, active: session.activeStates, configuration: session.configuration,
            invoked: invoked, time: Double(now.seconds) + Double(now.attoseconds) / 1e18,
            status: session.status.rawValue, microsteps: step.microsteps.map { "\($0)" },
            logs: step.logs.map { record in
                record.sessionID == session.sessionID ? "\(record)" : "[\(record.sessionID)] \(record)"
            })
    }
}

extension SCXMLStep {
    /// Adds what a later call did.
    mutating func merge(_ other: SCXMLStep) {
        microsteps += other.microsteps
        logs += other.logs
    }
}
