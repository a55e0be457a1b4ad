/// The observer a live machine steps with when something watches it: forwards what it sees to
/// the inspection hook, and keeps the microsteps taken for the next snapshot while snapshots are
/// read.
@usableFromInline
struct LiveObserver<State: Hashable, Event: StatechartEvent, Context>: MachineObserver where Event.Kind: Hashable {
    @usableFromInline let attachments: LiveAttachments<State, Event, Context>

    @inlinable
    init(attachments: LiveAttachments<State, Event, Context>) { self.attachments = attachments }

    @inlinable
    mutating func machineWillProcess(_ event: ProcessedEvent<Event>) { attachments.inspect?(.willProcess(event)) }

    @inlinable
    mutating func machineDidTake(_ microstep: Microstep<State>) {
        attachments.inspect?(.didTake(microstep))
        if !attachments.streams.isEmpty { attachments.taken.append(microstep) }
    }

    @inlinable
    mutating func machineDidNotHandle(_ event: ProcessedEvent<Event>) { attachments.inspect?(.unhandled(event)) }

    @inlinable
    mutating func machineActionDidFail(_ failure: ActionFailure<State>) {
        attachments.inspect?(.actionFailed(failure))
    }
}
