#if Store
import Foundation
import Statecharts
import StatechartsStore

/// The chart of the activity tests: a payment whose `charging` state invokes the activity
/// `charge`, which the fleet registers, and whose `auditing` state invokes work of the chart's own.
enum PaymentState: String, Hashable, Codable, Sendable { case waiting, charging, paid, declined, failed, auditing }

enum PaymentEvent: StatechartEvent, Codable, Hashable, Sendable {
    case pay(Int)
    case charged(Int)
    case declined(String)
    case cancel
    case audit
    case audited
    case progress(Int)

    enum Kind: String, CaseIterable, Hashable, Sendable {
        case pay, charged, declined, cancel, audit, audited, progress
    }
    var kind: Kind {
        switch self {
        case .pay: .pay
        case .charged: .charged
        case .declined: .declined
        case .cancel: .cancel
        case .audit: .audit
        case .audited: .audited
        case .progress: .progress
        }
    }
}

struct Payment: Codable, Sendable, Equatable {
    /// The amount to charge.
    var amount = 0
    /// The amounts charged, in order.
    var charged: [Int] = []
    /// Why charges failed, in order.
    var failures: [String] = []
    /// What the charge reported on the way, in order.
    var progress: [Int] = []
}

typealias Payments = DurableMachines<PaymentState, PaymentEvent, Payment>

func paymentChart() throws -> Statechart<PaymentState, PaymentEvent, Payment> {
    try Statechart("payment", initial: .waiting) {
        StateNode(.waiting) {
            On(.pay, to: .charging) { scope in
                if case .pay(let amount) = scope.event { scope.context.amount = amount }
            }
            On(.audit, to: .auditing)
        }
        StateNode(.charging) {
            Invoke("charge")
            On(.charged, to: .paid) { scope in
                if case .charged(let amount) = scope.event { scope.context.charged.append(amount) }
            }
            On(.declined, to: .declined) { scope in
                if case .declined(let reason) = scope.event { scope.context.failures.append(reason) }
            }
            On(.cancel, to: .waiting)
            On(.progress) { scope in
                if case .progress(let step) = scope.event { scope.context.progress.append(step) }
            }
            On(named: "error.execution", to: .failed) { scope in
                scope.context.failures.append(scope.failure?.reason ?? "")
            }
        }
        StateNode(.auditing) {
            Invoke("audit") { _ in .audited }
            On(.audited, to: .waiting)
        }
        StateNode(.paid) { On(.pay, to: .charging) }
        StateNode(.declined)
        StateNode(.failed)
    }
}

/// A fleet of payments on `store` and `clock`, running `activities`.
func payments(
    _ store: any MachineStore, _ clock: @escaping @Sendable () -> Int64, retry: RetryPolicy = RetryPolicy(),
    leaseMargin: Duration = .seconds(5), activityCheckInterval: Duration = .seconds(1),
    activities: [String: DurableActivity<PaymentState, PaymentEvent, Payment>]
) throws -> Payments {
    try Payments(
        chart: paymentChart(), store: store,
        options: DurableOptions(
            compaction: .never, retryByKind: [.activity: retry], leaseMargin: leaseMargin,
            activityCheckInterval: activityCheckInterval),
        clock: clock, activities: activities
    ) { _ in Payment() }
}

/// What the activity was given: each attempt's key and number.
typealias ActivityAttempts = Locked<[(key: String, attempt: Int)]>

/// The activity `charge` that records each attempt in `attempts` and charges the amount.
func recordingCharge(_ attempts: ActivityAttempts) -> DurableActivity<PaymentState, PaymentEvent, Payment> {
    DurableActivity { request in
        attempts.withLock { $0.append((request.key.description, request.attempt)) }
        return .charged(request.context.amount)
    }
}

struct ChargeRefused: Error, CustomStringConvertible {
    var description: String { "the bank refused the charge" }
}
#endif
