#if Inspector
/// What an inspected machine is now: what `GET /api/snapshot` returns, and what each step of the
/// timeline records.
public struct InspectorSnapshot: Sendable, Hashable, Codable {
    /// Every active state, parents before children, in document order.
    public var configuration: [String]
    /// The active atomic states.
    public var active: [String]
    /// The events a transition of the active states takes now, guards aside: the page's buttons.
    public var events: [String]
    /// The data model's variables, or the machine's context.
    public var data: InspectorValue
    /// The timers and delayed events pending, soonest first.
    public var timers: [PendingTimer]
    /// The machine's time, in seconds.
    public var time: Double
    /// `running` or `finished`.
    public var status: String

    /// A timer or a delayed event that has not fired yet.
    public struct PendingTimer: Sendable, Hashable, Codable {
        /// What it does when it fires: the event it sends, or the timeout of a state.
        public var name: String
        /// When it fires, in seconds on the machine's clock.
        public var due: Double
        /// The identifier `<cancel>` takes; `nil` when it has none.
        public var id: String?
        /// For a state's timeout: the state, whose exit cancels it. `nil` for an event sent with a
        /// delay, which belongs to no state: it stays pending when the state that sent it exits.
        public var state: String?

        /// A pending timer.
        public init(name: String, due: Double, id: String? = nil, state: String? = nil) {
            self.name = name
            self.due = due
            self.id = id
            self.state = state
        }
    }

    /// A snapshot of these values.
    public init(
        configuration: [String], active: [String], events: [String], data: InspectorValue = .null,
        timers: [PendingTimer] = [], time: Double, status: String
    ) {
        self.configuration = configuration
        self.active = active
        self.events = events
        self.data = data
        self.timers = timers
        self.time = time
        self.status = status
    }
}
#endif
