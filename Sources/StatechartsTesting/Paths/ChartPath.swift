import Statecharts

/// One step of a ``ChartPath``: an event to send, or time to let pass.
public enum PathStep<Event> {
    /// Send this event.
    case send(Event)
    /// Let this much time pass, so that a timer falls due.
    case wait(Duration)
}

extension PathStep: Sendable where Event: Sendable {}

extension PathStep where Event: StatechartEvent {
    /// The step as `statechart run --events` takes it: the event's name, or `wait 5s`.
    public var written: String {
        switch self {
        case .send(let event): event.name
        case .wait(let duration): "wait \(PathStep.written(duration))"
        }
    }

    /// A duration as the tool reads it: whole seconds as `5s`, otherwise milliseconds, `1500ms`.
    public static func written(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds)s" }
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        if milliseconds == milliseconds.rounded() { return "\(Int64(milliseconds))ms" }
        return "\(milliseconds)ms"
    }
}

/// A transition taken on a path: where it belongs, the event that took it, where it went.
public struct PathTransition<State: Hashable>: Hashable {
    /// The state the transition belongs to.
    public var source: State?
    /// The event that selected it; `nil` for an eventless transition.
    public var event: String?
    /// Its targets, as written; empty for a targetless transition.
    public var targets: [State]
    /// Which transition of the chart it is (`TransitionInfo/id`).
    public var id: Int
}

extension PathTransition: Sendable where State: Sendable {}

/// A way through a chart from its start: the steps, the transitions they took, and the active
/// states they end in. Replaying the steps on a new machine ends in the same configuration.
public struct ChartPath<State: Hashable, Event> {
    /// The events and waits, in order, after the start.
    public var steps: [PathStep<Event>]
    /// Every state active at the end, parents before children (`StateMachine/configuration`).
    public var configuration: [State]
    /// The transitions taken, the start's included, in order.
    public var transitions: [PathTransition<State>]
}

extension ChartPath: Sendable where State: Sendable, Event: Sendable {}

extension ChartPath: CustomStringConvertible where Event: StatechartEvent {
    /// `play, wait 1s → [active, playback, playing]`; `(start)` for the empty path.
    public var description: String {
        let written = steps.isEmpty ? "(start)" : steps.map(\.written).joined(separator: ", ")
        return "\(written) → [" + configuration.map { "\($0)" }.joined(separator: ", ") + "]"
    }
}

/// A transition no path took, and why.
public struct UnreachedTransition<State: Hashable>: Hashable {
    /// The state the transition belongs to.
    public var source: State?
    /// The events that fire it, as written; empty for an eventless transition.
    public var events: [String]
    /// Where it is written.
    public var location: SourcePosition?
    /// Which transition of the chart it is (`TransitionInfo/id`).
    public var id: Int
    /// Why no path took it.
    public var reason: Reason

    /// Why a transition was not taken.
    public enum Reason: String, Hashable, Sendable {
        /// It has a guard, and no path found made it hold: the guard reads something no path
        /// fixes (an event's data, a value the search cannot reach), or it can never hold.
        case unresolvedGuard
        /// No path found reached its source with its event: it is unreachable, or deeper than
        /// the search went.
        case notReached
    }
}

extension UnreachedTransition: Sendable where State: Sendable {}

/// What a search for paths found: the paths asked for, and the transitions none took.
public struct PathSearch<State: Hashable, Event> {
    /// The paths: one per configuration, or a set that takes every transition reached.
    public var paths: [ChartPath<State, Event>]
    /// The transitions of the chart no path took.
    public var unreached: [UnreachedTransition<State>]
    /// Whether the search stopped at its depth or configuration bound before it had seen
    /// everything reachable.
    public var isTruncated: Bool
}

extension PathSearch: Sendable where State: Sendable, Event: Sendable {}
