import Statecharts

/// A `<transition>` element.
public struct SCXMLTransition: Sendable, Hashable {
    /// The event descriptors of the `event` attribute; empty for an eventless transition.
    public var events: [String]
    /// The `cond` attribute.
    public var condition: SCXMLExpression?
    /// The `target` attribute's state identifiers.
    public var targets: [String]
    /// The `type` attribute.
    public var type: TransitionType
    /// The executable content.
    public var actions: [SCXMLAction]
    /// Where the element is.
    public var location: SourcePosition

    /// A transition from its parts.
    public init(
        events: [String] = [], condition: SCXMLExpression? = nil, targets: [String] = [],
        type: TransitionType = .external, actions: [SCXMLAction] = [], location: SourcePosition
    ) {
        self.events = events
        self.condition = condition
        self.targets = targets
        self.type = type
        self.actions = actions
        self.location = location
    }
}
