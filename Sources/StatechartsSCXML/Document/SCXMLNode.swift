import Statecharts

/// A `<state>`, `<parallel>`, `<final>` or `<history>` element.
public struct SCXMLNode: Sendable, Hashable {
    /// Which element it is.
    public var kind: Kind
    /// The `id` attribute; the reader gives states without one a generated identifier.
    public var id: String
    /// Whether ``id`` was generated because the document gave none.
    public var hasGeneratedID: Bool
    /// The `initial` attribute of a `<state>`.
    public var initial: [String]
    /// The `<initial>` element of a `<state>`.
    public var initialTransition: SCXMLTransition?
    /// The child states, in document order.
    public var children: [SCXMLNode]
    /// The transitions, in document order; for a `<history>`, its default transition.
    public var transitions: [SCXMLTransition]
    /// The `<onentry>` elements, each a block of executable content.
    public var onEntry: [SCXMLBlock]
    /// The `<onexit>` elements.
    public var onExit: [SCXMLBlock]
    /// The `<datamodel>`'s `<data>` elements.
    public var data: [SCXMLData]
    /// The `<donedata>` of a `<final>`.
    public var doneData: SCXMLDoneData?
    /// The `<invoke>` elements.
    public var invocations: [SCXMLInvoke]
    /// Where the element is.
    public var location: SourcePosition
    /// Its attributes, and the elements directly inside it, of other namespaces.
    public var extensions = SCXMLExtensions()

    /// The SCXML elements that are states.
    public enum Kind: Sendable, Hashable {
        /// `<state>`.
        case state
        /// `<parallel>`.
        case parallel
        /// `<final>`.
        case final
        /// `<history>`, with its `type`.
        case history(HistoryType)
    }

    /// A state from its parts.
    public init(
        kind: Kind, id: String, hasGeneratedID: Bool = false, initial: [String] = [],
        initialTransition: SCXMLTransition? = nil, children: [SCXMLNode] = [], transitions: [SCXMLTransition] = [],
        onEntry: [SCXMLBlock] = [], onExit: [SCXMLBlock] = [], data: [SCXMLData] = [], doneData: SCXMLDoneData? = nil,
        invocations: [SCXMLInvoke] = [], location: SourcePosition, extensions: SCXMLExtensions = SCXMLExtensions()
    ) {
        self.extensions = extensions
        self.kind = kind
        self.id = id
        self.hasGeneratedID = hasGeneratedID
        self.initial = initial
        self.initialTransition = initialTransition
        self.children = children
        self.transitions = transitions
        self.onEntry = onEntry
        self.onExit = onExit
        self.data = data
        self.doneData = doneData
        self.invocations = invocations
        self.location = location
    }
}
