import Statecharts

/// Something a step of a machine did besides changing its configuration and context: what
/// ``MachineTester`` makes a test assert.
///
/// Names are the events' names as an observer sees them (`play`, `done.state.player`), so that
/// the same effects read the same for a typed chart and for a document.
public enum StepEffect: Hashable, Sendable, CustomStringConvertible {
    /// A timer was armed (a state's `After` timeout, or an event the machine sent itself with a
    /// delay), due this long after it was armed.
    case armed(String, dueIn: Duration)
    /// A pending timer was cancelled before it fell due: its state exited, or `<cancel>` or
    /// `StateMachine/cancelDelayedEvents(id:)` removed it.
    case cancelledTimer(String)
    /// A timer fell due and its event was processed.
    case fired(String)
    /// An action raised this event on the internal queue.
    case raised(String)
    /// An action sent this event to the machine's own external queue, and it was processed.
    case queued(String)
    /// An event was sent out of the machine, to `target` (in the terms of its event I/O
    /// processor), after `delay`.
    case sent(String, to: String, after: Duration = .zero)
    /// The events sent out with this identifier and not delivered yet were cancelled.
    case cancelledSend(id: String)
    /// An invocation started: its identifier, and the state it belongs to.
    case invoked(InvocationID, state: String)
    /// An invocation was stopped because its state exited.
    case cancelledInvocation(InvocationID)
    /// A message was logged, as `label: message` or the message alone.
    case logged(String)
    /// An action or guard threw; the machine raised `error.execution`.
    case failed(String)

    /// The effect as a test would write it, such as `armed(tick, dueIn: 1.0 seconds)`.
    public var description: String {
        switch self {
        case .armed(let name, let delay): "armed(\(name), dueIn: \(delay))"
        case .cancelledTimer(let name): "cancelledTimer(\(name))"
        case .fired(let name): "fired(\(name))"
        case .raised(let name): "raised(\(name))"
        case .queued(let name): "queued(\(name))"
        case .sent(let name, let target, let delay):
            delay == .zero ? "sent(\(name), to: \(target))" : "sent(\(name), to: \(target), after: \(delay))"
        case .cancelledSend(let id): "cancelledSend(id: \(id))"
        case .invoked(let id, let state): "invoked(\(id.rawValue), state: \(state))"
        case .cancelledInvocation(let id): "cancelledInvocation(\(id.rawValue))"
        case .logged(let message): "logged(\(message))"
        case .failed(let reason): "failed(\(reason))"
        }
    }
}
