#if Inspector
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
    /// The transitions the step took, in order; empty when the target does not know them (a live
    /// document whose session does not record its microsteps). The page draws them highlighted.
    public var transitions: [InspectorTransition]
    /// The machine after the step.
    public var snapshot: InspectorSnapshot

    /// A step of the timeline.
    public init(
        index: Int, label: String, event: InspectorEvent? = nil, exited: [String] = [], entered: [String] = [],
        messages: [String] = [], transitions: [InspectorTransition] = [], snapshot: InspectorSnapshot
    ) {
        self.index = index
        self.label = label
        self.event = event
        self.exited = exited
        self.entered = entered
        self.messages = messages
        self.transitions = transitions
        self.snapshot = snapshot
    }

    enum CodingKeys: String, CodingKey {
        case index, label, event, exited, entered, messages, transitions, snapshot
    }

    /// A step decoded from JSON; a timeline written before steps had transitions has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        index = try container.decode(Int.self, forKey: .index)
        label = try container.decode(String.self, forKey: .label)
        event = try container.decodeIfPresent(InspectorEvent.self, forKey: .event)
        exited = try container.decode([String].self, forKey: .exited)
        entered = try container.decode([String].self, forKey: .entered)
        messages = try container.decode([String].self, forKey: .messages)
        transitions = try container.decodeIfPresent([InspectorTransition].self, forKey: .transitions) ?? []
        snapshot = try container.decode(InspectorSnapshot.self, forKey: .snapshot)
    }
}

/// A transition a step took: the page highlights the arrows from its source to its targets.
public struct InspectorTransition: Sendable, Hashable, Codable {
    /// The state it belongs to; `nil` for the chart's initial transition.
    public var source: String?
    /// The event that selected it; `nil` for an eventless transition and the start.
    public var event: String?
    /// Its targets as written; empty for a targetless transition.
    public var targets: [String]

    /// A transition from its parts.
    public init(source: String?, event: String?, targets: [String]) {
        self.source = source
        self.event = event
        self.targets = targets
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
#endif
