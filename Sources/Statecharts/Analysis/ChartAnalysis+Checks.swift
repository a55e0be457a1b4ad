/// The checks behind ``Statechart/diagnostics()``, on the facts of a ``ChartAnalysis``.
extension ChartAnalysis {
    typealias Diagnostic = ChartDiagnostic<State>

    func reachabilityDiagnostics() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for state in 1..<max(layout.stateCount, 1) where isState(state) && !reachable[state] {
            // Report the outermost unreachable state only: its descendants follow from it.
            let parent = Int(layout.parents[state])
            if parent > 0 && !reachable[parent] { continue }
            let isFinal = layout.kinds[state] == .final
            let message =
                isFinal
                ? "the final state '\(name(of: state))' can never be entered, so "
                    + (parent == 0
                        ? "the machine never finishes there" : "'\(name(of: parent))' never completes through it")
                : "the state '\(name(of: state))' can never be entered: no transition of a reachable state leads to it"
            found.append(
                Diagnostic(
                    .warning, isFinal ? .unreachableFinalState : .unreachableState, message, state: value(of: state),
                    location: location(ofState: state)))
        }
        return found
    }

    func trapDiagnostics() -> [Diagnostic] {
        let leaving = regionsLeavingTheirParallelState()
        var found: [Diagnostic] = []
        for state in 1..<max(layout.stateCount, 1)
        where layout.kinds[state] == .atomic && reachable[state] && !canLeave(state, leaving: leaving) {
            found.append(
                Diagnostic(
                    .warning, .trap,
                    "the state '\(name(of: state))' is a trap: once it is entered no transition leaves it, and it is not final",
                    state: value(of: state), location: location(ofState: state)))
        }
        return found
    }

    /// For each parallel state, its regions that hold a transition leaving it.
    func regionsLeavingTheirParallelState() -> [Int: Set<Int>] {
        var leaving: [Int: Set<Int>] = [:]
        for source in 1..<max(layout.stateCount, 1) where reachable[source] {
            for transition in transitionsBySource[source] {
                let domain = domain(of: transition)
                guard domain >= 0 else { continue }
                var region = source
                var ancestor = Int(layout.parents[source])
                while ancestor > 0 {
                    if layout.kinds[ancestor] == .parallel && !layout.isDescendant(domain, of: ancestor) {
                        leaving[ancestor, default: []].insert(region)
                    }
                    region = ancestor
                    ancestor = Int(layout.parents[ancestor])
                }
            }
        }
        return leaving
    }

    /// Whether some transition that can be enabled while `state` is active exits it: one of it or
    /// an ancestor, or one in another region of a parallel ancestor that leaves that parallel state.
    func canLeave(_ state: Int, leaving: [Int: Set<Int>]) -> Bool {
        var ancestor = state
        while ancestor > 0 {
            if transitionsBySource[ancestor].contains(where: { exits($0, state) }) { return true }
            ancestor = Int(layout.parents[ancestor])
        }
        var region = state
        var parallel = Int(layout.parents[state])
        while parallel > 0 {
            if layout.kinds[parallel] == .parallel, let regions = leaving[parallel],
                regions.contains(where: { $0 != region })
            {
                return true
            }
            region = parallel
            parallel = Int(layout.parents[parallel])
        }
        return false
    }

    // MARK: - Transitions of one state

    func transitionDiagnostics() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for state in 0..<layout.stateCount where reachable[state] {
            let transitions = transitionsBySource[state]
            for (position, later) in transitions.enumerated() where position > 0 {
                for earlier in transitions[..<position] where layout.guards[earlier] < 0 {
                    if let diagnostic = compare(earlier, later, in: state) {
                        found.append(diagnostic)
                        break
                    }
                }
            }
        }
        return found
    }

    /// What an earlier unguarded transition does to a later one of the same state.
    func compare(_ earlier: Int, _ later: Int, in state: Int) -> Diagnostic? {
        let laterGuarded = layout.guards[later] >= 0
        let here = "'\(name(of: state))'"
        let earlierAt = location(ofTransition: earlier).map { " (\($0.line):\($0.column))" } ?? ""
        switch (storage.triggers[earlier], storage.triggers[later]) {
        case (.events(let first), .events(let second)):
            let shared = second.filter { first.contains($0) }
            if !laterGuarded && !shared.isEmpty {
                let names = shared.map { "'\(patternName($0))'" }.joined(separator: ", ")
                return Diagnostic(
                    .warning, .conflictingTransitions,
                    "\(here) has two unguarded transitions on \(names); the first\(earlierAt) always wins and this one never fires",
                    state: value(of: state), location: location(ofTransition: later))
            }
            guard second.allSatisfy({ pattern in first.contains { covers($0, pattern) } }) else { return nil }
        case (.eventless, .eventless), (.done, .done):
            break
        case (.after(let first), .after(let second)):
            guard first <= second, exits(earlier, state) else { return nil }
        default:
            return nil
        }
        return Diagnostic(
            .warning, .shadowedTransition,
            "the transition \(triggerDescription(of: later)) of \(here) can never fire: the earlier unguarded transition \(triggerDescription(of: earlier))\(earlierAt) always wins",
            state: value(of: state), location: location(ofTransition: later))
    }

    /// Whether every event `pattern` accepts is accepted by `cover`.
    func covers(_ cover: EventPattern<Event.Kind>, _ pattern: EventPattern<Event.Kind>) -> Bool {
        if cover == pattern { return true }
        guard case .descriptor(let descriptor) = cover else { return false }
        switch pattern {
        case .kind(let kind): return descriptor.matches(Event.name(of: kind))
        case .descriptor(let other):
            return descriptor.isWildcard || (!other.isWildcard && descriptor.matches(other.pattern))
        }
    }

    func patternName(_ pattern: EventPattern<Event.Kind>) -> String {
        switch pattern {
        case .kind(let kind): Event.name(of: kind)
        case .descriptor(let descriptor): descriptor.pattern
        }
    }

    // MARK: - Parallel regions

    func regionDiagnostics() -> [Diagnostic] {
        var byEvent: [String: [Int]] = [:]
        var order: [String] = []
        for state in 0..<layout.stateCount where reachable[state] {
            for transition in transitionsBySource[state]
            where layout.guards[transition] < 0 && domain(of: transition) >= 0 {
                guard case .events(let patterns) = storage.triggers[transition] else { continue }
                for pattern in patterns {
                    let name = patternName(pattern)
                    if byEvent[name] == nil { order.append(name) }
                    if byEvent[name]?.last != transition { byEvent[name, default: []].append(transition) }
                }
            }
        }
        var found: [Diagnostic] = []
        var reported: Set<Int> = []
        for event in order {
            guard let transitions = byEvent[event], transitions.count > 1 else { continue }
            // Only transitions below a common parallel state can conflict: group them by each
            // parallel ancestor of their source.
            var groups: [Int: [Int]] = [:]
            for transition in transitions {
                var ancestor = Int(layout.parents[Int(layout.sources[transition])])
                while ancestor > 0 {
                    if layout.kinds[ancestor] == .parallel { groups[ancestor, default: []].append(transition) }
                    ancestor = Int(layout.parents[ancestor])
                }
            }
            for parallel in groups.keys.sorted() {
                guard let group = groups[parallel], group.count > 1 else { continue }
                found += conflicts(in: group, below: parallel, on: event, reported: &reported)
            }
        }
        return found
    }

    /// The conflicts among transitions on `event` below one parallel state, in document order.
    ///
    /// Transitions in different regions conflict only when one of them leaves the parallel state
    /// (otherwise each stays inside its own region), so each transition is compared with every
    /// earlier one only if it leaves, and otherwise with the earlier ones that leave.
    func conflicts(
        in transitions: [Int], below parallel: Int, on event: String, reported: inout Set<Int>
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var leavingSoFar: [Int] = []
        for (position, later) in transitions.enumerated() {
            let leaves = !layout.isDescendant(domain(of: later), of: parallel)
            defer { if leaves { leavingSoFar.append(later) } }
            guard !reported.contains(later) else { continue }
            let laterSource = Int(layout.sources[later])
            for earlier in leaves ? Array(transitions[..<position]) : leavingSoFar {
                let earlierSource = Int(layout.sources[earlier])
                guard areOrthogonal(earlierSource, laterSource) else { continue }
                let first = domain(of: earlier)
                let second = domain(of: later)
                guard
                    layout.isDescendant(first, of: second) || layout.isDescendant(second, of: first)
                        || first == second
                else { continue }
                reported.insert(later)
                let earlierAt = location(ofTransition: earlier).map { " (\($0.line):\($0.column))" } ?? ""
                found.append(
                    Diagnostic(
                        .warning, .conflictingRegions,
                        "on '\(event)', the transitions of '\(name(of: earlierSource))'\(earlierAt) and '\(name(of: laterSource))' both leave their parallel state; the first in document order is taken and this one never fires while '\(name(of: earlierSource))' is active",
                        state: value(of: laterSource), location: location(ofTransition: later)))
                break
            }
        }
        return found
    }

    // MARK: - Completion

    func completionDiagnostics() -> [Diagnostic] {
        // The transitions that wait for each state's completion: `OnDone` of the state, and any
        // transition naming its `done.state.ID` event.
        var waiting: [Int: [Int]] = [:]
        var byDoneName: [String: Int] = [:]
        for state in 1..<max(layout.stateCount, 1)
        where layout.kinds[state] == .compound || layout.kinds[state] == .parallel {
            byDoneName["done.state.\(name(of: state))"] = state
        }
        for source in 0..<layout.stateCount where reachable[source] {
            for transition in transitionsBySource[source] {
                switch storage.triggers[transition] {
                case .done:
                    waiting[source, default: []].append(transition)
                case .events(let patterns):
                    for case .descriptor(let descriptor) in patterns {
                        if let state = byDoneName[descriptor.pattern] { waiting[state, default: []].append(transition) }
                    }
                default:
                    break
                }
            }
        }
        var found: [Diagnostic] = []
        for state in waiting.keys.sorted() where reachable[state] && !canComplete(state) {
            let reason =
                layout.kinds[state] == .parallel
                ? "not every region of it can reach a final state"
                : layout.kinds[state] == .compound ? "none of its final children can be entered" : "it has no children"
            for transition in waiting[state] ?? [] {
                found.append(
                    Diagnostic(
                        .warning, .neverCompletes,
                        "'\(name(of: state))' can never complete, so this transition waiting for it never fires: \(reason)",
                        state: value(of: state), location: location(ofTransition: transition)))
            }
        }
        return found
    }
}
