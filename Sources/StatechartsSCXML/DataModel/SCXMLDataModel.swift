import Statecharts

/// A data model: what evaluates an SCXML document's expressions and holds its variables.
///
/// A document names its data model in its `datamodel` attribute. ``NullDataModel`` ships with
/// this module; an ECMAScript data model can be supplied by another module. A chart is built
/// for one data model type, which checks every expression of the document when the chart is
/// built (``problem(with:as:)``), so that a document it cannot run is reported, never guessed at.
/// Each machine then gets its own instance.
///
/// A model is `Codable`: its variables are part of a machine's `MachineArchive`.
public protocol SCXMLDataModel: Sendable, Codable {
    /// The values of the `datamodel` attribute this model implements, such as `"null"`.
    static var names: Set<String> { get }

    /// Why the model cannot evaluate `expression` used as `use`; `nil` when it can.
    static func problem(with expression: SCXMLExpression, as use: SCXMLExpressionUse) -> String?

    /// Why the model cannot run `feature`; `nil` when it can.
    static func problem(with feature: SCXMLFeature) -> String?

    /// Why the model cannot use inline content (of `<data>`, `<assign>` or `<content>`); `nil`
    /// when it can.
    static func problem(with content: SCXMLInlineContent) -> String?

    /// A model for a new session.
    init(session: SCXMLSessionInfo)

    /// Whether the model reads what ``bind(_:)`` gives it. A model that never reads `_event` (the
    /// null data model has no expressions that could) says `false`, and its machines are then not
    /// told of each event: they take the same quick steps as a chart written in Swift. The default
    /// is `true`.
    static var readsBoundEvents: Bool { get }

    /// The event about to be processed: SCXML's `_event`. Called for every event when
    /// ``readsBoundEvents`` is `true`; never otherwise.
    mutating func bind(_ event: SCXMLEvent)

