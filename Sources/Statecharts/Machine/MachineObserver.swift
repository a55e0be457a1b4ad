/// Sees every step a machine takes: for logging, tracing and tests.
///
/// Pass an observer to ``StateMachine/send(_:observer:)``, ``StateMachine/start(observer:)`` or
/// ``StateMachine/advance(by:observer:)``. Its methods run synchronously, inside the step, in the
/// order things happen. A machine builds the records only for an observer that asks for them, so
/// observing costs nothing when you do not.
public protocol MachineObserver<State, Event> {
    /// The chart's state type.
    associatedtype State: Hashable
    /// The chart's event type.
    associatedtype Event: StatechartEvent

    /// The machine takes an event from a queue (or the one you sent) and selects transitions for it.
    mutating func machineWillProcess(_ event: ProcessedEvent<Event>)

    /// The machine has taken a microstep.
    mutating func machineDidTake(_ microstep: Microstep<State>)

    /// No transition was enabled by an event: the machine dropped it (or, for an event you sent
    /// with ``UnhandledEventPolicy/reject``, refused it).
    mutating func machineDidNotHandle(_ event: ProcessedEvent<Event>)

    /// An action threw; the machine raised `error.execution`.
    mutating func machineActionDidFail(_ failure: ActionFailure<State>)
}

extension MachineObserver {
    /// Does nothing: implement it to see events.
    public mutating func machineWillProcess(_ event: ProcessedEvent<Event>) {}
    /// Does nothing: implement it to see microsteps.
    public mutating func machineDidTake(_ microstep: Microstep<State>) {}
    /// Does nothing: implement it to see the events no transition handled.
    public mutating func machineDidNotHandle(_ event: ProcessedEvent<Event>) {}
    /// Does nothing: implement it to see failures.
    public mutating func machineActionDidFail(_ failure: ActionFailure<State>) {}
}

/// An event as an observer sees it.
public struct ProcessedEvent<Event: StatechartEvent>: CustomStringConvertible {
    /// The event's SCXML name, such as `"play"` or `"done.state.player"`.
    public var name: String
    /// The event itself when it is of your type; `nil` for the events the machine raises
    /// (`done.state.*`, `error.execution`, timeouts).
    public var event: Event?
    /// Where the event came from.
    public var origin: Origin
    /// For `done.state.*` events: the done data of the final state that completed the state.
    public var doneData: (any Sendable)?
    /// For `error.execution`: what the failed action or guard threw.
    public var error: (any Error)?
    /// For `error.execution` and `error.communication`: the failing element, where it is written
    /// and why.
    public var failure: ExecutionFailure?

    /// Whether the machine raised the event itself (`done.state.*`, `error.execution`, timeouts)
    /// rather than receiving it or having it raised by an action: SCXML's "platform" events.
    public var isRaisedByMachine: Bool { event == nil }

    /// An event seen by an observer or a data model.
    public init(
        name: String, event: Event?, origin: Origin, doneData: (any Sendable)? = nil, error: (any Error)? = nil,
        failure: ExecutionFailure? = nil
    ) {
        self.name = name
        self.event = event
        self.origin = origin
        self.doneData = doneData
        self.error = error
        self.failure = failure
    }

    /// Where an event came from.
    public enum Origin: String, Hashable, Sendable {
        /// Sent from outside, or sent by an action (SCXML's external queue).
        case external
        /// Raised by an action or by the machine (SCXML's internal queue).
        case `internal`
        /// A timer that reached its deadline.
        case timer
    }

    /// The name and the origin, as in `play (external)`.
    public var description: String { "\(name) (\(origin.rawValue))" }
}

/// One microstep: the transitions taken together, and the states they exited and entered.
public struct Microstep<State: Hashable>: Equatable, CustomStringConvertible {
    /// The name of the event that selected the transitions; `nil` for eventless transitions and
    /// for the machine's start.
    public var event: String?
    /// The transitions, in the order their actions ran.
    public var transitions: [TakenTransition<State>]
    /// The states exited, in exit order (children before parents).
    public var exited: [State]
    /// The states entered, in entry order (parents before children).
    public var entered: [State]
    /// Every state active after the microstep, parents before children, in document order.
    public var configuration: [State]

