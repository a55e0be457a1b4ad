/// A random statechart without a data model, decided entirely by a tape of numbers: the same tape
/// gives the same chart, a shorter tape or smaller numbers a smaller chart. Property tests shrink a
/// failing tape to a small counterexample; the differential runner writes charts as SCXML for other
/// interpreters.
///
/// Charts have nested, parallel and final states, shallow and deep history, eventless, internal and
/// guarded transitions (guards test `In(state)`), `done.state` transitions, events raised by
/// actions and delayed events that their state cancels on exit. They are valid by construction
/// except for what SCXML leaves to chance (a target list that a parallel state cannot hold, say):
/// building such a chart reports it, and runners skip it.
public struct RandomChart: Sendable, Hashable {
    /// The external events charts react to.
    public static let events = ["a", "b", "c", "d"]

    /// A state of the chart.
    public struct Node: Sendable, Hashable {
        /// What kind of state.
        public enum Kind: String, Sendable, Hashable {
            /// `<state>`.
            case state
            /// `<parallel>`.
            case parallel
            /// `<final>`.
            case final
            /// `<history type="shallow">`.
            case shallowHistory
            /// `<history type="deep">`.
            case deepHistory
        }

        /// Its identifier: `s0`, `s1`, ... in the order of generation.
        public var id: String
        /// Its kind.
        public var kind: Kind
        /// Its children, in document order.
        public var children: [Node] = []
        /// For a compound state, its initial states when not the first child (only in charts
        /// with faults, ``withFaults(tape:)``).
        public var initial: [String] = []
        /// Its transitions, in document order (for a history state, its default, without event).
        public var transitions: [Transition] = []
        /// An event its entry raises.
        public var raisesOnEntry: String?
        /// An event its entry sends with this delay in milliseconds, cancelled when it is exited.
        public var delayedOnEntry: (event: String, milliseconds: Int)? {
            get { delayedEvent.map { ($0, delayMilliseconds) } }
            set {
                delayedEvent = newValue?.event
                delayMilliseconds = newValue?.milliseconds ?? 0
            }
        }
        var delayedEvent: String?
        var delayMilliseconds = 0
    }

    /// A transition.
    public struct Transition: Sendable, Hashable {
        /// Its event; `nil` for an eventless transition.
        public var event: String?
        /// Its targets; empty for a targetless transition.
        public var targets: [String]
        /// Whether it is internal.
        public var isInternal = false
        /// The state its guard requires to be active (`In(...)`), if it has a guard.
        public var condition: String?
        /// An event its action raises.
        public var raises: String?
    }

    /// The top-level states.
    public var states: [Node]

    /// Every state's identifier, in document order.
    public var stateIDs: [String] {
        func ids(_ nodes: [Node]) -> [String] { nodes.flatMap { [$0.id] + ids($0.children) } }
        return ids(states)
    }

