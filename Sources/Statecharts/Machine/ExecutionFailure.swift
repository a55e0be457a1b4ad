/// What went wrong, for the events `error.execution` and `error.communication`: the failing
/// element, where it is written, and why.
///
/// The machine makes one whenever an action, guard, data closure or invocation throws (the event
/// `error.execution`), and a runtime makes one when it cannot deliver an event a machine sent out
/// (`error.communication`). A transition reads it through ``Scope/failure``; observers and data
/// models through ``ProcessedEvent/failure``. SCXML sessions give the same facts to documents as
/// `_event.data`: `tagname`, `line`, `column` and `reason`.
///
/// ```swift
/// On(named: "error.execution", to: .recovering) { scope in
///     if let failure = scope.failure {
///         scope.context.problem = "\(failure.element.rawValue), line \(failure.location?.line ?? 0): \(failure.reason)"
///     }
/// }
/// ```
public struct ExecutionFailure: Error, Sendable, CustomStringConvertible {
    /// The kind of element that failed, named as the chart builder names it.
    public var element: Element
    /// The state the element belongs to (the source state, for a transition), as text.
    public var state: String?
    /// Where the element is written; `nil` when the chart was made without positions.
    public var location: SourcePosition?
    /// A readable reason.
    public var reason: String
    /// What was thrown, when something was.
    public var error: (any Error)?

    /// The kinds of element that can fail.
    public enum Element: String, Sendable, Hashable, Codable {
        /// An ``OnEntry`` action.
        case onEntry = "OnEntry"
        /// An ``OnExit`` action.
        case onExit = "OnExit"
        /// A transition's action, or the action of an initial or history default transition.
        case transition = "On"
        /// A transition's guard.
        case guardCondition = "guard"
        /// A ``StateData`` closure.
        case stateData = "StateData"
        /// A ``DoneData`` closure.
        case doneData = "DoneData"
        /// An ``Invoke``: it could not start, or its work failed.
        case invoke = "Invoke"
        /// An action the chart runs when the machine starts.
        case start = "start"
        /// An event sent outside the machine that could not be delivered.
        case send = "send"
    }

    /// A failure from its parts.
    public init(
        _ element: Element, state: String? = nil, location: SourcePosition? = nil, reason: String,
        error: (any Error)? = nil
    ) {
        self.element = element
        self.state = state
        self.location = location
        self.reason = reason
        self.error = error
    }

    /// `file:line:column: Element failed: reason`.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        let owner = state.map { " of \($0)" } ?? ""
        return "\(place)\(element.rawValue)\(owner) failed: \(reason)"
    }

    /// The reason an error gives: its description.
    static func reason(for error: any Error) -> String { String(describing: error) }

    /// The failure of an action the chart runs when the machine starts.
    @usableFromInline
    static func start(_ error: any Error) -> ExecutionFailure {
        error as? ExecutionFailure ?? ExecutionFailure(.start, reason: reason(for: error), error: error)
    }
}
