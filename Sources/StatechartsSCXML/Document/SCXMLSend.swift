import Statecharts

/// A `<send>` element.
public struct SCXMLSend: Sendable, Hashable {
    /// The values of `type` that name the SCXML event I/O processor.
    public static let scxmlProcessorTypes: Set<String> = ["http://www.w3.org/TR/scxml/#SCXMLEventProcessor", "scxml"]
    /// The values of `type` that name SCXML's Basic HTTP Event I/O Processor, which a session has
    /// when it is given one (the module StatechartsHTTP provides it).
    public static let basicHTTPProcessorTypes: Set<String> = [
        "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor", "basichttp",
    ]

    /// The `event` attribute.
    public var event: String?
    /// The `eventexpr` attribute.
    public var eventExpression: SCXMLExpression?
    /// The `target` attribute.
    public var target: String?
    /// The `targetexpr` attribute.
    public var targetExpression: SCXMLExpression?
    /// The `type` attribute.
    public var type: String?
    /// The `typeexpr` attribute.
    public var typeExpression: SCXMLExpression?
    /// The `id` attribute.
    public var id: String?
    /// The `idlocation` attribute.
    public var idLocation: SCXMLExpression?
    /// The `delay` attribute, read.
    public var delay: Duration?
    /// The `delay` attribute as written.
    public var delayText: String?
    /// The `delayexpr` attribute.
    public var delayExpression: SCXMLExpression?
    /// The `namelist` attribute.
    public var namelist: [String]
    /// The `<param>` children.
    public var params: [SCXMLParam]
    /// The `<content>` child.
    public var content: SCXMLContent?

    /// A send from its parts.
    public init(
        event: String? = nil, eventExpression: SCXMLExpression? = nil, target: String? = nil,
        targetExpression: SCXMLExpression? = nil, type: String? = nil, typeExpression: SCXMLExpression? = nil,
        id: String? = nil, idLocation: SCXMLExpression? = nil, delay: Duration? = nil, delayText: String? = nil,
        delayExpression: SCXMLExpression? = nil, namelist: [String] = [], params: [SCXMLParam] = [],
        content: SCXMLContent? = nil
    ) {
        self.event = event
        self.eventExpression = eventExpression
        self.target = target
        self.targetExpression = targetExpression
        self.type = type
        self.typeExpression = typeExpression
        self.id = id
        self.idLocation = idLocation
        self.delay = delay
        self.delayText = delayText
        self.delayExpression = delayExpression
        self.namelist = namelist
        self.params = params
        self.content = content
    }
}