    /// The value of a condition (`cond`).
    mutating func condition(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> Bool

    /// The value of a value expression (`expr`, `eventexpr`, ...).
    mutating func value(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> SCXMLValue

    /// Creates the variable of a `<data>` element without a value (late binding, before entry).
    mutating func declare(_ data: SCXMLData) throws

    /// Creates the variable of a `<data>` element and gives it its value.
    mutating func initialize(_ data: SCXMLData, isActive: (String) -> Bool) throws

    /// Runs an `<assign>`.
    mutating func assign(
        to location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?,
        isActive: (String) -> Bool
    ) throws

    /// Stores a value in a location (for `idlocation` and `<foreach>`'s `item` and `index`).
    mutating func store(_ value: SCXMLValue, in location: String, at sourceLocation: SourcePosition) throws

    /// The value of a location (for `namelist`).
    mutating func load(_ location: String, at sourceLocation: SourcePosition) throws -> SCXMLValue

    /// Runs a `<script>`.
    mutating func run(_ script: SCXMLScript, isActive: (String) -> Bool) throws

    /// The items of a `<foreach>`'s `array`, in iteration order.
    mutating func items(of array: SCXMLExpression, isActive: (String) -> Bool) throws -> [SCXMLValue]

    /// The value of inline content in a `<content>` of a `<send>` or `<donedata>`: what the
    /// receiver finds in `_event.data`.
    mutating func value(of content: SCXMLInlineContent, at location: SourcePosition) throws -> SCXMLValue
}

extension SCXMLDataModel {
    /// A model reads the events it is bound to, unless it says otherwise.
    public static var readsBoundEvents: Bool { true }

    /// Any inline content can be used, as a string.
    public static func problem(with content: SCXMLInlineContent) -> String? { nil }

    /// The content as a string, as written.
    public mutating func value(of content: SCXMLInlineContent, at location: SourcePosition) throws -> SCXMLValue {
        .string(content.string)
    }
}

/// How an expression is used, so that a model can check it for its use.
public enum SCXMLExpressionUse: String, Sendable, Hashable {
    /// A `cond`.
    case condition
    /// An `expr` and the other value expressions.
    case value
    /// A `location`.
    case location
}

/// Parts of SCXML that a data model may not support.
public enum SCXMLFeature: String, Sendable, Hashable {
    /// `<datamodel>` and `<data>`.
    case data
    /// `<assign>`.
    case assign
    /// `<script>`.
    case script
    /// `<foreach>`.
    case foreach
    /// `namelist`, `idlocation` and `<param location>`: reading and writing variables.
    case variables

    /// The element or attribute, for messages.
    public var element: String {
        switch self {
        case .data: return "<data>"
        case .assign: return "<assign>"
        case .script: return "<script>"
        case .foreach: return "<foreach>"
        case .variables: return "a location (namelist, idlocation, <param location>)"
        }
    }
}

/// What a data model knows of its session.
public struct SCXMLSessionInfo: Sendable, Hashable, Codable {
    /// The session identifier (SCXML's `_sessionid`).
    public var id: String {
        didSet { scxmlLocation = Self.scxmlLocation(of: id) }
    }
    /// The document's name (SCXML's `_name`).
    public var name: String?
    /// What the session's document may take: script time, JavaScript heap, `<foreach>` items, ...
    /// A data model applies them to its evaluations (see ``SCXMLCascade``).
    public var limits: SCXMLLimits
    /// The event I/O processors the session can send with besides SCXML's own, by the `type`
    /// values that name them, with the session's location at each (SCXML's `_ioprocessors`).
    public var eventProcessors: [SCXMLProcessorEntry]
    /// The `<invoke>` types the session runs Swift work for (``SCXMLSession/Options/invokers``),
    /// besides SCXML documents.
    public var invokerTypes: [String]

    /// Session information from its parts.
    public init(
        id: String, name: String?, limits: SCXMLLimits = .default, eventProcessors: [SCXMLProcessorEntry] = [],
        invokerTypes: [String] = []
    ) {
        self.id = id
        scxmlLocation = Self.scxmlLocation(of: id)
        self.name = name
        self.limits = limits
        self.eventProcessors = eventProcessors
        self.invokerTypes = invokerTypes
    }

    /// The session's location at SCXML's own event I/O processor: `#_scxml_ID`. Kept with the
    /// identifier, since every `<send>` names it as the event's origin.
    public private(set) var scxmlLocation: String

    static func scxmlLocation(of id: String) -> String { "#_scxml_\(id)" }

    /// Every event I/O processor of the session, by each `type` value that names it, with the
    /// session's location there: what `_ioprocessors` holds.
    public var processorLocations: [String: String] {
        var locations: [String: String] = [:]
        for type in SCXMLSend.scxmlProcessorTypes { locations[type] = scxmlLocation }
        for entry in eventProcessors {
            for type in entry.types { locations[type] = entry.location }
        }
        return locations
    }

    /// The entry of the processor a `type` value names; `nil` for SCXML's own and for one the
    /// session does not have.
    public func processor(named type: String) -> SCXMLProcessorEntry? {
        eventProcessors.first { $0.types.contains(type) }
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, limits, eventProcessors, invokerTypes
    }

    /// Decodes session information; archives written before processors were recorded have none,
    /// and those written before limits were recorded get the default ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        scxmlLocation = Self.scxmlLocation(of: id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        limits = try container.decodeIfPresent(SCXMLLimits.self, forKey: .limits) ?? .default
        eventProcessors = try container.decodeIfPresent([SCXMLProcessorEntry].self, forKey: .eventProcessors) ?? []
        invokerTypes = try container.decodeIfPresent([String].self, forKey: .invokerTypes) ?? []
    }

    /// Encodes session information; the invoker types only when there are some, so that archives
    /// of sessions without invokers read as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(limits, forKey: .limits)
        try container.encode(eventProcessors, forKey: .eventProcessors)
        if !invokerTypes.isEmpty { try container.encode(invokerTypes, forKey: .invokerTypes) }
    }
}

/// One event I/O processor a session can use, and the session's location there.
public struct SCXMLProcessorEntry: Sendable, Hashable, Codable {
    /// The `type` values that name the processor; the first is its full URI.
    public var types: [String]
    /// Where other parties send the session's events through it, such as an HTTP URL.
    public var location: String

    /// An entry from its parts.
    public init(types: [String], location: String) {
        self.types = types
        self.location = location
    }
}

/// An error a data model raises while evaluating: the machine turns it into `error.execution`,
/// whose `_event.data` gives the element's tag name, the line and column, and the message as
/// the reason.
public struct SCXMLEvaluationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// Where the expression (or the element) is.
    public var location: SourcePosition
    /// The identifier of the `<send>` that failed, which the `error.execution` event carries as
    /// its `sendid`.
    public var sendID: String?
    /// The tag name of the element that failed, such as `assign`; filled in by the executable
    /// content that ran the expression when the data model does not say.
    public var element: String?
    /// Whether the evaluation failed because the cascade it belongs to went past a limit
    /// (``SCXMLCascade/violation``): the session ends, so the executable content stops quietly,
    /// raising no `error.execution` that would only run more of the document.
    public var stopsCascade = false

    /// An error from its parts.
    public init(_ message: String, at location: SourcePosition, sendID: String? = nil, element: String? = nil) {
        self.message = message
        self.location = location
        self.sendID = sendID
        self.element = element
    }

    /// `file:line:column: message`.
    public var description: String { "\(location): \(message)" }
}
