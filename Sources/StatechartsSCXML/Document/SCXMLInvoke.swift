import Statecharts

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
