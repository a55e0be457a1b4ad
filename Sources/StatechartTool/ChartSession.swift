#if Tools
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// A document run step by step on a virtual clock, for `run` and `repl`: an ``SCXMLSession``, as
/// the library and `statechart test` run it, with the sessions it invokes.
struct ChartSession {
    let source: ChartSource
    var session: SCXMLSession
    /// The event names the chart knows.
    let eventNames: [String]
    /// The events the document sends itself after a delay (`SCXMLDocument.timerEventNames`):
    /// they come when time passes, and are listed apart from those a user sends.
    let timerNames: Set<String>
    /// How long to wait, in real time, for events on their way through event I/O processors.
    let eventWaitLimit: Duration

    /// What a step did: under `run --json`, one line of JSON.
    struct Outcome: Encodable {
        /// The step as written.
        var step: String
        /// The event sent, with its data; `nil` for a wait or the start.
        var event: SentEvent?
        /// Whether a transition handled the event; `nil` for a wait or the start.
        var handled: Bool?
        /// The transitions taken, in order, in every microstep of the step.
        var transitions: [Transition]
        /// The states exited, in order, in every microstep.
        var exited: [String]
        /// The states entered, in order, in every microstep.
        var entered: [String]
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
        /// The top session's microsteps, as `--trace` prints them.
        var microsteps: [String]
        /// What `<log>` elements wrote, in every session.
        var logs: [String]
        /// The `error.execution` and `error.communication` events the top session processed, as
        /// `file:line:column: error: error.execution from <element>: reason`.
        var errors: [String]

        /// An event a step sent.
        struct SentEvent: Encodable {
            /// Its name.
            var name: String
            /// Its data, as JSON; absent when it has none.
            var data: SCXMLValue?
        }

        /// A transition taken.
        struct Transition: Encodable {
            /// The event that selected it; absent for an eventless transition and the start.
            var event: String?
            /// The state it belongs to; absent for the chart's initial transition.
            var source: String?
            /// Its targets as written; empty for a targetless transition.
            var targets: [String]
        }

        enum CodingKeys: String, CodingKey {
            case step, event, handled, transitions, exited, entered, active, configuration, invoked, time, status
            case logs, errors
        }
    }

    /// How many instants (an event, or a moment at which timers fire) the session may take in all;
    /// past it, the run stops with an error.
    let maximumSteps: Int
    /// How many it has taken.
    private(set) var stepsTaken = 0

    init(
        source: ChartSource, eventProcessors: [any SCXMLEventProcessor] = [], eventWaitLimit: Duration = .seconds(5),
        limits: SCXMLLimits = .default, maximumSteps: Int = 100_000, guards: [String: SCXMLNamedGuard] = [:]
    ) {
        self.source = source
        self.eventWaitLimit = eventWaitLimit
        self.maximumSteps = maximumSteps
        options = .init(
            sessionID: "statechart", limits: limits, dataModels: source.dataModels, eventProcessors: eventProcessors,
            guards: guards, recordsMicrosteps: true)
        session = SCXMLSession(chart: source.chart, options: options)
        eventNames = source.chart.statechart.eventNames
        timerNames = source.chart.document.timerEventNames
    }

    /// The options the session runs with.
    let options: SCXMLSession.Options

    /// The session's whole state now, to go back to with ``restore(_:)``.
    ///
    /// - Throws: ``CommandError`` while events are on their way through an event I/O processor.
    func archive() throws -> SCXMLSessionArchive {
        do {
            return try session.archive()
        } catch {
            throw CommandError("the session cannot be saved now: \(error)")
        }
    }

    /// Puts the session back in the state `archive` recorded, with the sessions it had invoked.
    ///
    /// - Throws: ``CommandError`` when the archive cannot be restored.
    mutating func restore(_ archive: SCXMLSessionArchive) throws {
        do {
            session = try SCXMLSession(chart: source.chart, restoring: archive, options: options)
        } catch {
            throw CommandError("the session cannot be restored: \(error)")
        }
    }

    /// What the session is now, as the outcome of a step named `label` that did nothing else.
    func current(_ label: String) -> Outcome { outcome(label, SCXMLStep()) }

    /// Problems that the session found before it started, such as a `<send>` through an event
    /// I/O processor it was not given.
    var warnings: [SCXMLDiagnostic] { session.problems }

