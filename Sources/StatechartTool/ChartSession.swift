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
        /// The `error.execution` and `error.communication` events the top session processed, as
        /// `file:line:column: error: error.execution from <element>: reason`.
        var errors: [String]
    }

    /// How many instants (an event, or a moment at which timers fire) the session may take in all;
    /// past it, the run stops with an error.
    let maximumSteps: Int
    /// How many it has taken.
    private(set) var stepsTaken = 0

    init(
        source: ChartSource, eventProcessors: [any SCXMLEventProcessor] = [], eventWaitLimit: Duration = .seconds(5),
        limits: SCXMLLimits = .default, maximumSteps: Int = 100_000
    ) {
        self.source = source
        self.eventWaitLimit = eventWaitLimit
        self.maximumSteps = maximumSteps
        session = SCXMLSession(
            chart: source.chart,
            options: .init(
                sessionID: "statechart", limits: limits, dataModels: source.dataModels,
                eventProcessors: eventProcessors,
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

    /// Takes one step. A wait moves the clock from one deadline to the next, and hands what each
    /// instant did to `progress` as it happens, so that nothing accumulates however many timers fire.
    ///
    /// - Throws: ``CommandError`` for an event the chart does not know, a step that loops or goes
    ///   past a limit, or a run past ``maximumSteps``.
    mutating func take(_ step: Step, progress: ((Outcome) -> Void)? = nil) async throws -> Outcome {
        do {
            switch step {
            case .event(let name):
                guard isKnown(name) else {
                    throw CommandError(
                        "the chart has no event '\(name)'; its events are \(eventNames.joined(separator: ", "))")
                }
                try countStep()
                var result = try session.send(SCXMLEvent(name))
                result.merge(try await session.settle(upTo: eventWaitLimit))
                return outcome(step.label, result)
            case .wait(let duration, _):
                let target = session.now + duration
                var result = SCXMLStep()
                while let deadline = session.nextDeadline, deadline <= target, session.status == .running {
                    try countStep()
                    var slice = try session.advance(to: deadline)
                    slice.merge(try await session.settle(upTo: eventWaitLimit))
                    if let progress {
                        if !slice.logs.isEmpty || !slice.microsteps.isEmpty || !slice.errors.isEmpty {
                            progress(outcome("\(step.label) (at \(session.now))", slice))
                        }
                    } else {
                        // Kept for the step's outcome: bounded by maximumSteps.
                        result.merge(slice)
                    }
                }
                result.merge(try session.advance(to: target))
                result.merge(try await session.settle(upTo: eventWaitLimit))
                return outcome(step.label, result)
            }
        } catch let error as MachineError<String, SCXMLEvent> {
            throw CommandError("\(error)")
        }
    }

    /// Counts one instant of the run, and throws past ``maximumSteps``.
    private mutating func countStep() throws(CommandError) {
        stepsTaken += 1
        guard stepsTaken > maximumSteps else { return }
        throw CommandError(
            "the run was stopped after \(maximumSteps) steps (events and instants at which timers fired; --max-steps raises it); the chart is at [\(session.activeStates.joined(separator: ", "))] at \(session.now)"
        )
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

    func outcome(_ label: String, _ step: SCXMLStep) -> Outcome {
        let now = session.now.components
        var invoked: [String: [String]] = [:]
        for id in session.childSessionIDs { invoked[id] = session.activeStates(ofSession: id) }
        return Outcome(
            step: label, handled: step.handled, active: session.activeStates, configuration: session.configuration,
            invoked: invoked, time: Double(now.seconds) + Double(now.attoseconds) / 1e18,
            status: session.status.rawValue, microsteps: step.microsteps.map { "\($0)" },
            logs: logLines(step), errors: step.errors.map(\.description))
    }

    /// The `<log>` records of a step as lines, with the invoked session's identifier in front.
    func logLines(_ step: SCXMLStep) -> [String] {
        step.logs.map { record in
            record.sessionID == session.sessionID ? "\(record)" : "[\(record.sessionID)] \(record)"
        }
    }
}
