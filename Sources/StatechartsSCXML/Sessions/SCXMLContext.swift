import Foundation
import Statecharts

/// The context of the machine of one SCXML session: its data model, its identity, the session
/// that invoked it and the invocations it runs.
///
/// ``SCXMLSession`` makes one for each session it runs. Everything a session does outside itself
/// (start a child, send an event to another session or over an event I/O processor, write a log)
/// leaves its machine as a `MachineEffect`; the context only keeps what the machine itself needs
/// to decide: which sessions it can reach and which invocation an event came from.
public struct SCXMLContext: DataModel {
    /// Events are ``SCXMLEvent``s.
    public typealias Event = SCXMLEvent

    /// The data model: the document's variables.
    public var model: any SCXMLDataModel
    /// The session's identifier, the document's name and the event I/O processors it can use.
    public let info: SCXMLSessionInfo
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
    /// The invocations running in this session, in the order they started: whom `#_INVOKEID`
    /// reaches, and whose `<finalize>` and `autoforward` apply to an event.
    var invocations: [SCXMLInvocation] = []
    /// The number of invocations started, for generated identifiers.
    var invocationCounter = 0
    /// The events of the chart's `<send>`s whose event is the same at every run in this session
    /// (``PreparedSend/literalDelay``), made at their first run, with their kind's index in the
    /// machine's chart: sending one again copies it, instead of making its fields anew and
    /// finding its kind by name. Not archived: a restored session makes them again.
    var preparedEvents: [PreparedEvent] = []

    /// An event of ``preparedEvents``.
    struct PreparedEvent: Sendable {
        /// The `<send>` that sends it.
        let send: PreparedSend
        /// The event.
        let event: SCXMLEvent
        /// The index of its kind in the machine's chart.
        let kind: Int32
    }

    /// The most events ``preparedEvents`` keeps; the `<send>`s after them make theirs each time.
    static let preparedEventLimit = 16

    /// A context with a fresh model.
    public init(model: any SCXMLDataModel, info: SCXMLSessionInfo) {
        self.model = model
        self.info = info
    }

    /// The context of a new session `id` of `chart`, run outside an ``SCXMLSession`` by a host of
    /// one document's machines (a durable fleet, in StatechartsStore): a fresh data model, no event
    /// I/O processor but SCXML's own, and Swift invocations of `invokerTypes`.
    package init(chart: SCXMLChart, sessionID id: String, invokerTypes: [String], limits: SCXMLLimits) {
        let info = SCXMLSessionInfo(
            id: id, name: chart.document.name, limits: limits, invokerTypes: invokerTypes.sorted())
        self.init(model: chart.dataModel.init(session: info), info: info)
    }

    /// Makes a data model decoded from an archive (kept in its archived form) live again, a new
    /// one of its own, of the first of `dataModels` that the archive names.
    ///
    /// - Throws: `DecodingError` when none of them is the archive's, or its variables do not
    ///   decode.
    package mutating func thawModel(with dataModels: [any SCXMLDataModel.Type]) throws {
        guard let archived = model as? ArchivedDataModel else { return }
        model = try archived.thawed(with: dataModels)
    }

    /// Puts the data model in its archived form: a value that shares nothing with the live model,
    /// which the machine goes on changing (a JavaScript virtual machine is a reference), to read
    /// and not to run. What a durable document's history keeps for each step.
    ///
    /// - Throws: `EncodingError` when the model holds a value no archive can keep.
    package mutating func freezeModel() throws {
        model = try ArchivedDataModel(freezing: model)
    }

    /// The invocation numbered `id` among those this session runs.
    package func invocation(_ id: InvocationID) -> SCXMLInvocation? {
        invocations.first { $0.id == id }
    }

    /// Binds `_event` in the data model.
    public mutating func bind(_ event: ProcessedEvent<SCXMLEvent>) {
        model.bind(Self.scxmlEvent(event))
    }

