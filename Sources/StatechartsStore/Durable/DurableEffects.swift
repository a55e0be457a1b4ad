#if Store
import Statecharts

/// Where a durable machine's effects go: kept, in order, until the fleet takes those of each
/// journal entry's step and stages them for the step's transaction (``OutboxStaging``): outbox
/// rows, and events journaled into other machines' queues.
///
/// A send is taken as delivered: a durable machine's sends leave it (to other machines of the
/// fleet, or through the outbox); none comes back to the machine within the step.
@usableFromInline
struct DurableEffects<State: Hashable, Event: StatechartEvent, Context>: EffectRouter where Event.Kind: Hashable {
    /// What the steps asked for since the last ``take()``.
    private(set) var effects: [MachineEffect<State, Event, Context>] = []

    @usableFromInline
    mutating func startInvocation(_ start: InvocationStart<State, Event, Context>) {
        effects.append(.startInvocation(start))
    }

    @usableFromInline
    mutating func cancelInvocation(_ id: InvocationID) { effects.append(.cancelInvocation(id)) }

    @usableFromInline
    mutating func send(_ outgoing: OutgoingEvent<Event>) -> SendRouting {
        effects.append(.send(outgoing))
        return .delivered
    }

    @usableFromInline
    mutating func cancelSend(id: String) { effects.append(.cancelSend(id: id)) }

    @usableFromInline
    mutating func log(_ record: MachineLog) { effects.append(.log(record)) }

    /// The effects kept, which this forgets.
    mutating func take() -> [MachineEffect<State, Event, Context>] {
        defer { effects.removeAll() }
        return effects
    }
}
#endif
