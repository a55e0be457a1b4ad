#if Store
import Statecharts
import StatechartsStore

/// The machines of the crash tests and the benchmark: each records the events it received and the
/// delayed events that fired, so that a check can compare them with what was acknowledged.
enum FleetState: String, Hashable, Codable, Sendable { case fleet, idle, armed }

/// What the workers send: a ping, or an arm that asks for a delayed `fired` event.
enum FleetEvent: StatechartEvent, Codable, Hashable, Sendable {
    case ping(Int)
    case arm(Int, milliseconds: Int)
    case fired(Int)

    enum Kind: String, CaseIterable, Hashable, Sendable { case ping, arm, fired }
    var kind: Kind {
        switch self {
        case .ping: .ping
        case .arm: .arm
        case .fired: .fired
        }
    }
}

/// What a machine remembers.
struct FleetRecord: Codable, Sendable, Equatable {
    /// The numbers of the events it received, in order.
    var received: [Int] = []
    /// The numbers of the arms whose delayed event fired, in order.
    var fired: [Int] = []
    /// How many times the armed state timed out.
    var timeouts = 0
}

typealias Fleet = DurableMachines<FleetState, FleetEvent, FleetRecord>

/// Records the event and, for an arm, sends the delayed `fired` event to itself.
func receive(_ scope: inout Scope<FleetState, FleetEvent, FleetRecord>) {
    switch scope.event {
    case .ping(let number)?:
        scope.context.received.append(number)
    case .arm(let number, let milliseconds)?:
        scope.context.received.append(number)
        scope.send(.fired(number), after: .milliseconds(milliseconds))
    default:
        break
    }
}

func fleetChart() throws -> Statechart<FleetState, FleetEvent, FleetRecord> {
    try Statechart("fleet", initial: .fleet) {
        StateNode(.fleet, initial: .idle) {
            StateNode(.idle) {
                On(.arm, to: .armed, action: receive)
            }
            StateNode(.armed) {
                On(.arm, action: receive)
                After(.milliseconds(700), to: .idle) { scope in scope.context.timeouts += 1 }
            }
            On(.ping, action: receive)
            On(.fired) { scope in
                if case .fired(let number)? = scope.event { scope.context.fired.append(number) }
            }
        }
    }
}
#endif
