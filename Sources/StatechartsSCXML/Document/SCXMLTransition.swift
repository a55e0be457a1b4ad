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
    /// Its attributes of other namespaces. The reader keeps the foreign elements inside a transition
    /// among its ``actions`` (``SCXMLAction/Kind/foreign(_:)``), in order; elements given here are
    /// written before the actions.
    public var extensions = SCXMLExtensions()

    /// A transition from its parts.
    public init(
        events: [String] = [], condition: SCXMLExpression? = nil, targets: [String] = [],
        type: TransitionType = .external, actions: [SCXMLAction] = [], location: SourcePosition,
        extensions: SCXMLExtensions = SCXMLExtensions()
    ) {
        self.extensions = extensions
        self.events = events
        self.condition = condition
        self.targets = targets
        self.type = type
        self.actions = actions
        self.location = location
    }
}
