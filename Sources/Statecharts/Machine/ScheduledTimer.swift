/// A timer a machine has pending, as tests and tools see it: a state's timeout (``After``) or an
/// event the machine sent itself with a delay.
public struct ScheduledTimer<State: Hashable>: Hashable, CustomStringConvertible {
    /// The name of the event it delivers when it falls due, as an observer sees it.
    public var name: String
    /// When it falls due, in the machine's time.
    public var deadline: Duration
    /// For a timeout: the state whose timeout it is; it is cancelled when the state exits.
    public var state: State?
    /// For a delayed event: the identifier it can be cancelled by, when it was given one.
    public var id: String?
    /// The order it was armed in, among the machine's timers: two timers with the same name and
    /// deadline differ by it.
    public var serial: UInt64

    /// A timer from its parts.
    public init(name: String, deadline: Duration, state: State? = nil, id: String? = nil, serial: UInt64 = 0) {
        self.name = name
        self.deadline = deadline
        self.state = state
        self.id = id
        self.serial = serial
    }

    /// `name at 5 seconds (timeout of playing)`, `name at 2 seconds (id tick)`.
    public var description: String {
        var text = "\(name) at \(deadline)"
        if let state { text += " (timeout of \(state))" }
        if let id { text += " (id \(id))" }
        return text
    }
}

extension ScheduledTimer: Sendable where State: Sendable {}

extension StateMachine {
    /// The timers pending, earliest first: the timeouts of the active states and the delayed
    /// events not delivered yet. Building the list allocates; it is meant for tests and tools.
    public var pendingTimers: [ScheduledTimer<State>] {
        guard let timers = extras?.timers, !timers.isEmpty else { return [] }
        return timers.ordered.map { timer in
            ScheduledTimer(
                name: name(of: signal(of: timer)), deadline: .nanoseconds(timer.deadline),
                state: timer.owner >= 0 ? chart.states[Int(timer.owner)] : nil, id: identifier(of: timer),
                serial: timer.serial)
        }
    }

    /// The identifier a delayed event can be cancelled by: its string, or, for a send written as
    /// data, the identifier its chart interned (``PendingTimer/owner``); `nil` for a timeout.
    func identifier(of timer: PendingTimer<Event>) -> String? {
        if timer.owner < -1 && timer.owner != .min { return chart.declaredIdentifier(ofOwner: timer.owner) }
        return timer.id
    }
}
