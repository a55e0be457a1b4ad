/// The facts the checks, the completeness table and the tools share, computed once from a chart's
/// tables: which states can be entered, which transitions each state has, which event names the
/// chart knows and which of them each state handles.
///
/// Everything here is a function of the chart alone: guards are assumed to be able to pass, and
/// history states to restore only states entered before. Reachability is therefore an
/// over-approximation: a state reported unreachable is truly unreachable; one reported reachable
/// may still need a guard to pass.
struct ChartAnalysis<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let storage: ChartStorage<State, Event, Context>
    var layout: ChartLayout { storage.layout }
    /// The transitions of each state (not the structural ones: initial transitions and history
    /// defaults), in document order.
    let transitionsBySource: [[Int]]
    /// Whether each state can be entered.
    let reachable: [Bool]
    /// The names of the events a user can send that the chart mentions, in the order of the
    /// event type's kinds and then of first mention.
    let eventNames: [String]

    /// The facts of `storage`'s chart; without `reachability`, every state counts as reachable
    /// (for questions about events only, which need not pay for the fixed point).
    init(_ storage: ChartStorage<State, Event, Context>, reachability: Bool = true) {
        self.storage = storage
        let layout = storage.layout
        var bySource = Array(repeating: [Int](), count: layout.stateCount)
        for transition in 0..<layout.transitionCount where !layout.transitionFlags[transition].contains(.structural) {
            bySource[Int(layout.sources[transition])].append(transition)
        }
        transitionsBySource = bySource
        reachable =
            reachability
            ? Self.reachableStates(layout: layout, transitionsBySource: bySource)
            : Array(repeating: true, count: layout.stateCount)
        eventNames = Self.eventNames(storage)
    }

    // MARK: - Reachability

    /// Every state that some sequence of transitions enters, starting from the initial
    /// configuration: a fixed point over the entry sets of the transitions of entered states.
    static func reachableStates(layout: ChartLayout, transitionsBySource: [[Int]]) -> [Bool] {
        var reached = Array(repeating: false, count: layout.stateCount)
        guard layout.stateCount > 0 else { return reached }
        reached[0] = true
        var pending: [Int] = [0]
        func enter(_ transition: Int, domain: Int) {
            guard domain >= 0 else { return }
            var set = EntrySet(capacity: layout.stateCount)
            layout.addEntrySet(of: transition, domain: domain, history: [], into: &set)
            set.states.forEachAscending { state in
                if !reached[state] {
                    reached[state] = true
                    pending.append(state)
                }
            }
        }
        let initial = Int(layout.initialTransitions[0])
        if initial >= 0 { enter(initial, domain: 0) }
        while let state = pending.popLast() {
            for transition in transitionsBySource[state] {
                enter(transition, domain: layout.transitionDomain(of: transition, history: []))
            }
        }
        return reached
    }

    // MARK: - Events

    static func eventNames(_ storage: ChartStorage<State, Event, Context>) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        func add(_ name: String) {
            guard !name.isEmpty, !isEngineEvent(name), seen.insert(name).inserted else { return }
            names.append(name)
        }
        for (index, kind) in storage.userKinds.enumerated() where kind != nil {
            add(storage.layout.kindNames[index])
        }
        for trigger in storage.triggers {
            guard case .events(let patterns) = trigger else { continue }
            for case .descriptor(let descriptor) in patterns where !descriptor.isWildcard { add(descriptor.pattern) }
        }
        return names
    }

    /// Whether `name` is an event the engine raises (`done.state.*`, `done.invoke.*`, `error.*`)
    /// rather than one a user sends.
    static func isEngineEvent(_ name: String) -> Bool {
        EventDescriptor("done").matches(name) || EventDescriptor("error").matches(name)
    }

    /// Whether a transition's trigger accepts the event named `name`.
    func accepts(_ transition: Int, name: String) -> Bool {
        guard case .events(let patterns) = storage.triggers[transition] else { return false }
        return patterns.contains { pattern in
            switch pattern {
            case .kind(let kind): Event.name(of: kind) == name
            case .descriptor(let descriptor): descriptor.matches(name)
            }
        }
    }

    /// Whether `state` or one of its ancestors has a transition on `name` (guarded or not).
    func handles(_ state: Int, name: String) -> Bool {
        var current = state
        while current >= 0 {
            if transitionsBySource[current].contains(where: { accepts($0, name: name) }) { return true }
            current = Int(layout.parents[current])
        }
        return false
    }

    // MARK: - Structure

    /// Whether a state is a real state (not the root, not a history pseudo-state).
    func isState(_ state: Int) -> Bool { state > 0 && !layout.kinds[state].isHistory }

    /// The domain of a transition, with history states at their defaults: -1 for a targetless one.
    func domain(of transition: Int) -> Int { layout.transitionDomain(of: transition, history: []) }

    /// Whether taking `transition` exits `state`.
    func exits(_ transition: Int, _ state: Int) -> Bool {
        let domain = domain(of: transition)
        return domain >= 0 && domain != state && layout.isDescendant(state, of: domain)
    }

    /// Whether `first` and `second` can be active together without one containing the other:
    /// their nearest common ancestor is a parallel state.
    func areOrthogonal(_ first: Int, _ second: Int) -> Bool {
        guard first != second, !layout.isDescendant(first, of: second), !layout.isDescendant(second, of: first) else {
            return false
        }
        var ancestor = Int(layout.parents[first])
        while ancestor > 0, !layout.isDescendant(second, of: ancestor) { ancestor = Int(layout.parents[ancestor]) }
        return layout.kinds[ancestor] == .parallel
    }

    /// Whether `state` can complete (raise `done.state`): a compound state through a reachable final
    /// child, a parallel state when every region can.
    func canComplete(_ state: Int, depth: Int = 0) -> Bool {
        guard depth < 10_000 else { return false }
        let children = layout.childRange(of: state).map { Int(layout.children[$0]) }.filter { isState($0) }
        switch layout.kinds[state] {
        case .compound:
            return children.contains { layout.kinds[$0] == .final && reachable[$0] }
        case .parallel:
            return children.allSatisfy { canComplete($0, depth: depth + 1) }
        default:
            return false
        }
    }

    // MARK: - Naming

    func name(of state: Int) -> String { state == 0 ? storage.name : storage.stateNames[state] }

    func value(of state: Int) -> State? { storage.states[state] }

    func location(ofState state: Int) -> SourcePosition? { storage.stateLocations[state] }

    func location(ofTransition transition: Int) -> SourcePosition? {
        storage.transitionLocations[transition] ?? storage.stateLocations[Int(layout.sources[transition])]
    }

    /// How a transition is written in a message: `on 'play'`, `eventless`, `after 5s`, `on done`.
    func triggerDescription(of transition: Int) -> String {
        switch storage.triggers[transition] {
        case .events(let patterns):
            let names = patterns.map { pattern -> String in
                switch pattern {
                case .kind(let kind): "'\(Event.name(of: kind))'"
                case .descriptor(let descriptor): "'\(descriptor.pattern)'"
                }
            }
            return "on " + names.joined(separator: ", ")
        case .eventless: return "eventless"
        case .after(let delay): return "after \(delay.compactDescription)"
        case .done: return "on done"
        }
    }
}

extension Duration {
    /// `250ms`, `5s`, `2m`, `1.5s`: the shortest exact form of a delay, for messages and pictures.
    var compactDescription: String {
        let nanoseconds = clampedNanoseconds
        let units: [(Int64, String)] = [
            (3_600_000_000_000, "h"), (60_000_000_000, "m"), (1_000_000_000, "s"),
            (1_000_000, "ms"), (1_000, "us"),
        ]
        for (size, unit) in units where nanoseconds >= size && nanoseconds % size == 0 {
            return "\(nanoseconds / size)\(unit)"
        }
        if nanoseconds >= 1_000_000 && nanoseconds % 1_000 == 0 {
            let milliseconds = Double(nanoseconds) / 1_000_000
            return "\(milliseconds)ms"
        }
        return "\(nanoseconds)ns"
    }
}