    /// The chart that `tape` decides.
    ///
    /// - Parameters:
    ///   - tape: The choices; read in order, and 0 once it runs out.
    ///   - maximumStates: The most states the chart has.
    ///   - maximumDepth: The deepest nesting.
    ///   - timers: Whether states may send delayed events (for interpreters that run on real time,
    ///     leave them out).
    ///   - conditions: Whether transitions may have guards (`In(...)`), and so be eventless (for
    ///     interpreters whose null data model has no `In()`, leave them out).
    public init(
        tape: [Int], maximumStates: Int = 16, maximumDepth: Int = 6, timers: Bool = true, conditions: Bool = true
    ) {
        var reader = TapeReader(values: tape)
        var count = 0
        func nodes(depth: Int, inParallel: Bool, atTop: Bool) -> [Node] {
            var result: [Node] = []
            let wanted = atTop ? 1 + reader.next(3) : reader.next(4)
            for _ in 0..<wanted where count < maximumStates {
                var node = Node(id: "s\(count)", kind: .state)
                count += 1
                switch reader.next(10) {
                case 1, 2: node.kind = .parallel
                case 3: node.kind = inParallel ? .state : .final
                case 4: node.kind = .shallowHistory
                case 5: node.kind = .deepHistory
                default: node.kind = .state
                }
                if atTop && (node.kind == .shallowHistory || node.kind == .deepHistory) { node.kind = .state }
                if (node.kind == .state || node.kind == .parallel) && depth + 1 < maximumDepth {
                    node.children = nodes(depth: depth + 1, inParallel: node.kind == .parallel, atTop: false)
                    // A state needs a child that is not a history state for its history to restore.
                    if !node.children.contains(where: { $0.kind != .shallowHistory && $0.kind != .deepHistory }) {
                        node.children.removeAll()
                    }
                }
                // Engines disagree on a parallel state without child states (atomic here, as
                // Appendix D's isAtomicState says; never atomic in Qt and Apache Commons SCXML):
                // generated charts leave the case out, and a test covers it.
                if node.kind == .parallel && node.children.isEmpty { node.kind = .state }
                if node.kind == .state || node.kind == .parallel {
                    if reader.next(8) == 1 { node.raisesOnEntry = Self.events[reader.next(Self.events.count)] }
                    if reader.next(5) == 1 && timers {
                        node.delayedOnEntry = (
                            Self.events[reader.next(Self.events.count)], [100, 300, 1000][reader.next(3)]
                        )
                    }
                }
                result.append(node)
            }
            // History states restore their parent's children: the first other child is the default.
            if let firstState = result.first(where: { $0.kind != .shallowHistory && $0.kind != .deepHistory }) {
                for index in result.indices
                where result[index].kind == .shallowHistory || result[index].kind == .deepHistory {
                    result[index].transitions = [Transition(event: nil, targets: [firstState.id])]
                }
            }
            return result
        }
        var tree = nodes(depth: 0, inParallel: false, atTop: true)
        let ids: [String] = {
            func collect(_ nodes: [Node]) -> [String] { nodes.flatMap { [$0.id] + collect($0.children) } }
            return collect(tree)
        }()
        func descendants(_ node: Node) -> Set<String> {
            Set(node.children.flatMap { [$0.id] + descendants($0) })
        }
        func addTransitions(_ nodes: inout [Node]) {
            for index in nodes.indices {
                addTransitions(&nodes[index].children)
                guard nodes[index].kind == .state || nodes[index].kind == .parallel else { continue }
                let source = nodes[index].id
                let below = descendants(nodes[index])
                let position = ids.firstIndex(of: source) ?? 0
                for _ in 0..<reader.next(4) {
                    var transition = Transition(event: nil, targets: [])
                    switch reader.next(12) {
                    case 1 where conditions:
                        // Eventless transitions lead forward in document order, out of their source,
                        // and only while the source is active, so that they cannot loop for ever.
                        let later = ids[(position + 1)...].filter { !below.contains($0) }
                        guard !later.isEmpty else { continue }
                        transition.targets = [later[reader.next(later.count)]]
                        transition.condition = source
                        nodes[index].transitions.append(transition)
                        continue
                    case 2 where !nodes[index].children.isEmpty:
                        transition.event = "done.state.\(source)"
                    default:
                        transition.event = Self.events[reader.next(Self.events.count)]
                    }
                    if reader.next(6) != 1, !ids.isEmpty { transition.targets = [ids[reader.next(ids.count)]] }
                    // Internal only where SCXML gives it a meaning: a compound source whose
                    // descendants are the targets (elsewhere it is external, which some
                    // interpreters reject instead).
                    transition.isInternal =
                        reader.next(4) == 1 && nodes[index].kind == .state && !transition.targets.isEmpty
                        && transition.targets.allSatisfy(below.contains)
                    if reader.next(3) == 1, !ids.isEmpty, conditions {
                        transition.condition = ids[reader.next(ids.count)]
                    }
                    if reader.next(8) == 1 { transition.raises = Self.events[reader.next(Self.events.count)] }
                    nodes[index].transitions.append(transition)
                }
            }
        }
        addTransitions(&tree)
        states = tree
    }

