import Statecharts

/// An SCXML document as read: its states, transitions and executable content, each with where it
/// was written.
///
/// Read one with ``SCXMLReader``, turn it into a chart with ``makeChart(dataModels:)``, and write any
/// chart back out with ``SCXMLWriter``.
public struct SCXMLDocument: Sendable, Hashable {
    /// The `name` attribute.
    public var name: String?
    /// The `initial` attribute: the states entered at the start; empty for the first state.
    public var initial: [String]
    /// The `datamodel` attribute; `nil` when absent.
    public var dataModel: String?
    /// The `binding` attribute.
    public var binding: SCXMLBinding
    /// The top-level states, in document order.
    public var states: [SCXMLNode]
    /// Transitions of the document itself: not standard SCXML, but accepted as SCION does; they
    /// apply in every state, after the states' own.
    public var transitions: [SCXMLTransition]
    /// The top-level `<datamodel>`'s `<data>` elements.
    public var data: [SCXMLData]
    /// The top-level `<script>`, run when the machine starts.
    public var script: SCXMLScript?
    /// Where the `<scxml>` element is.
    public var location: SourcePosition

    /// A document from its parts.
    public init(
        name: String? = nil, initial: [String] = [], dataModel: String? = nil, binding: SCXMLBinding = .early,
        states: [SCXMLNode] = [], transitions: [SCXMLTransition] = [], data: [SCXMLData] = [],
        script: SCXMLScript? = nil,
        location: SourcePosition = SourcePosition(file: "", line: 1, column: 1)
    ) {
        self.name = name
        self.initial = initial
        self.dataModel = dataModel
        self.binding = binding
        self.states = states
        self.transitions = transitions
        self.data = data
        self.script = script
        self.location = location
    }
}

/// When `<data>` elements are initialised: all at the start (early) or each state's when it is
/// first entered (late).
public enum SCXMLBinding: String, Sendable, Hashable {
    /// All data when the machine starts.
    case early
    /// A state's data when the state is first entered.
    case late
}

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
        invocations: [SCXMLInvoke] = [], location: SourcePosition
    ) {
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

/// A block of executable content: the children of an `<onentry>` or `<onexit>` element.
public struct SCXMLBlock: Sendable, Hashable {
    /// The actions, in document order.
    public var actions: [SCXMLAction]
    /// Where the `<onentry>` or `<onexit>` element is.
    public var location: SourcePosition

    /// A block from its parts.
    public init(actions: [SCXMLAction], location: SourcePosition) {
        self.actions = actions
        self.location = location
    }
}

/// An expression of the document's data model, as written in an attribute or element.
public struct SCXMLExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression's text.
    public var text: String
    /// Where it is written.
    public var location: SourcePosition

    /// An expression from its text and location.
    public init(_ text: String, location: SourcePosition) {
        self.text = text
        self.location = location
    }

    /// The text.
    public var description: String { text }
}

/// A `<data>` element.
public struct SCXMLData: Sendable, Hashable {
    /// The `id` attribute: the variable's name.
    public var id: String
    /// The `expr` attribute.
    public var expression: SCXMLExpression?
    /// The `src` attribute.
    public var source: String?
    /// Inline content.
    public var content: SCXMLInlineContent?
    /// Where the element is.
    public var location: SourcePosition

    /// A data element from its parts.
    public init(
        id: String, expression: SCXMLExpression? = nil, source: String? = nil, content: SCXMLInlineContent? = nil,
        location: SourcePosition
    ) {
        self.id = id
        self.expression = expression
        self.source = source
        self.content = content
        self.location = location
    }
}

/// A `<script>` element.
public struct SCXMLScript: Sendable, Hashable {
    /// The `src` attribute.
    public var source: String?
    /// The inline script.
    public var text: String?
    /// Where the element is.
    public var location: SourcePosition

    /// A script from its parts.
    public init(source: String? = nil, text: String? = nil, location: SourcePosition) {
        self.source = source
        self.text = text
        self.location = location
    }
}

/// A `<param>` element.
public struct SCXMLParam: Sendable, Hashable {
    /// The `name` attribute.
    public var name: String
    /// The `expr` attribute.
    public var expression: SCXMLExpression?
    /// The `location` attribute.
    public var dataLocation: SCXMLExpression?
    /// Where the element is.
    public var location: SourcePosition

    /// A parameter from its parts.
    public init(
        name: String, expression: SCXMLExpression? = nil, dataLocation: SCXMLExpression? = nil, location: SourcePosition
    ) {
        self.name = name
        self.expression = expression
        self.dataLocation = dataLocation
        self.location = location
    }
}

/// A `<content>` element.
public struct SCXMLContent: Sendable, Hashable {
    /// The `expr` attribute.
    public var expression: SCXMLExpression?
    /// The inline content.
    public var inline: SCXMLInlineContent?
    /// Where the element is.
    public var location: SourcePosition

    /// Content from its parts.
    public init(expression: SCXMLExpression? = nil, inline: SCXMLInlineContent? = nil, location: SourcePosition) {
        self.expression = expression
        self.inline = inline
        self.location = location
    }
}

/// A `<donedata>` element.
public struct SCXMLDoneData: Sendable, Hashable {
    /// Its `<content>`.
    public var content: SCXMLContent?
    /// Its `<param>` elements.
    public var params: [SCXMLParam]
    /// Where the element is.
    public var location: SourcePosition

    /// Done data from its parts.
    public init(content: SCXMLContent? = nil, params: [SCXMLParam] = [], location: SourcePosition) {
        self.content = content
        self.params = params
        self.location = location
    }
}

/// An `<invoke>` element.
public struct SCXMLInvoke: Sendable, Hashable {
    /// The `type` attribute.
    public var type: String?
    /// The `typeexpr` attribute.
    public var typeExpression: SCXMLExpression?
    /// The `src` attribute.
    public var source: String?
    /// The `srcexpr` attribute.
    public var sourceExpression: SCXMLExpression?
    /// The `id` attribute.
    public var id: String?
    /// The `idlocation` attribute.
    public var idLocation: SCXMLExpression?
    /// The `namelist` attribute.
    public var namelist: [String]
    /// The `autoforward` attribute.
    public var autoforward: Bool
    /// Its `<param>` elements.
    public var params: [SCXMLParam]
    /// Its `<content>`.
    public var content: SCXMLContent?
    /// Its `<finalize>` content.
    public var finalize: [SCXMLAction]
    /// Where the element is.
    public var location: SourcePosition

    /// An invocation from its parts.
    public init(
        type: String? = nil, typeExpression: SCXMLExpression? = nil, source: String? = nil,
        sourceExpression: SCXMLExpression? = nil, id: String? = nil, idLocation: SCXMLExpression? = nil,
        namelist: [String] = [], autoforward: Bool = false, params: [SCXMLParam] = [], content: SCXMLContent? = nil,
        finalize: [SCXMLAction] = [], location: SourcePosition
    ) {
        self.type = type
        self.typeExpression = typeExpression
        self.source = source
        self.sourceExpression = sourceExpression
        self.id = id
        self.idLocation = idLocation
        self.namelist = namelist
        self.autoforward = autoforward
        self.params = params
        self.content = content
        self.finalize = finalize
        self.location = location
    }
}

/// The content written inside a `<data>`, `<content>` or `<assign>` element.
public enum SCXMLInlineContent: Sendable, Hashable {
    /// Character data, unescaped.
    case text(String)
    /// Child elements, as XML.
    case markup(String)

    /// The text, or the markup as written.
    public var string: String {
        switch self {
        case .text(let text): return text
        case .markup(let markup): return markup
        }
    }
}
