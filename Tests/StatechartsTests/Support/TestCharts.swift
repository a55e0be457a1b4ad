import Statecharts

/// An event identified by its SCXML name, as events read from documents are.
struct NamedEvent: StatechartEvent, Codable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    let kind: String
    var payload: Int = 0

    init(_ name: String, payload: Int = 0) {
        kind = name
        self.payload = payload
    }

    init(stringLiteral value: String) { kind = value }

    var description: String { kind }
}

/// A context that records what actions did, in order.
struct Log: Sendable, Equatable, Codable {
    var entries: [String] = []
    var counter = 0

    mutating func append(_ entry: String) { entries.append(entry) }
}

typealias TestChart = Statechart<String, NamedEvent, Log>
typealias TestMachine = StateMachine<String, NamedEvent, Log>
typealias TestElement = ChartElement<String, NamedEvent, Log>

/// Entry and exit actions that log `enter ID` and `exit ID`.
func logged(_ id: String) -> [TestElement] {
    [.onEntry { $0.context.append("enter \(id)") }, .onExit { $0.context.append("exit \(id)") }]
}

/// A started machine of `chart`, with its log cleared.
func started(_ chart: TestChart, unhandled: UnhandledEventPolicy = .ignore) throws -> TestMachine {
    var machine = chart.makeMachine(context: Log(), unhandledEvents: unhandled)
    try machine.start()
    return machine
}

/// What the actions logged while `body` ran.
func logged(_ machine: inout TestMachine, _ body: (inout TestMachine) throws -> Void) rethrows -> [String] {
    let before = machine.context.entries.count
    try body(&machine)
    return Array(machine.context.entries[before...])
}