    /// For `--clock real`: the instant on the wall clock at which the session's time was zero. The
    /// session's time then follows the wall clock: a wait sleeps until each deadline, and an event
    /// is sent at the time it is sent, after what fell due before it.
    private(set) var wallClockOrigin: ContinuousClock.Instant?

    /// Makes the session's time follow the wall clock from now on.
    mutating func followWallClock() {
        wallClockOrigin = ContinuousClock.now - session.now
    }

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
            case .event(let name, let data):
                guard isKnown(name) else {
                    throw CommandError(
                        "the chart has no event '\(name)'; its events are \(eventNames.joined(separator: ", "))")
                }
                var result = SCXMLStep()
                if let wallClockOrigin {
                    // What fell due on the wall clock before the event, as a wait up to now.
                    result = try await moveTime(
                        to: max(session.now, ContinuousClock.now - wallClockOrigin), label: step.label,
                        progress: progress)
                }
                try countStep()
                let sent = try session.send(SCXMLEvent(name, data: data))
                result.merge(sent)
                result.handled = sent.handled
                result.merge(try await session.settle(upTo: eventWaitLimit))
                return outcome(step.label, result, event: .init(name: name, data: data))
            case .wait(let duration, _):
                let result = try await moveTime(to: session.now + duration, label: step.label, progress: progress)
                return outcome(step.label, result)
            }
        } catch let error as MachineError<String, SCXMLEvent> {
            throw CommandError("\(error)")
        }
    }

    /// Moves the session's time to `target`, from one deadline to the next, on the wall clock when
    /// the session follows it; hands what each instant did to `progress` as it happens.
    private mutating func moveTime(
        to target: Duration, label: String, progress: ((Outcome) -> Void)?
    ) async throws -> SCXMLStep {
        var result = SCXMLStep()
        while let deadline = session.nextDeadline, deadline <= target, session.status == .running {
            try await sleepUntil(deadline)
            try countStep()
            var slice = try session.advance(to: deadline)
            slice.merge(try await session.settle(upTo: eventWaitLimit))
            if let progress {
                if !slice.logs.isEmpty || !slice.microsteps.isEmpty || !slice.errors.isEmpty {
                    progress(outcome("\(label) (at \(session.now))", slice))
                }
            } else {
                // Kept for the step's outcome: bounded by maximumSteps.
                result.merge(slice)
            }
        }
        try await sleepUntil(target)
        result.merge(try session.advance(to: target))
        result.merge(try await session.settle(upTo: eventWaitLimit))
        return result
    }

    /// Sleeps until the session's time `time` on the wall clock, when the session follows it.
    private func sleepUntil(_ time: Duration) async throws {
        guard let wallClockOrigin else { return }
        try await Task.sleep(until: wallClockOrigin + time, clock: .continuous)
    }

    /// Counts one instant of the run, and throws past ``maximumSteps``.
    private mutating func countStep() throws(CommandError) {
        stepsTaken += 1
        guard stepsTaken > maximumSteps else { return }
        throw CommandError(
            "the run was stopped after \(maximumSteps) steps (events and instants at which timers fired; --max-steps raises it); the chart is at \(TerminalOutput.configuration(session.activeStates)) at \(session.now)"
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

    /// The events some transition of the active states (or their ancestors) takes now, besides
    /// the document's timers, which come as time passes (``pendingTimers``).
    var eventsHandledNow: [String] { session.machine.handledEventNames.filter { !timerNames.contains($0) } }

    /// The top session's pending timers, soonest first, as `timeout in 60s`: what waiting lets
    /// happen.
    var pendingTimers: [String] {
        session.machine.pendingTimers.map { timer in
            "\(timer.name) in \(PathStep<SCXMLEvent>.written(max(timer.deadline - session.now, .zero)))"
        }
    }

    func outcome(_ label: String, _ step: SCXMLStep, event: Outcome.SentEvent? = nil) -> Outcome {
        let now = session.now.components
        var invoked: [String: [String]] = [:]
        for id in session.childSessionIDs { invoked[id] = session.activeStates(ofSession: id) }
        let transitions = step.microsteps.flatMap { microstep in
            microstep.transitions.map {
                Outcome.Transition(event: microstep.event, source: $0.source, targets: $0.targets)
            }
        }
        return Outcome(
            step: label, event: event, handled: step.handled, transitions: transitions,
            exited: step.microsteps.flatMap(\.exited), entered: step.microsteps.flatMap(\.entered),
            active: session.activeStates, configuration: session.configuration,
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
#endif
