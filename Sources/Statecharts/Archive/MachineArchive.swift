/// The whole state of a machine, `Codable`: what an app saves when it is suspended and a server
/// when it restarts, to restore a machine that continues exactly where this one was.
///
/// ```swift
/// let data = try JSONEncoder().encode(machine.archive())
/// // ... later, perhaps in another process:
/// let archive = try JSONDecoder().decode(MachineArchive<Phase, Input, Session>.self, from: data)
/// var restored = try StateMachine(chart: chart, restoring: archive)
/// try restored.resume(after: timeAway, overdueTimers: .fire)
/// ```
///
/// An archive holds the status, the machine's time, the active states, the recorded history, the
/// context, the data of active states (of ``StateData`` whose type is `Codable`) and every
/// pending timer: state timeouts and delayed events with their deadlines in the machine's time.
/// States and events are stored as your own `Codable` values, so an archive stays readable
/// after a chart gains states; restoring checks it against the chart and fails with a
/// ``MachineArchiveError`` when it does not fit.
///
/// Invocations (``Invoke``) are work in progress, not state: the archive records which were
/// running, and a restored machine starts the invocations of its active states afresh, unless the
/// runtime that restores it kept what they run (``InvocationRestoration/resume``: an SCXML session
/// restores its child sessions). The done data of a finished machine (``StateMachine/result``) has
/// no declared type to be decoded as; a restored finished machine has no result.
public struct MachineArchive<
    State: Hashable & Codable, Event: StatechartEvent & Codable, Context: Codable
>: Codable where Event.Kind: Hashable {
    /// The format this library writes and reads.
    public static var currentVersion: Int { 1 }

    /// The format of this archive.
    public var version: Int
    /// The name of the chart the machine ran, for people reading an archive.
    public var chart: String
    /// Whether the machine had started or finished.
    public var status: MachineStatus
    /// The machine's time, in nanoseconds.
    public var time: Int64
    /// Every active state, parents before children, in document order.
    public var configuration: [State]
    /// What each history state has recorded.
    public var history: [HistoryRecord]
    /// The extended state.
    public var context: Context
    /// The data of active states, as JSON text.
    public var stateData: [StateDataRecord]
    /// The pending timers, in the order they fall due.
    public var timers: [PendingTimerRecord]
    /// The invocations that were running, oldest first; `nil` in archives written before they
    /// were recorded.
    public var invocations: [InvocationRecord]?
    /// The number the machine's next invocation gets.
    public var nextInvocation: UInt64?

    /// One invocation that was running.
    public struct InvocationRecord: Codable, Hashable {
        /// Its identifier.
        public var id: InvocationID
        /// The state it belongs to.
        public var state: State
        /// Which of the state's invocations it is, in document order, from 0.
        public var index: Int

        /// A record from its parts.
        public init(id: InvocationID, state: State, index: Int) {
            self.id = id
            self.state = state
            self.index = index
        }
    }

    /// What one history state has recorded.
    public struct HistoryRecord: Codable, Hashable {
        /// The history state.
        public var history: State
        /// The states it restores, in document order.
        public var states: [State]

        /// A record from its parts.
        public init(history: State, states: [State]) {
            self.history = history
            self.states = states
        }
    }

    /// The data of one active state.
    public struct StateDataRecord: Codable, Hashable {
        /// The state.
        public var state: State
        /// Its value, as JSON text.
        public var json: String

        /// A record from its parts.
        public init(state: State, json: String) {
            self.state = state
            self.json = json
        }
    }

    /// A timer that had not fired.
    public struct PendingTimerRecord: Codable {
        /// When it falls due, in nanoseconds of the machine's time.
        public var deadline: Int64
        /// What it delivers.
        public var kind: Kind

        /// What a timer delivers.
        public enum Kind: Codable {
            /// The timeout (``After``) of an active state: the `index`-th timeout of the state, of
            /// `delay` nanoseconds.
            case timeout(state: State, index: Int, delay: Int64)
            /// A delayed event sent with ``Scope/send(_:after:id:)``.
            case event(Event, id: String?)
            /// A delayed event known only by its name.
            case named(String, id: String?)
        }

        /// A record from its parts.
        public init(deadline: Int64, kind: Kind) {
            self.deadline = deadline
            self.kind = kind
        }
    }

    /// An archive from its parts: for tools and tests; machines make theirs with
    /// ``StateMachine/archive()``.
    public init(
        version: Int = Self.currentVersion, chart: String, status: MachineStatus, time: Int64, configuration: [State],
        history: [HistoryRecord], context: Context, stateData: [StateDataRecord], timers: [PendingTimerRecord],
        invocations: [InvocationRecord]? = nil, nextInvocation: UInt64? = nil
    ) {
        self.version = version
        self.chart = chart
        self.status = status
        self.time = time
        self.configuration = configuration
        self.history = history
        self.context = context
        self.stateData = stateData
        self.timers = timers
        self.invocations = invocations
        self.nextInvocation = nextInvocation
    }
}

/// What a restored machine does with the invocations its archive says were running.
public enum InvocationRestoration: Sendable, Hashable {
    /// Start the invocations of the active states afresh, with new identifiers: their work was
    /// lost with the process that ran it.
    case restart
    /// Mark the archived invocations as running, with their identifiers, and start none: for a
    /// runtime that kept what they run and reattaches it (an SCXML session restores its child
    /// sessions this way).
    case resume
}

extension MachineArchive: Equatable where Context: Equatable, Event: Equatable {}
extension MachineArchive.PendingTimerRecord: Equatable where Event: Equatable {}
extension MachineArchive.PendingTimerRecord.Kind: Equatable where Event: Equatable {}

extension MachineArchive: Sendable where State: Sendable, Event: Sendable, Context: Sendable {}

extension MachineArchive.HistoryRecord: Sendable where State: Sendable {}

extension MachineArchive.StateDataRecord: Sendable where State: Sendable {}

extension MachineArchive.InvocationRecord: Sendable where State: Sendable {}

extension MachineArchive.PendingTimerRecord: Sendable where State: Sendable, Event: Sendable {}

extension MachineArchive.PendingTimerRecord.Kind: Sendable where State: Sendable, Event: Sendable {}
