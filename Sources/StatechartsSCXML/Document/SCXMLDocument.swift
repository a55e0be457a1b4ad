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
    /// The namespaces declared on the `<scxml>` element besides SCXML's own, in the order written:
    /// those of the markup the document carries from other vocabularies.
    public var namespaces: [SCXMLNamespace] = []
    /// The `<scxml>` element's attributes and elements of other namespaces.
    public var extensions = SCXMLExtensions()

    /// A document from its parts.
    public init(
        name: String? = nil, initial: [String] = [], dataModel: String? = nil, binding: SCXMLBinding = .early,
        states: [SCXMLNode] = [], transitions: [SCXMLTransition] = [], data: [SCXMLData] = [],
        script: SCXMLScript? = nil,
        location: SourcePosition = SourcePosition(file: "", line: 1, column: 1), namespaces: [SCXMLNamespace] = [],
        extensions: SCXMLExtensions = SCXMLExtensions()
    ) {
        self.namespaces = namespaces
        self.extensions = extensions
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
