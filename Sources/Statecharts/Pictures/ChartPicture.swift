/// What a picture of a chart shows, independent of the drawing language: the state tree, and each
/// transition as edges with a label, placed in the innermost state that contains its source and
/// targets (Mermaid can draw an edge only inside such a block).
struct ChartPicture<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let analysis: ChartAnalysis<State, Event, Context>
    var layout: ChartLayout { analysis.layout }

    /// One arrow: from a state to a state (the same one for a targetless transition).
    struct Edge {
        var source: Int
        var target: Int
        var label: String
    }

    /// The arrows drawn inside each state's block (the root's block is the whole picture).
    let edgesByBlock: [[Edge]]

    init(_ storage: ChartStorage<State, Event, Context>) {
        let analysis = ChartAnalysis(storage)
        self.analysis = analysis
        let layout = storage.layout
        var edges = Array(repeating: [Edge](), count: layout.stateCount)
        for source in 0..<layout.stateCount {
            for transition in analysis.transitionsBySource[source] {
                let label = Self.label(of: transition, analysis: analysis)
                let targets = layout.targetRange(of: transition).map { Int(layout.targets[$0]) }
                if targets.isEmpty {
                    let block = source == 0 ? 0 : Int(layout.parents[source])
                    edges[block].append(Edge(source: source, target: source, label: label + " (no target)"))
                }
                for target in targets {
                    let block = Self.block(containing: source, target, layout: layout)
                    edges[block].append(Edge(source: source, target: target, label: label))
                }
            }
        }
        edgesByBlock = edges
    }

    /// The innermost state that is a proper ancestor of both `first` and `second`.
    static func block(containing first: Int, _ second: Int, layout: ChartLayout) -> Int {
        var ancestor = first == 0 ? 0 : Int(layout.parents[first])
        while ancestor > 0 && !(layout.isDescendant(second, of: ancestor) && second != ancestor) {
            ancestor = Int(layout.parents[ancestor])
        }
        return ancestor
    }

    /// `play [guard]`, `after 5s`, `done`, `[guard]` for an eventless guarded transition, `always`
    /// for an unguarded eventless one.
    static func label(of transition: Int, analysis: ChartAnalysis<State, Event, Context>) -> String {
        var parts: [String] = []
        switch analysis.storage.triggers[transition] {
        case .events(let patterns): parts.append(patterns.map(analysis.patternName).joined(separator: " "))
        case .eventless: if analysis.layout.guards[transition] < 0 { parts.append("always") }
        case .after(let delay): parts.append("after \(delay.compactDescription)")
        case .done: parts.append("done")
        }
        if analysis.layout.guards[transition] >= 0 { parts.append("[guard]") }
        if analysis.layout.transitionFlags[transition].contains(.internal) { parts.append("(internal)") }
        return parts.joined(separator: " ")
    }

    /// The children of `state` in document order.
    func children(of state: Int) -> [Int] { layout.childRange(of: state).map { Int(layout.children[$0]) } }

    /// The initial targets of a compound state or the root.
    func initialTargets(of state: Int) -> [Int] {
        let transition = Int(layout.initialTransitions[state])
        guard transition >= 0 else { return [] }
        return layout.targetRange(of: transition).map { Int(layout.targets[$0]) }
    }

    /// The history state's default targets.
    func historyDefaults(of state: Int) -> [Int] {
        let transition = Int(layout.historyDefaults[state])
        guard transition >= 0 else { return [] }
        return layout.targetRange(of: transition).map { Int(layout.targets[$0]) }
    }

    /// Identifiers for the drawing language: the state's name with every character outside
    /// `[A-Za-z0-9_]` replaced by `_`, made unique with a numeric suffix.
    func identifiers(reserved: Set<String> = []) -> [String] {
        var used = reserved
        var result = Array(repeating: "", count: layout.stateCount)
        for state in 1..<max(layout.stateCount, 1) {
            var base = String(
                analysis.name(of: state).unicodeScalars.map { scalar -> Character in
                    ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                        || scalar == "_" ? Character(scalar) : "_"
                })
            if base.isEmpty || base.first?.isNumber == true { base = "s_" + base }
            var candidate = base
            var suffix = 2
            while used.contains(candidate) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(candidate)
            result[state] = candidate
        }
        return result
    }
}