    /// A random run: `count` events, each with the milliseconds to wait before it (0 for most;
    /// always 0 without `waits`).
    public static func events(tape: [Int], count: Int, waits: Bool = true) -> [(name: String, after: Int)] {
        var reader = TapeReader(values: tape)
        return (0..<count).map { _ in
            let name = events[reader.next(events.count)]
            let after = [0, 0, 0, 150, 400, 1200][reader.next(6)]
            return (name, waits ? after : 0)
        }
    }

    /// The chart as an SCXML document with the null data model.
    public var scxml: String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="random""#
                + (Self.firstState(of: states).map { " initial=\"\($0)\"" } ?? "") + ">",
        ]
        func write(_ node: Node, indent: Int) {
            let pad = String(repeating: "  ", count: indent)
            switch node.kind {
            case .shallowHistory, .deepHistory:
                let type = node.kind == .deepHistory ? "deep" : "shallow"
                lines.append("\(pad)<history id=\"\(node.id)\" type=\"\(type)\">")
                for transition in node.transitions {
                    lines.append("\(pad)  <transition target=\"\(transition.targets.joined(separator: " "))\"/>")
                }
                lines.append("\(pad)</history>")
                return
            case .final:
                lines.append("\(pad)<final id=\"\(node.id)\"/>")
                return
            case .state, .parallel:
                break
            }
            let element = node.kind == .parallel ? "parallel" : "state"
            // The default initial state is the first child in document order (SCXML 3.3.2); it is
            // also written out, for interpreters that order `<parallel>` children after `<state>` ones.
            let initial =
                node.kind != .state
                ? ""
                : !node.initial.isEmpty
                    ? " initial=\"\(node.initial.joined(separator: " "))\""
                    : Self.firstState(of: node.children).map { " initial=\"\($0)\"" } ?? ""
            lines.append("\(pad)<\(element) id=\"\(node.id)\"\(initial)>")
            if node.raisesOnEntry != nil || node.delayedEvent != nil {
                lines.append("\(pad)  <onentry>")
                if let event = node.raisesOnEntry { lines.append("\(pad)    <raise event=\"\(event)\"/>") }
                if let event = node.delayedEvent {
                    lines.append(
                        "\(pad)    <send event=\"\(event)\" delay=\"\(node.delayMilliseconds)ms\" id=\"timer_\(node.id)\"/>"
                    )
                }
                lines.append("\(pad)  </onentry>")
            }
            if node.delayedEvent != nil {
                lines.append("\(pad)  <onexit><cancel sendid=\"timer_\(node.id)\"/></onexit>")
            }
            for child in node.children { write(child, indent: indent + 1) }
            for transition in node.transitions {
                var attributes = ""
                if let event = transition.event { attributes += " event=\"\(event)\"" }
                if let condition = transition.condition { attributes += " cond=\"In('\(condition)')\"" }
                if !transition.targets.isEmpty {
                    attributes += " target=\"\(transition.targets.joined(separator: " "))\""
                }
                if transition.isInternal { attributes += " type=\"internal\"" }
                if let raised = transition.raises {
                    lines.append("\(pad)  <transition\(attributes)><raise event=\"\(raised)\"/></transition>")
                } else {
                    lines.append("\(pad)  <transition\(attributes)/>")
                }
            }
            lines.append("\(pad)</\(element)>")
        }
        for node in states { write(node, indent: 1) }
        lines.append("</scxml>")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension RandomChart {
    /// The first child that is not a history state: the default initial state.
    static func firstState(of nodes: [Node]) -> String? {
        nodes.first { $0.kind != .shallowHistory && $0.kind != .deepHistory }?.id
    }
}

/// Reads choices from a tape: each a number below a bound, 0 once the tape runs out.
struct TapeReader {
    var values: [Int]
    var position = 0

    mutating func next(_ bound: Int) -> Int {
        guard bound > 1, position < values.count else {
            position += 1
            return 0
        }
        defer { position += 1 }
        return Int(values[position].magnitude % UInt(bound))
    }
}
