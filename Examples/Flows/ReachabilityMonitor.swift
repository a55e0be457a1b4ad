import Statecharts

// MARK: - The reachability monitor

/// The states of a network reachability monitor.
public enum ReachabilityState: String, Hashable, Sendable, CaseIterable {
    /// The reported path holds.
    case settled
    /// Reported: Wi-Fi.
    case wifi
    /// Reported: cellular.
    case cellular
    /// Reported: no network.
    case offline
    /// The path changed; the change is reported if it holds for the debounce interval.
    case changing
}

/// A network path, as the system's path monitor reports it.
public enum NetworkPath: String, Hashable, Sendable, Codable {
    /// Wi-Fi (or wired).
    case wifi
    /// Cellular.
    case cellular
    /// No network.
    case none
}

/// What the monitor hears.
public enum ReachabilityEvent: StatechartEvent, Sendable, Equatable {
    /// The system reports a new path.
    case pathChanged(NetworkPath)

    /// The kinds of events.
    public enum Kind: String, CaseIterable, Sendable { case pathChanged }

    /// The event's kind.
    public var kind: Kind { .pathChanged }

    /// The path the event reports.
    nonisolated public var path: NetworkPath { if case .pathChanged(let path) = self { path } else { .none } }
}

/// The path reported to the app, and every report made.
public struct ReachabilityContext: Sendable, Equatable {
    /// The path last reported.
    public var reported: NetworkPath
    /// The path waiting out the debounce.
    public var candidate: NetworkPath?
    /// Every change reported, in order: what the app would be told.
    public var reports: [NetworkPath] = []

    /// A monitor that starts out reporting `path`.
    public init(reported path: NetworkPath) { reported = path }
}

/// A reachability monitor that reports path changes and rides out a flapping connection: a
/// change is reported only once it has held for `debounce`, and a path that flaps back before
/// then is never reported at all.
public func makeReachabilityChart(
    debounce: Duration = .seconds(2)
) throws -> Statechart<ReachabilityState, ReachabilityEvent, ReachabilityContext> {
    try Statechart<ReachabilityState, ReachabilityEvent, ReachabilityContext>("reachability", initial: .settled) {
        StateNode(.settled, initial: .offline) {
            // Entered through `offline`, which moves on to the path reported.
            StateNode(.wifi)
            StateNode(.cellular)
            StateNode(.offline) {
                Always(to: .wifi, guard: { $0.context.reported == .wifi })
                Always(to: .cellular, guard: { $0.context.reported == .cellular })
            }
            On(.pathChanged, to: .changing, guard: { $0.event?.path != $0.context.reported }) {
                $0.context.candidate = $0.event?.path
            }
        }
        StateNode(.changing) {
            // Another change restarts the wait (an external self-transition re-arms the timeout).
            On(.pathChanged, to: .changing, guard: { $0.event?.path != $0.context.reported }) {
                $0.context.candidate = $0.event?.path
            }
            // Flapped back before the debounce: nothing to report.
            On(.pathChanged, to: .settled) { $0.context.candidate = nil }
            After(debounce, to: .settled) { scope in
                guard let path = scope.context.candidate else { return }
                scope.context.reported = path
                scope.context.reports.append(path)
                scope.context.candidate = nil
            }
        }
    }
}