    @usableFromInline
    init(
        event: String?, transitions: [TakenTransition<State>], exited: [State], entered: [State],
        configuration: [State]
    ) {
        self.event = event
        self.transitions = transitions
        self.exited = exited
        self.entered = entered
        self.configuration = configuration
    }

    /// The event, and the states exited and entered: `play: exited [stopped], entered [playing]`;
    /// `(start)` for the machine's start and `(eventless)` for eventless transitions.
    public var description: String {
        let trigger = event ?? (transitions.first.map { $0.source == nil } == true ? "(start)" : "(eventless)")
        func list(_ states: [State]) -> String { "[" + states.map { "\($0)" }.joined(separator: ", ") + "]" }
        return "\(trigger): exited \(list(exited)), entered \(list(entered))"
    }
}

/// A transition as it was taken.
public struct TakenTransition<State: Hashable>: Equatable {
    /// The state the transition belongs to; `nil` for the machine's initial transition.
    public var source: State?
    /// Its targets as written (history states included); empty for a targetless transition.
    public var targets: [State]
    /// Where it was written.
    public var location: SourcePosition?
    /// Which transition of the chart it is: the ``TransitionInfo/id`` of the same transition in
    /// ``Statechart/allTransitions``, for coverage.
    public var id: Int

    @usableFromInline
    init(source: State?, targets: [State], location: SourcePosition?, id: Int) {
        self.source = source
        self.targets = targets
        self.location = location
        self.id = id
    }
}

/// An action that threw.
public struct ActionFailure<State: Hashable> {
    /// Which action.
    public var action: ActionRole
    /// The state it belongs to (the source, for a transition's action).
    public var state: State?
    /// What it threw.
    public var error: any Error

    @usableFromInline
    init(action: ActionRole, state: State?, error: any Error) {
        self.action = action
        self.state = state
        self.error = error
    }

    /// The roles an action plays.
    public enum ActionRole: String, Hashable, Sendable {
        /// An ``OnEntry`` action.
        case entry
        /// An ``OnExit`` action.
        case exit
        /// A transition's action, or the action of an ``Initial`` element or a history default.
        case transition
        /// The closure of a ``StateData`` element.
        case stateData
        /// The closure of a ``DoneData`` element.
        case doneData

        /// The element of an ``ExecutionFailure`` for this role.
        @usableFromInline
        var failingElement: ExecutionFailure.Element {
            switch self {
            case .entry: return .onEntry
            case .exit: return .onExit
            case .transition: return .transition
            case .stateData: return .stateData
            case .doneData: return .doneData
            }
        }
    }
}

/// An observer that records what it sees, for tests and for ``StateMachine/step(_:)``.
public struct MachineRecorder<State: Hashable, Event: StatechartEvent>: MachineObserver where Event.Kind: Hashable {
    /// The events processed, in order.
    public var events: [ProcessedEvent<Event>] = []
    /// The microsteps taken, in order.
    public var microsteps: [Microstep<State>] = []
    /// The actions that threw, in order.
    public var failures: [ActionFailure<State>] = []

    /// An empty recorder.
    public init() {}

    /// Records the event.
    public mutating func machineWillProcess(_ event: ProcessedEvent<Event>) { events.append(event) }
    /// Records the microstep.
    public mutating func machineDidTake(_ microstep: Microstep<State>) { microsteps.append(microstep) }
    /// Records the failure.
    public mutating func machineActionDidFail(_ failure: ActionFailure<State>) { failures.append(failure) }

    /// Every state exited, in order.
    public var exited: [State] { microsteps.flatMap(\.exited) }
    /// Every state entered, in order.
    public var entered: [State] { microsteps.flatMap(\.entered) }
}

/// The observer used when there is none.
@usableFromInline
struct NoObserver<State: Hashable, Event: StatechartEvent>: MachineObserver where Event.Kind: Hashable {
    /// One byte, so that the observer has an address: the thread sanitizer's check of an `inout`
    /// access to a zero-sized value can read an invalid address and crash.
    @usableFromInline let padding: UInt8
    @inlinable init() { padding = 0 }
}

extension ProcessedEvent: Sendable where Event: Sendable {}

extension Microstep: Sendable where State: Sendable {}

extension TakenTransition: Sendable where State: Sendable {}

extension ActionFailure: Sendable where State: Sendable {}

extension MachineRecorder: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable {}
