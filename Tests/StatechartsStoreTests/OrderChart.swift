#if Store
import Foundation
import Statecharts
import StatechartsStore

/// The chart of the store's tests: an order that takes payments, reminds itself with a delayed
/// event, and expires by a state timeout.
enum OrderState: String, Hashable, Codable, Sendable { case open, paid, expired }

enum OrderEvent: StatechartEvent, Codable, Hashable, Sendable {
    case add(Int)
    case pay
    case remind(Int)
    case reopen

    enum Kind: String, CaseIterable, Hashable, Sendable { case add, pay, remind, reopen }
    var kind: Kind {
        switch self {
        case .add: .add
        case .pay: .pay
        case .remind: .remind
        case .reopen: .reopen
        }
    }
}

struct Order: Codable, Sendable, Equatable {
    var id: String
    var items: [Int] = []
    var reminders: [Int] = []
    var expirations = 0
}

typealias Orders = DurableMachines<OrderState, OrderEvent, Order>

func orderChart() throws -> Statechart<OrderState, OrderEvent, Order> {
    try Statechart("order", initial: .open) {
        StateNode(.open) {
            On(.add) { scope in
                if case .add(let item) = scope.event {
                    scope.context.items.append(item)
                    // Every tenth item asks for a reminder two seconds later.
                    if item % 10 == 0 { scope.send(.remind(item), after: .seconds(2)) }
                }
            }
            On(.pay, to: .paid)
            After(.seconds(30), to: .expired) { scope in scope.context.expirations += 1 }
        }
        StateNode(.paid) {
            On(.reopen, to: .open)
        }
        StateNode(.expired) {
            On(.reopen, to: .open)
        }
        On(.remind) { scope in
            if case .remind(let item) = scope.event { scope.context.reminders.append(item) }
        }
    }
}

/// A clock the tests move by hand, in nanoseconds since 1970.
final class TestClock: Sendable {
    private let time = Locked<Int64>(1_800_000_000_000_000_000)
    var now: Int64 { time.withLock { $0 } }
    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        time.withLock { $0 += seconds * 1_000_000_000 + attoseconds / 1_000_000_000 }
    }
    var read: @Sendable () -> Int64 { { self.now } }
}
#endif
