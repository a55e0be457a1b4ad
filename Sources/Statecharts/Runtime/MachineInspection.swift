/// One thing a live machine did, for the synchronous inspection hook of ``StatechartActor`` and
/// ``IsolatedStatechart``: logging (for example with swift-log) and tests.
public enum MachineInspection<State: Hashable, Event: StatechartEvent> where Event.Kind: Hashable {
    /// An event is about to be processed.
    case willProcess(ProcessedEvent<Event>)
    /// A microstep was taken: the transitions, the states exited and entered.
    case didTake(Microstep<State>)
    /// No transition handled an event: the machine dropped it (or refused it).
    case unhandled(ProcessedEvent<Event>)
    /// An action, guard or data closure threw; the machine raised `error.execution`.
    case actionFailed(ActionFailure<State>)
    /// An invocation started.
    case invocationStarted(InvocationID, name: String?, state: State?)
    /// An invocation was cancelled because its state was exited (or the machine was released).
    case invocationCancelled(InvocationID)
    /// An action wrote a message (``Scope/log(_:label:file:line:column:)``, SCXML's `<log>`).
    case log(MachineLog)
    /// An event the machine sent out (``Scope/send(_:to:type:after:id:file:line:column:)``) could not
    /// be delivered; the machine gets `error.communication`.
    case undelivered(OutgoingEvent<Event>, reason: String)
    /// Processing that nobody awaited (a timer, an invocation's result) failed.
    case failed(MachineError<State, Event>)
}

extension MachineInspection: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable {}
