import Statecharts

/// What a set of paths must cover.
public enum PathCoverage: String, Sendable, Hashable, CaseIterable {
    /// The shortest path to every reachable configuration of active states (in a chart with
    /// parallel regions, every combination of their states: ask for it knowingly).
    case states
    /// Paths that together take every transition reached, each the shortest that takes one of
    /// them.
    case transitions
}

/// Searches a chart's machines breadth first for paths: the shortest to each configuration, and a
/// set that takes every transition reached.
///
/// The search runs real machines: from each state it reaches it sends every event of
/// ``events``, and lets time pass to the next pending timer, so a path's guards are evaluated on
/// the context its own steps made; a transition whose guard no path made hold is reported as
/// unresolved, not guessed at. Each step is replayed on a new machine from the start, so a data
/// model whose copies share state (ECMAScript's) is never confused between paths.
///
/// Two states of the search are the same when their configuration, their pending timers (by
/// name and time left) and the ``key`` of their context are: with ``PathCoverage/transitions`` the
/// search stops as soon as every transition of the chart has been taken, so parallel regions do
/// not make it explore the product of their configurations.
public struct PathExplorer<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    /// Makes a machine that has not started.
    public var makeMachine: () -> StateMachine<State, Event, Context>
    /// The events tried from each state, in order.
    public var events: [Event]
    /// What of the context tells two states apart; `nil` ignores the context.
    public var key: ((Context) -> AnyHashable)?
    /// Whether an event the machine sends out goes to its own external queue (processed there).
    public var isOwnQueue: (OutgoingEvent<Event>) -> Bool = { _ in false }
    /// Runs each call on a machine (its start, an event, a wait) with the events it queues itself:
    /// by default the call alone. A document's search runs each as one cascade of its limits.
    public var runsEachCall: (_ call: () throws -> Void) throws -> Void = { try $0() }
    /// The most steps in a path.
    public var maximumDepth = 16
    /// The most distinct states the search visits.
    public var maximumStates = 20_000
    /// The most time the search may take on the continuous clock; `nil` for no bound. A search
    /// cut short by it returns the paths found so far, marked ``PathSearch/isTruncated``.
    public var timeLimit: Duration?

    /// An explorer of the machines `makeMachine` makes, trying `events`.
    public init(
        events: [Event], key: ((Context) -> AnyHashable)? = nil,
        makeMachine: @escaping () -> StateMachine<State, Event, Context>
    ) {
        self.events = events
        self.key = key
        self.makeMachine = makeMachine
    }

    /// Searches for paths that cover `coverage`.
    ///
    /// - Throws: What the machine's start throws: a chart that cannot start has no paths.
    public func paths(covering coverage: PathCoverage) throws -> PathSearch<State, Event> {
        var host = makeHost()
        var recorder = MachineRecorder<State, Event>()
        try runsEachCall { try host.start(observer: &recorder) }
        let machine = host.machine
        let chart = machine.statechart
        let transitions = chart.allTransitions
        let known = Set(transitions.map(\.id))

        let start = Node(
            steps: [], transitions: taken(recorder, known: known), configuration: machine.configuration, order: 0)
        var found = 1
        var frontier = [start]
        var seen: Set<AnyHashable> = [identity(of: machine)]
        var pathToConfiguration: [Set<State>: Node] = [Set(machine.configuration): start]
        var configurationOrder: [Set<State>] = [Set(machine.configuration)]
        var pathToTransition: [Int: Node] = [:]
        for transition in start.transitions where pathToTransition[transition.id] == nil {
            pathToTransition[transition.id] = start
        }
        var isTruncated = false
        let clock = ContinuousClock()
        let deadline = timeLimit.map { clock.now.advanced(by: $0) }

        search: while !frontier.isEmpty {
            var next: [Node] = []
            for node in frontier {
                if coverage == .transitions && pathToTransition.count == known.count { break search }
                guard node.steps.count < maximumDepth else {
                    isTruncated = true
                    continue
                }
                guard let base = replay(node.steps, until: deadline)?.machine else { continue }
                var moves = events.map { PathStep<Event>.send($0) }
                if let deadline = base.nextDeadline { moves.append(.wait(max(.zero, deadline - base.now))) }
                for move in moves {
                    if let deadline, clock.now >= deadline {
                        isTruncated = true
                        break search
                    }
                    // A new machine per move, not a copy of `base`: copies of a data model that
                    // keeps its values in an object (ECMAScript's) would share them.
                    guard var host = replay(node.steps, until: deadline) else { continue }
                    var recorder = MachineRecorder<State, Event>()
                    guard apply(move, to: &host, recorder: &recorder) else { continue }
                    let machine = host.machine
                    let child = Node(
                        steps: node.steps + [move], transitions: node.transitions + taken(recorder, known: known),
                        configuration: machine.configuration, order: found)
                    found += 1
                    for transition in child.transitions where pathToTransition[transition.id] == nil {
                        pathToTransition[transition.id] = child
                    }
                    guard seen.insert(identity(of: machine)).inserted else { continue }
                    let configuration = Set(machine.configuration)
                    if pathToConfiguration[configuration] == nil {
                        pathToConfiguration[configuration] = child
                        configurationOrder.append(configuration)
                    }
                    guard seen.count < maximumStates else {
                        isTruncated = true
                        break search
                    }
                    next.append(child)
                }
            }
            frontier = next
        }

        let chosen: [Node]
        switch coverage {
        case .states: chosen = configurationOrder.compactMap { pathToConfiguration[$0] }
        case .transitions: chosen = Self.cover(pathToTransition)
        }
        let paths = chosen.map {
            ChartPath(steps: $0.steps, configuration: $0.configuration, transitions: $0.transitions)
        }
        let unreached = transitions.filter { pathToTransition[$0.id] == nil }.map { transition in
            UnreachedTransition(
                source: transition.source, events: transition.eventNames, location: transition.location,
                id: transition.id, reason: transition.hasGuard ? .unresolvedGuard : .notReached)
        }
        return PathSearch(paths: paths, unreached: unreached, isTruncated: isTruncated)
    }

    // MARK: - Searching

    /// A state of the search, as the steps that reach it.
    struct Node {
        var steps: [PathStep<Event>]
        var transitions: [PathTransition<State>]
        /// The active atomic states the steps end in.
        var configuration: [State]
        /// When the search found it, among all nodes: what orders paths of the same length, so
        /// that the same chart gives the same paths in the same order every time.
        var order: Int
    }

    /// Few paths that take every transition of `shortest`: the longest first, each adding the
    /// transitions it takes, and a path only when it takes one not taken yet; of paths as long,
    /// the one found first.
    static func cover(_ shortest: [Int: Node]) -> [Node] {
        let candidates = shortest.values.sorted {
            ($0.steps.count, $0.transitions.count, -$0.order) > ($1.steps.count, $1.transitions.count, -$1.order)
        }
        var covered: Set<Int> = []
        var chosen: [Node] = []
        for node in candidates {
            let ids = Set(node.transitions.map(\.id))
            guard !ids.isSubset(of: covered) else { continue }
            covered.formUnion(ids)
            chosen.append(node)
        }
        return chosen.sorted {
            ($0.steps.count, $0.transitions.count, $0.order) < ($1.steps.count, $1.transitions.count, $1.order)
        }
    }

    /// The host of a search's machine: on a manual clock, with the search's router.
    typealias Host = MachineHost<PathRouter<State, Event, Context>, ManualClock>

    /// A new machine in a host whose router processes the events the machine sends its own
    /// queue and drops its other effects.
    func makeHost() -> Host {
        MachineHost(machine: makeMachine(), router: PathRouter<State, Event, Context>(isOwnQueue: isOwnQueue))
    }

    /// The machine after `steps` from a new start, in its host; `nil` when a step throws or
    /// `deadline` passed.
    func replay(_ steps: [PathStep<Event>], until deadline: ContinuousClock.Instant? = nil) -> Host? {
        var host = makeHost()
        var recorder = MachineRecorder<State, Event>()
        do {
            try runsEachCall { try host.start(observer: &recorder) }
        } catch {
            return nil
        }
        for step in steps {
            if let deadline, ContinuousClock.now >= deadline { return nil }
            guard apply(step, to: &host, recorder: &recorder) else { return nil }
        }
        return host
    }

    /// Takes `step` in `host`, which processes the events the machine sends its own queue and
    /// drops its other effects; `false` when the machine threw or is no longer running.
    func apply(
        _ step: PathStep<Event>, to host: inout Host,
        recorder: inout MachineRecorder<State, Event>
    ) -> Bool {
        guard host.machine.status == .running else { return false }
        do {
            try runsEachCall {
                switch step {
                case .send(let event): _ = try host.send(event, observer: &recorder)
                case .wait(let duration): try host.advance(by: duration, observer: &recorder)
                }
            }
        } catch {
            return false
        }
        return true
    }

    /// What tells two states of the search apart.
    func identity(of machine: StateMachine<State, Event, Context>) -> AnyHashable {
        let timers = machine.pendingTimers.map { TimerKey(name: $0.name, left: $0.deadline - machine.now) }
        return AnyHashable(
            StateKey(
                configuration: machine.configuration, status: "\(machine.status)", timers: timers,
                context: key.map { $0(machine.context) }))
    }

    struct TimerKey: Hashable {
        var name: String
        var left: Duration
    }

    struct StateKey: Hashable {
        var configuration: [State]
        var status: String
        var timers: [TimerKey]
        var context: AnyHashable?
    }

    /// The transitions of the chart in `recorder`'s microsteps, with the events that took them.
    func taken(_ recorder: MachineRecorder<State, Event>, known: Set<Int>) -> [PathTransition<State>] {
        recorder.microsteps.flatMap { microstep in
            microstep.transitions.filter { known.contains($0.id) }.map {
                PathTransition(source: $0.source, event: microstep.event, targets: $0.targets, id: $0.id)
            }
        }
    }
}

/// The path search's router: the machine's undelayed sends to its own external queue go back to
/// it; every other effect is dropped, as nothing outside the machine takes part in a search.
struct PathRouter<State: Hashable, Event: StatechartEvent, Context>: EffectRouter where Event.Kind: Hashable {
    /// Whether an event the machine sends out goes to its own external queue.
    let isOwnQueue: (OutgoingEvent<Event>) -> Bool

    mutating func send(_ outgoing: OutgoingEvent<Event>) -> SendRouting {
        outgoing.delay == .zero && isOwnQueue(outgoing) ? .ownQueue : .delivered
    }
}