    /// The SCXML form of an event the machine processes: the event itself, or for the events the
    /// machine raises (`done.state.*`, `error.execution`, `error.communication`), a platform event;
    /// an error event's data says which element failed, where and why.
    static func scxmlEvent(_ event: ProcessedEvent<SCXMLEvent>) -> SCXMLEvent {
        if let own = event.event { return own }
        let evaluation = event.error as? SCXMLEvaluationError
        var data = event.doneData as? SCXMLValue
        if let failure = event.failure { data = SCXMLErrorData.value(of: failure, evaluation: evaluation) }
        return SCXMLEvent(event.name, data: data, type: .platform, sendID: evaluation?.sendID)
    }

    /// The event `prepared` sends in this session, kept at its first run; `nil` before.
    func preparedEvent(of prepared: PreparedSend) -> (event: SCXMLEvent, kind: Int32)? {
        // By index, so that the entries passed over are not copied.
        for index in preparedEvents.indices where preparedEvents[index].send === prepared {
            return (preparedEvents[index].event, preparedEvents[index].kind)
        }
        return nil
    }

    /// Keeps the event `prepared` sends in this session, while there is room.
    mutating func keep(_ event: SCXMLEvent, kind: Int32, sentBy prepared: PreparedSend) {
        guard preparedEvents.count < Self.preparedEventLimit else { return }
        preparedEvents.append(PreparedEvent(send: prepared, event: event, kind: kind))
    }

    /// A new send identifier, unique in the session.
    mutating func makeSendID() -> String {
        sendCounter += 1
        return "send.\(info.id).\(sendCounter)"
    }

    /// The session a `#_parent`, `#_scxml_SESSIONID` or `#_INVOKEID` target reaches from this
    /// session: itself, its parent or one of its running children; `nil` for any other.
    func reachableSession(_ target: String) -> String? {
        if target == "#_parent" { return parent?.sessionID }
        if target.hasPrefix("#_scxml_") {
            let id = String(target.dropFirst("#_scxml_".count))
            if id == info.id || id == parent?.sessionID { return id }
            return invocations.first { $0.childSessionID == id }?.childSessionID
        }
        let invokeID = String(target.dropFirst(2))
        return invocations.first { $0.invokeID == invokeID }?.childSessionID
    }
}

extension SCXMLContext: Codable {
    /// The data models a context can be decoded with, in a decoder's `userInfo`: an array of
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

    /// Decodes a context.
    ///
    /// The data model is kept in its archived form, a value that shares nothing with any session;
    /// ``SCXMLSession/init(chart:restoring:options:)`` makes it live, and says then if it cannot
    /// be read back.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the data model named is not among
    ///   ``dataModelsKey``'s types.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .dataModel)
        let models =
            decoder.userInfo[Self.dataModelsKey] as? [any SCXMLDataModel.Type] ?? SCXMLDocument.builtInDataModels
        guard models.contains(where: { $0.names.contains(name) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .dataModel, in: container, debugDescription: "the data model '\(name)' is not available")
        }
        let archived = try container.decode(ArchivedDataModel.self, forKey: .model)
        model = ArchivedDataModel(dataModel: name, encoded: archived.encoded)
        info = try container.decode(SCXMLSessionInfo.self, forKey: .info)
        initializedStates = try container.decode(Set<String>.self, forKey: .initializedStates)
        sendCounter = try container.decode(Int.self, forKey: .sendCounter)
        parent = try container.decodeIfPresent(SCXMLParentLink.self, forKey: .parent)
        parameters = try container.decodeIfPresent([String: SCXMLValue].self, forKey: .parameters) ?? [:]
        invocations = try container.decodeIfPresent([SCXMLInvocation].self, forKey: .invocations) ?? []
        invocationCounter = try container.decodeIfPresent(Int.self, forKey: .invocationCounter) ?? 0
    }

    /// Encodes the context: its data model's name and variables, its identity and counters.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let archived = model as? ArchivedDataModel {
            try container.encode(archived.dataModel, forKey: .dataModel)
        } else {
            try container.encode(type(of: model).names.sorted().first ?? "", forKey: .dataModel)
        }
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
