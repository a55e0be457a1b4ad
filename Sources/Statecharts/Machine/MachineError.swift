/// Why a machine refused an event or could not finish a step.
///
/// Errors thrown by your actions and guards are not reported this way: as SCXML specifies, the
/// machine raises the event `error.execution` (which a transition may handle) and goes on.
///
/// Its type parameters carry no requirement, so that it can be named anywhere, also as the type of
/// an error a test expects in a module whose default isolation is the main actor. It is `Sendable`
/// without the compiler's check: it holds the machine's states and an event, values of the chart's
/// own types.
public enum MachineError<State, Event>: Error, @unchecked Sendable {
    /// No transition handled the event, and the machine's ``StateMachine/unhandledEvents`` policy
    /// is ``UnhandledEventPolicy/reject``. The machine is as it was before the event.
    case unhandledEvent(Event, configuration: [State])
    /// The machine has not been started.
    case notStarted
    /// ``StateMachine/start()`` was called on a machine that already started.
    case alreadyStarted
    /// The machine reached a top-level final state and takes no more events.
    case finished(configuration: [State])
    /// A step took more microsteps than the machine's ``StateMachine/microstepLimit``: usually
    /// eventless transitions or raised events that loop forever. The machine stopped the step
    /// after a complete microstep, dropped the events queued during it, and takes new events.
    case microstepLimitExceeded(limit: Int, configuration: [State])
    /// The run went past one of the limits its runtime keeps a document within (script time,
    /// memory, invocation depth, ...). The run has ended: the runtime takes no more events.
    /// (Boxed: the error stays as small as the others, which every call of a machine returns.)
    indirect case limitExceeded(LimitViolation)

    static func list(_ states: [State]) -> String {
        "[" + states.map { "\($0)" }.joined(separator: ", ") + "]"
    }
}

extension MachineError: CustomStringConvertible where Event: StatechartEvent {
    /// A plain sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unhandledEvent(let event, let configuration):
            return "no transition handles the event '\(event.name)' in the configuration \(Self.list(configuration))"
        case .notStarted:
            return "the machine has not been started; call start() first"
        case .alreadyStarted:
            return "the machine has already been started"
        case .finished(let configuration):
            return "the machine has finished (in \(Self.list(configuration))) and takes no more events"
        case .microstepLimitExceeded(let limit, let configuration):
            return
                "the step was stopped after \(limit) microsteps in the configuration \(Self.list(configuration)); eventless transitions or raised events probably loop"
        case .limitExceeded(let violation):
            return "the run was ended: \(violation)"
        }
    }
}

/// What a machine does with an event that no transition handles.
public enum UnhandledEventPolicy: String, Hashable, Sendable, Codable {
    /// Drop the event, as SCXML does.
    case ignore
    /// Throw ``MachineError/unhandledEvent(_:configuration:)``, like the `default:` of a
    /// hand-written `switch` that rejects an invalid transition.
    case reject
}

/// Whether a machine has started, is running or has finished.
public enum MachineStatus: String, Hashable, Sendable, Codable {
    /// Created, not yet started.
    case notStarted
    /// Started and taking events.
    case running
    /// Reached a top-level final state.
    case finished
}
