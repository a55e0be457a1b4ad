#if Store
import Foundation
import Statecharts
import StatechartsStore

/// The chart of the outbox tests: a shipment that tells a warehouse outside the fleet (an effect
/// to deliver), logs, tells the fleet's ledger machine at once (journaled in the same
/// transaction) and asks the ledger for a follow-up five seconds later, which it may cancel.
enum ShipmentState: String, Hashable, Codable, Sendable { case active }

enum ShipmentEvent: StatechartEvent, Codable, Hashable, Sendable {
    case ship(Int)
    case keep(Int)
    case shipped(Int)
    case followUp(Int)

    enum Kind: String, CaseIterable, Hashable, Sendable { case ship, keep, shipped, followUp }
    var kind: Kind {
        switch self {
        case .ship: .ship
        case .keep: .keep
        case .shipped: .shipped
        case .followUp: .followUp
        }
    }
}

struct ShipmentRecord: Codable, Sendable, Equatable {
    /// What the ledger was told, in order.
    var shipped: [Int] = []
    /// The follow-ups the ledger received.
    var followUps: [Int] = []
}

typealias Shipments = DurableMachines<ShipmentState, ShipmentEvent, ShipmentRecord>

func shipmentChart() throws -> Statechart<ShipmentState, ShipmentEvent, ShipmentRecord> {
    try Statechart("shipment", initial: .active) {
        StateNode(.active) {
            On(.ship) { scope in
                guard case .ship(let parcel) = scope.event else { return }
                scope.send(.shipped(parcel), to: "https://warehouse.example/parcels", type: "http")
                scope.log("parcel \(parcel) shipped")
                scope.send(.shipped(parcel), to: "ledger")
                scope.send(.followUp(parcel), to: "ledger", after: .seconds(5), id: "follow-up-\(parcel)")
            }
            On(.keep) { scope in
                if case .keep(let parcel) = scope.event { scope.cancel(id: "follow-up-\(parcel)") }
            }
            On(.shipped) { scope in
                if case .shipped(let parcel) = scope.event { scope.context.shipped.append(parcel) }
            }
            On(.followUp) { scope in
                if case .followUp(let parcel) = scope.event { scope.context.followUps.append(parcel) }
            }
        }
    }
}

/// A fleet of shipments on `store` and `clock`, delivering to `deliver`.
func shipments(
    _ store: any MachineStore, _ clock: TestClock, retry: RetryPolicy = RetryPolicy(),
    deliver: (@Sendable (EffectDelivery<ShipmentState, ShipmentEvent, ShipmentRecord>) async throws -> Void)?
) throws -> Shipments {
    try Shipments(
        chart: shipmentChart(), store: store, options: DurableOptions(compaction: .never, retry: retry),
        clock: clock.read, deliver: deliver
    ) { _ in ShipmentRecord() }
}

/// What a delivery handler was given: each attempt's key, number and effect.
typealias Attempts = Locked<
    [(key: String, attempt: Int, effect: DurableEffect<ShipmentState, ShipmentEvent, ShipmentRecord>)]
>

struct DeliveryRefused: Error, CustomStringConvertible {
    var description: String { "the warehouse refused it" }
}
#endif
