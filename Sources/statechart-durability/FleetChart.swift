#if Store
import Statecharts
import StatechartsStore

/// The machines of the crash tests and the benchmark: each records the events it received and the
/// delayed events that fired, so that a check can compare them with what was acknowledged. Each
/// ping asks for a receipt outside the fleet (an effect the outbox delivers); every fourth ping and
/// every arm also relay their number to one of the fleet's relay machines (`relay-0` to `relay-63`):
/// the pings at once, journaled with the step, the arms 100 ms later, through the outbox (in the
/// crash tests; the benchmark leaves relays out).
///
/// In the crash tests a second region books: a `reserve` enters `reserving`, whose invocation
/// `reserve` is an activity the fleet's workers run, and whose outcome (`reserved`) returns to
/// `open`; a `reserve` that arrives while another is in flight re-enters `reserving`, which cancels
/// the activity in flight.
enum FleetState: String, Hashable, Codable, Sendable {
    case fleet, timing, idle, armed, booking, open, reserving
}

/// What the workers send: a ping, or an arm that asks for a delayed `fired` event; what the
/// machines send: receipts outside the fleet, and relays to the relay machines.
enum FleetEvent: StatechartEvent, Codable, Hashable, Sendable {
    case ping(Int)
    case arm(Int, milliseconds: Int)
    case fired(Int)
    case receipt(Int)
    case relayed(Int)
    case reserve(Int)
    case reserved(Int)

    enum Kind: String, CaseIterable, Hashable, Sendable {
        case ping, arm, fired, receipt, relayed, reserve, reserved
    }
    var kind: Kind {
        switch self {
        case .ping: .ping
        case .arm: .arm
        case .fired: .fired
        case .receipt: .receipt
        case .relayed: .relayed
        case .reserve: .reserve
        case .reserved: .reserved
        }
    }
}

/// The relay machine that event `number` is relayed to.
func relayMachine(_ number: Int) -> String { "relay-\(number % 64)" }

/// Whether event `number` is relayed in the crash tests: every arm, and every fourth ping.
func isRelayed(_ event: FleetEvent) -> Bool {
    switch event {
    case .arm: true
    case .ping(let number): number % 4 == 0
    default: false
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
    /// The numbers relayed to this machine (a relay machine), in order.
    var relayed: [Int] = []
    /// The reservation in flight: the number of the last `reserve`.
    var reserving: Int?
    /// The numbers of the reservations started, in order.
    var reservations: [Int] = []
    /// The numbers whose activity's outcome (`reserved`) arrived, in order.
    var reserved: [Int] = []
    /// The numbers whose activity was cancelled by the next `reserve`, in order.
    var superseded: [Int] = []
}

typealias Fleet = DurableMachines<FleetState, FleetEvent, FleetRecord>

/// Records the event, asks for a ping's receipt and, for an arm, sends the delayed `fired` event
/// to itself; with `relays`, relays what ``isRelayed(_:)`` says.
func receiveEvent(_ scope: inout Scope<FleetState, FleetEvent, FleetRecord>, relays: Bool) {
    switch scope.event {
    case .ping(let number)?:
        scope.context.received.append(number)
        scope.send(.receipt(number), to: "receipts", type: "receipt")
        if relays && number % 4 == 0 { scope.send(.relayed(number), to: relayMachine(number)) }
    case .arm(let number, let milliseconds)?:
        scope.context.received.append(number)
        scope.send(.fired(number), after: .milliseconds(milliseconds))
        if relays { scope.send(.relayed(number), to: relayMachine(number), after: .milliseconds(100)) }
    default:
        break
    }
}

/// Starts a reservation: records the `reserve`, and the one in flight as superseded.
func startReservation(_ scope: inout Scope<FleetState, FleetEvent, FleetRecord>) {
    guard case .reserve(let number)? = scope.event else { return }
    if let current = scope.context.reserving { scope.context.superseded.append(current) }
    scope.context.received.append(number)
    scope.context.reserving = number
    scope.context.reservations.append(number)
}

/// The chart of the crash tests: the benchmark's, beside a region that books through an activity.
func crashTestChart() throws -> Statechart<FleetState, FleetEvent, FleetRecord> {
    let receive: @Sendable (inout Scope<FleetState, FleetEvent, FleetRecord>) -> Void = { scope in
        receiveEvent(&scope, relays: true)
    }
    return try Statechart("fleet", initial: .fleet) {
        Parallel(.fleet) {
            StateNode(.timing, initial: .idle) {
                StateNode(.idle) {
                    On(.arm, to: .armed, action: receive)
                }
                StateNode(.armed) {
                    On(.arm, action: receive)
                    After(.milliseconds(700), to: .idle) { scope in scope.context.timeouts += 1 }
                }
            }
            StateNode(.booking, initial: .open) {
                StateNode(.open) {
                    On(.reserve, to: .reserving, action: startReservation)
                }
                StateNode(.reserving) {
                    // The work is the fleet's activity of this name (makeFleet).
                    Invoke("reserve")
                    On(.reserve, to: .reserving, action: startReservation)
                    On(.reserved, to: .open) { scope in
                        guard case .reserved(let number)? = scope.event else { return }
                        scope.context.reserved.append(number)
                        scope.context.reserving = nil
                    }
                }
            }
            On(.ping, action: receive)
            On(.fired) { scope in
                if case .fired(let number)? = scope.event { scope.context.fired.append(number) }
            }
            On(.relayed) { scope in
                if case .relayed(let number)? = scope.event { scope.context.relayed.append(number) }
            }
        }
    }
}

/// The chart: with `relays` (the crash tests), events are also relayed to other machines of the
/// fleet; without (the benchmark), each machine's only work outside itself is its receipts.
func fleetChart(relays: Bool = true) throws -> Statechart<FleetState, FleetEvent, FleetRecord> {
    let receive: @Sendable (inout Scope<FleetState, FleetEvent, FleetRecord>) -> Void = { scope in
        receiveEvent(&scope, relays: relays)
    }
    return try Statechart("fleet", initial: .fleet) {
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
            On(.relayed) { scope in
                if case .relayed(let number)? = scope.event { scope.context.relayed.append(number) }
            }
        }
    }
}
#endif
