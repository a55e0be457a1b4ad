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
        return SCXMLEvent(event.name, data: event.doneData as? SCXMLValue, type: .platform)
    }

    /// A new send identifier, unique in the session.
    mutating func makeSendID() -> String {
        sendCounter += 1
        return "send.\(info.id).\(sendCounter)"
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
