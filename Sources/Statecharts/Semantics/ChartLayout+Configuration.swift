/// Legal configurations: what SCXML requires of the set of active states.
extension ChartLayout {
    /// Why `configuration` is not a configuration a running machine of this chart can be in, or
    /// `nil` when it is one.
    ///
    /// A legal configuration has exactly one active top-level state, exactly one active child
    /// (history states aside) of each active compound state, every child of each active parallel
    /// state, the parent of every active state, and no history state.
    func configurationProblem(_ configuration: StateSet, names: [String]) -> String? {
        var problem: String?
        configuration.forEachAscending { state in
            guard problem == nil else { return }
            guard state > 0, state < stateCount else {
                problem = "it names a state outside the chart"
                return
            }
            if kinds[state].isHistory {
                problem = "the history state '\(names[state])' is active"
                return
            }
            let parent = Int(parents[state])
            if parent > 0 && !configuration.contains(parent) {
                problem = "'\(names[state])' is active but its parent '\(names[parent])' is not"
            }
        }
        if let problem { return problem }
        // Counted without allocating: the checked invariants call this after every microstep.
        for state in 0..<stateCount where state == 0 || configuration.contains(state) {
            let kind = kinds[state]
            guard kind == .root || kind == .compound || kind == .parallel else { continue }
            var activeCount = 0
            var missing: Int?
            for index in childRange(of: state) {
                let child = Int(children[index])
                if kinds[child].isHistory { continue }
                if configuration.contains(child) {
                    activeCount += 1
                } else if missing == nil {
                    missing = child
                }
            }
            if kind == .parallel {
                if let missing {
                    return "the parallel state '\(names[state])' is active without its region '\(names[missing])'"
                }
            } else if activeCount != 1 {
                let name = state == 0 ? "the chart" : "'\(names[state])'"
                let activeChildren = childRange(of: state).map { Int(children[$0]) }.filter {
                    !kinds[$0].isHistory && configuration.contains($0)
                }
                return activeChildren.isEmpty
                    ? "\(name) has no active child"
                    : "\(name) has \(activeChildren.count) active children: "
                        + activeChildren.map { "'\(names[$0])'" }.joined(separator: ", ")
            }
        }
        return nil
    }
}
