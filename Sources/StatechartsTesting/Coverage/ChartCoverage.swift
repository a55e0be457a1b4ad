import Statecharts
import StatechartsSCXML

/// How much of a chart a suite exercised: its states, transitions and delayed events, each
/// counted, with those never exercised listed.
public struct ChartCoverage: Sendable, Hashable, Codable {
    /// The chart, as the report names it (a file's path).
    public var chart: String
    /// The states: entered at least once, or never.
    public var states: Tally
    /// The transitions: taken at least once, or never.
    public var transitions: Tally
    /// The delayed events (a document's `<send>` with a delay; a typed chart's `After`): fired
    /// at least once, or never.
    public var delayedEvents: Tally

    /// Counts of one kind of element, and the ones never exercised.
    public struct Tally: Sendable, Hashable, Codable {
        /// How many were exercised.
        public var covered: Int
        /// How many the chart has.
        public var total: Int
        /// Those never exercised, each as `name (file:line:column)`.
        public var missed: [String]
    }

    /// The coverage of a document's chart by `record`.
    public init(_ chart: SCXMLChart, named name: String, record: CoverageRecord) {
        self.init(chart.statechart, named: name, record: record, delayed: Self.delayedSends(in: chart.document))
    }

    /// The coverage of a typed chart by `record`.
    public init<State, Event, Context>(
        _ statechart: Statechart<State, Event, Context>, named name: String, record: CoverageRecord
    ) {
        self.init(statechart, named: name, record: record, delayed: nil)
    }

    private init<State, Event, Context>(
        _ statechart: Statechart<State, Event, Context>, named name: String, record: CoverageRecord,
        delayed: [(name: String, location: SourcePosition)]?
    ) {
        chart = name
        func place(_ location: SourcePosition?) -> String {
            location.map { " (\(ConformanceRunner.shortLocation($0)))" } ?? ""
        }
        let allStates = statechart.states.filter { statechart.kind(of: $0) != .history }
        states = Tally(
            covered: allStates.count { record.enteredStates.contains("\($0)") }, total: allStates.count,
            missed: allStates.filter { !record.enteredStates.contains("\($0)") }.map {
                "\($0)\(place(statechart.location(of: $0)))"
            })
        let allTransitions = statechart.allTransitions
        func describe(_ transition: TransitionInfo<State, Event>) -> String {
            let source = transition.source.map { "\($0)" } ?? "(chart)"
            let trigger: String
            switch transition.trigger {
            case .events: trigger = "on \(transition.eventNames.joined(separator: " "))"
            case .after(let delay): trigger = "after \(delay)"
            case .done: trigger = "when done"
            default: trigger = "eventless"
            }
            let targets =
                transition.targets.isEmpty ? "" : " → \(transition.targets.map { "\($0)" }.joined(separator: " "))"
            return "\(source) \(trigger)\(targets)\(place(transition.location))"
        }
        transitions = Tally(
            covered: allTransitions.count { record.takenTransitions.contains($0.id) }, total: allTransitions.count,
            missed: allTransitions.filter { !record.takenTransitions.contains($0.id) }.map(describe))
        if let delayed {
            delayedEvents = Tally(
                covered: delayed.count { record.firedTimers.contains($0.name) }, total: delayed.count,
                missed: delayed.filter { !record.firedTimers.contains($0.name) }.map {
                    "\($0.name)\(place($0.location))"
                })
        } else {
            let timeouts = allTransitions.filter {
                if case .after = $0.trigger { return true }
                return false
            }
            delayedEvents = Tally(
                covered: timeouts.count { record.takenTransitions.contains($0.id) }, total: timeouts.count,
                missed: timeouts.filter { !record.takenTransitions.contains($0.id) }.map(describe))
        }
    }

    /// Every `<send>` of the document with a delay and an event name, in document order.
    static func delayedSends(in document: SCXMLDocument) -> [(name: String, location: SourcePosition)] {
        var result: [(name: String, location: SourcePosition)] = []
        func visit(_ actions: [SCXMLAction]) {
            for action in actions {
                switch action.kind {
                case .send(let send):
                    // Only a send to the session itself is one of its timers.
                    if send.delay != nil || send.delayExpression != nil, send.target == nil,
                        send.targetExpression == nil, let name = send.event
                    {
                        result.append((name, action.location))
                    }
                case .if(let branches):
                    for branch in branches { visit(branch.actions) }
                case .foreach(_, _, _, let actions):
                    visit(actions)
                default:
                    break
                }
            }
        }
        func visit(_ node: SCXMLNode) {
            for block in node.onEntry + node.onExit { visit(block.actions) }
            if let initial = node.initialTransition { visit(initial.actions) }
            for transition in node.transitions { visit(transition.actions) }
            node.children.forEach(visit)
        }
        for transition in document.transitions { visit(transition.actions) }
        document.states.forEach(visit)
        return result
    }

    /// Lines for a terminal: the counts, then what was never exercised.
    public var lines: [String] {
        func count(_ tally: Tally) -> String { "\(tally.covered)/\(tally.total)" }
        var lines = [
            "\(chart): states \(count(states)), transitions \(count(transitions)), delayed events \(count(delayedEvents))"
        ]
        lines += states.missed.map { "  never entered: \($0)" }
        lines += transitions.missed.map { "  never taken: \($0)" }
        lines += delayedEvents.missed.map { "  never fired: \($0)" }
        return lines
    }
}
