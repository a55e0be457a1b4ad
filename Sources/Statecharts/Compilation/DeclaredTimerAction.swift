/// What an entry or exit action written as data does with the machine's timers: a delayed event
/// sent to the machine itself (SCXML `<send event="…" delay="…" id="…"/>` in `<onentry>`), or the
/// cancelling of such events by identifier (`<cancel sendid="…"/>` in `<onexit>`).
///
/// Such an action is also kept as a closure, which the general microstep runs where the state's
/// other actions run. When every entry action of a state is a delayed send, and every exit action a
/// cancel, the quick step does them itself, as it arms and cancels the state's `After` timeouts:
/// the event goes into the same timer queue, with no scope built and no closure called.
@usableFromInline
enum DeclaredTimerAction<Event> {
    /// Sends `event` to the machine's external queue after `delay` nanoseconds (more than zero),
    /// cancellable by `id`. The chart finds the event's kind once, when it is compiled
    /// (``DeclaredSend``).
    case delayedSend(event: Event, delay: Int64, id: String?)
    /// Cancels the delayed events sent with identifier `id` (``Scope/cancel(id:)``).
    case cancel(id: String)
}

extension DeclaredTimerAction {
    /// Whether it is a delayed send.
    var isDelayedSend: Bool {
        if case .delayedSend = self { true } else { false }
    }

    /// Whether it is a cancel.
    var isCancel: Bool {
        if case .cancel = self { true } else { false }
    }
}

extension DeclaredTimerAction: Sendable where Event: Sendable {}
