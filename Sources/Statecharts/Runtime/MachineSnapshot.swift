/// What a live machine looks like after a step: the single source of truth views derive from.
///
/// ``StatechartActor/snapshots(bufferingPolicy:)`` and ``IsolatedStatechart/snapshots(bufferingPolicy:isolation:)`` publish one after
/// every call that processes events (a send, a timer, an invocation's result).
public struct MachineSnapshot<State: Hashable, Context> {
    /// Every active state, parents before children, in document order.
    public var configuration: [State]
    /// The active atomic states, in document order.
    public var activeStates: [State]
    /// The extended state.
    public var context: Context
    /// Whether the machine runs.
    public var status: MachineStatus
    /// The machine's time: how long it has run on its clock.
    public var now: Duration
    /// The timers pending, earliest first: the timeouts of the active states (each with its
    /// state) and the events the machine sent itself with a delay, with their deadlines in the
    /// machine's time (``now``'s).
    public var timers: [ScheduledTimer<State>]
    /// In a stream of snapshots, the microsteps the machine took since the stream's previous
    /// snapshot, in order: each with its event, its transitions and the states it exited and
    /// entered. Empty in the stream's first snapshot and in a snapshot read alone. The inspector
    /// draws their transitions highlighted.
    public var microsteps: [Microstep<State>]

    /// A snapshot of these values.
    public init(
        configuration: [State], activeStates: [State], context: Context, status: MachineStatus, now: Duration,
        timers: [ScheduledTimer<State>] = [], microsteps: [Microstep<State>] = []
    ) {
        self.configuration = configuration
        self.activeStates = activeStates
        self.context = context
        self.status = status
        self.now = now
        self.timers = timers
        self.microsteps = microsteps
    }

    /// Whether `state` is active.
    public func isActive(_ state: State) -> Bool { configuration.contains(state) }
}

extension MachineSnapshot: Equatable where Context: Equatable {}

extension StateMachine {
    /// The machine's configuration, context and status now.
    public var snapshot: MachineSnapshot<State, Context> {
        MachineSnapshot(
            configuration: configuration, activeStates: activeStates, context: storedContext, status: status, now: now,
            timers: pendingTimers)
    }
}

extension MachineSnapshot: CustomStringConvertible {
    /// The configuration, such as `[on, dim]`, with the status when the machine is not running:
    /// `[off] (finished)`, as ``StateMachine`` prints itself.
    public var description: String { status.describe(configuration) }
}

extension MachineSnapshot: Sendable where State: Sendable, Context: Sendable {}
