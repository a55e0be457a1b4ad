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

    /// A snapshot of these values.
    public init(
        configuration: [State], activeStates: [State], context: Context, status: MachineStatus, now: Duration
    ) {
        self.configuration = configuration
        self.activeStates = activeStates
        self.context = context
        self.status = status
        self.now = now
    }

    /// Whether `state` is active.
    public func isActive(_ state: State) -> Bool { configuration.contains(state) }
}

extension MachineSnapshot: Equatable where Context: Equatable {}

extension StateMachine {
    /// The machine's configuration, context and status now.
    public var snapshot: MachineSnapshot<State, Context> {
        MachineSnapshot(
            configuration: configuration, activeStates: activeStates, context: storedContext, status: status, now: now)
    }
}

extension MachineSnapshot: CustomStringConvertible {
    /// The configuration, such as `[on, dim]`, with the status when the machine is not running:
    /// `[off] (finished)`, as ``StateMachine`` prints itself.
    public var description: String { status.describe(configuration) }
}

extension MachineSnapshot: Sendable where State: Sendable, Context: Sendable {}
