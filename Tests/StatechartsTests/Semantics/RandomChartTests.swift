import Statecharts
import Testing

/// Random charts, valid and invalid: building never traps, and running a valid one always leaves a
/// legal configuration.
@Suite struct RandomChartTests {
    static let events: [NamedEvent] = ["a", "b", "c", "d"]
    static let condition: StatechartGuard<String, NamedEvent, Log> = { $0.context.counter % 3 != 0 }

    /// The shape of a random chart, before transitions are added.
    struct Node {
        var id: String
        var kind: StateKind
        var children: [Node] = []
    }

    /// A random forest of states, numbered as they are made.
    func randomNodes(_ random: inout SplitMix, budget: inout Int, depth: Int) -> [Node] {
        var nodes: [Node] = []
        for _ in 0..<Int.random(in: (depth == 0 ? 1 : 0)...3, using: &random) where budget > 0 {
            budget -= 1
            var node = Node(id: "s\(budget)", kind: .state)
            switch Int.random(in: 0..<10, using: &random) {
            case 0: node.kind = .final
            case 1: node.kind = .history
            case 2, 3: node.kind = .parallel
            default: node.kind = .state
            }
            if node.kind == .state || node.kind == .parallel, depth < 5 {
                node.children = randomNodes(&random, budget: &budget, depth: depth + 1)
            }
            nodes.append(node)
        }
        return nodes
    }

    /// The chart's elements, with random transitions whose targets are mostly states of the chart.
    func elements(_ nodes: [Node], names: [String], random: inout SplitMix) -> [TestElement] {
        nodes.map { node in
            switch node.kind {
            case .final:
                return .state(node.id, kind: .final)
            case .history:
                let defaults = Int.random(in: 0..<4, using: &random) == 0 ? randomTargets(&random, names) : []
                return .history(node.id, type: Bool.random(using: &random) ? .deep : .shallow, defaultTargets: defaults)
            case .state, .parallel:
                let children = elements(node.children, names: names, random: &random)
                let initial =
                    node.kind == .state && Int.random(in: 0..<10, using: &random) == 0
                    ? randomTargets(&random, names) : []
                return .state(
                    node.id, kind: node.kind, initial: initial, elements: children + randomTransitions(&random, names))
            }
        }
    }

    func randomTargets(_ random: inout SplitMix, _ names: [String]) -> [String] {
        let count = [0, 1, 1, 1, 1, 1, 1, 2].randomElement(using: &random) ?? 1
        return (0..<count).map { _ in
            Int.random(in: 0..<60, using: &random) == 0 ? "missing" : names.randomElement(using: &random) ?? "none"
        }
    }

    func randomTransitions(_ random: inout SplitMix, _ names: [String]) -> [TestElement] {
        (0..<Int.random(in: 0...3, using: &random)).map { _ in
            let trigger: TransitionTrigger<String>
            switch Int.random(in: 0..<12, using: &random) {
            case 0, 1: trigger = .eventless
            case 2, 3:
                trigger = .after(
                    .seconds(Int.random(in: (Int.random(in: 0..<20, using: &random) == 0 ? -1 : 0)...3, using: &random))
                )
            case 4: trigger = .done
            default:
                trigger = .events([.descriptor(EventDescriptor(Self.events.randomElement(using: &random)?.kind ?? "a"))]
                )
            }
            let guarded = Bool.random(using: &random)
            return .transition(
                trigger, targets: randomTargets(&random, names),
                type: Bool.random(using: &random) ? .internal : .external,
                guard: guarded ? Self.condition : nil,
                action: { scope in
                    scope.context.counter += 1
                    if scope.context.counter % 7 == 0 { scope.raise("b") }
                })
        }
    }

    /// Whether the machine's configuration is legal: the top has exactly one active state, every
    /// active compound state exactly one active child, every active parallel state all its
    /// children, and every active state's parent is active.
    func isLegal(_ machine: TestMachine, _ chart: TestChart) -> Bool {
        let active = Set(machine.configuration)
        func activeChildren(_ state: String?) -> [String] {
            chart.children(of: state).filter { chart.kind(of: $0) != .history && active.contains($0) }
        }
        if activeChildren(nil).count != 1 { return false }
        for state in active {
            if let parent = chart.parent(of: state), !active.contains(parent) { return false }
            let children = chart.children(of: state).filter { chart.kind(of: $0) != .history }
            if children.isEmpty { continue }
            let on = activeChildren(state).count
            if chart.kind(of: state) == .parallel ? on != children.count : on != 1 { return false }
        }
        return true
    }

    @Test(
        "random charts either build or report problems, and their machines keep legal configurations", arguments: 0..<4)
    func randomCharts(batch: Int) throws {
        var built = 0
        for seed in UInt64(batch * 1000)..<UInt64(batch * 1000 + 1000) {
            var random = SplitMix(seed: seed)
            var budget = 14
            let nodes = randomNodes(&random, budget: &budget, depth: 0)
            let names = (budget..<14).map { "s\($0)" }
            let elements = elements(nodes, names: names, random: &random)
            let chart: TestChart
            do {
                chart = try TestChart(name: "random\(seed)", elements: elements, microstepLimit: 200)
            } catch {
                #expect(!error.problems.isEmpty)
                continue
            }
            built += 1
            var machine = chart.makeMachine(context: Log())
            do { try machine.start() } catch { if case .microstepLimitExceeded = error {} else { throw error } }
            #expect(isLegal(machine, chart), "seed \(seed) after start: \(machine.configuration)")
            for _ in 0..<12 where machine.status == .running {
                do {
                    if Bool.random(using: &random) {
                        try machine.send(Self.events.randomElement(using: &random) ?? "a")
                    } else {
                        try machine.advance(by: .seconds(Int.random(in: 0...2, using: &random)))
                    }
                } catch {
                    guard case .microstepLimitExceeded = error else { throw error }
                }
                #expect(isLegal(machine, chart), "seed \(seed): \(machine.configuration)")
            }
        }
        #expect(built > 120, "the generator should produce valid charts too (built \(built))")
    }
}
