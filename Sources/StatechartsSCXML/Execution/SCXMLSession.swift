import Foundation
import Statecharts

/// The context of a machine that runs an SCXML document: its data model, its identity and
/// where `<log>` goes.
public struct SCXMLSession: DataModel {
    /// Events are ``SCXMLEvent``s.
    public typealias Event = SCXMLEvent

    /// The data model: the document's variables.
    public var model: any SCXMLDataModel
    /// The session's identifier and the document's name.
    public let info: SCXMLSessionInfo
    /// Where `<log>` elements write; `nil` to discard them.
    public var log: (@Sendable (SCXMLLogRecord) -> Void)?
    /// States whose `<data>` has been initialised (late binding).
    var initializedStates: Set<String> = []
    /// The number of the next generated send identifier.
    var sendCounter = 0
    /// For a session started by an `<invoke>`: the session that invoked it, and the invocation's
    /// identifier there. `#_parent` reaches it.
    public internal(set) var parent: SCXMLParentLink?
    /// The values the invoking session passed (`<param>`, `namelist`), which replace the values
    /// of the `<data>` elements of the same names.
    var parameters: [String: SCXMLValue] = [:]
    /// The invocations running in this session, in the order they started.
    var invocations: [SCXMLInvocation] = []
    /// The number of invocations started, for generated identifiers.
    var invocationCounter = 0
    /// Events for other sessions and cancellations of delayed ones, for ``SCXMLInterpreter``.
    var outbox: [SCXMLMessage] = []
    /// Whether this session has sent a delayed event to another session, which `<cancel>` must
    /// then also reach.
    var hasSentDelayedMessages = false

    /// A session with a fresh model.
    public init(model: any SCXMLDataModel, info: SCXMLSessionInfo, log: (@Sendable (SCXMLLogRecord) -> Void)? = nil) {
        self.model = model
        self.info = info
        self.log = log
    }

    /// Binds `_event` in the data model.
    public mutating func bind(_ event: ProcessedEvent<SCXMLEvent>) {
        model.bind(Self.scxmlEvent(event))
    }

    /// The SCXML form of an event the machine processes: the event itself, or for the events
    /// the machine raises (`done.state.*`, `error.execution`), a platform event.
    static func scxmlEvent(_ event: ProcessedEvent<SCXMLEvent>) -> SCXMLEvent {
        if let own = event.event { return own }
        let sendID = (event.error as? SCXMLEvaluationError)?.sendID
        return SCXMLEvent(event.name, data: event.doneData as? SCXMLValue, type: .platform, sendID: sendID)
    }

    /// A new send identifier, unique in the session.
    mutating func makeSendID() -> String {
        sendCounter += 1
        return "send.\(info.id).\(sendCounter)"
    }
}

extension SCXMLSession: Codable {
    /// The data models a session can be decoded with, in a decoder's `userInfo`: an array of
    /// ``SCXMLDataModel`` types. Without it, ``SCXMLDocument/builtInDataModels``.
    public static let dataModelsKey: CodingUserInfoKey = {
        // `init(rawValue:)` is failable in its signature only; a constant key never fails.
        guard let key = CodingUserInfoKey(rawValue: "StatechartsSCXML.dataModels") else {
            preconditionFailure("a constant coding key")
        }
        return key
    }()

    private enum CodingKeys: String, CodingKey {
        case dataModel, model, info, initializedStates, sendCounter, parent, parameters, invocations,
            invocationCounter
    }

    /// Decodes a session; its ``log`` is `nil` (see ``SCXMLChart/restoreMachine(from:unhandledEvents:log:)``).
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the data model named is not among
    ///   ``dataModelsKey``'s types.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .dataModel)
        let models =
            decoder.userInfo[Self.dataModelsKey] as? [any SCXMLDataModel.Type] ?? SCXMLDocument.builtInDataModels
        guard let type = models.first(where: { $0.names.contains(name) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .dataModel, in: container, debugDescription: "the data model '\(name)' is not available")
        }
        model = try container.decode(type, forKey: .model)
        info = try container.decode(SCXMLSessionInfo.self, forKey: .info)
        log = nil
        initializedStates = try container.decode(Set<String>.self, forKey: .initializedStates)
        sendCounter = try container.decode(Int.self, forKey: .sendCounter)
        parent = try container.decodeIfPresent(SCXMLParentLink.self, forKey: .parent)
        parameters = try container.decodeIfPresent([String: SCXMLValue].self, forKey: .parameters) ?? [:]
        invocations = try container.decodeIfPresent([SCXMLInvocation].self, forKey: .invocations) ?? []
        invocationCounter = try container.decodeIfPresent(Int.self, forKey: .invocationCounter) ?? 0
    }

    /// Encodes the session: its data model's name and variables, its identity and counters.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type(of: model).names.sorted().first ?? "", forKey: .dataModel)
        try container.encode(model, forKey: .model)
        try container.encode(info, forKey: .info)
        try container.encode(initializedStates.sorted(), forKey: .initializedStates)
        try container.encode(sendCounter, forKey: .sendCounter)
        try container.encodeIfPresent(parent, forKey: .parent)
        if !parameters.isEmpty { try container.encode(parameters, forKey: .parameters) }
        if !invocations.isEmpty { try container.encode(invocations, forKey: .invocations) }
        if invocationCounter > 0 { try container.encode(invocationCounter, forKey: .invocationCounter) }
    }
}

/// What a `<log>` element wrote.
public struct SCXMLLogRecord: Sendable, Hashable, CustomStringConvertible {
    /// The `label` attribute.
    public var label: String?
    /// The value of the `expr` attribute.
    public var value: SCXMLValue?
    /// Where the `<log>` is.
    public var location: SourcePosition

    /// `label: value`.
    public var description: String {
        [label, value?.description].compactMap { $0 }.joined(separator: ": ")
    }
}
