/// One step of the timeline: what an event (or an instant at which timers fired) did, and the
/// machine after it.
public struct InspectorStep: Sendable, Hashable, Codable {
    /// Its place in the timeline: 0 for the start, then 1, 2, …
    public var index: Int
    /// What caused it: `start`, an event's name, `wait 5s`, `timers`, or `resume from 3`.
    public var label: String
    /// The event, with its data; `nil` for the start, a wait or a restored step.
    public var event: InspectorEvent?
    /// The states exited, in order.
    public var exited: [String]
    /// The states entered, in order.
    public var entered: [String]
    /// What `<log>` wrote, and the errors raised.
    public var messages: [String]
    /// The machine after the step.
    public var snapshot: InspectorSnapshot

    /// A step of the timeline.
    public init(
        index: Int, label: String, event: InspectorEvent? = nil, exited: [String] = [], entered: [String] = [],
        messages: [String] = [], snapshot: InspectorSnapshot
    ) {
        self.index = index
        self.label = label
        self.event = event
        self.exited = exited
        self.entered = entered
        self.messages = messages
        self.snapshot = snapshot
    }
}

/// An event as the page sends it (`POST /api/events`) and the timeline shows it.
public struct InspectorEvent: Sendable, Hashable, Codable {
    /// Its name.
    public var name: String
    /// Its data; `nil` when it has none.
    public var data: InspectorValue?

    /// An event.
    public init(name: String, data: InspectorValue? = nil) {
        self.name = name
        self.data = data
    }
}
