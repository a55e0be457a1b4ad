#if Store
import Foundation
import Statecharts

extension DurableEffect {
    /// The effect's JSON, as its `Codable` conformance writes it: an outbox entry's payload.
    ///
    /// A send and a log record, which are most of what a fleet's steps ask for, are written here
    /// around the event's own JSON from `encoder`, with their strings escaped by
    /// `Escaping.json(_:)`; the others go through `encoder` whole. Both read back with
    /// `JSONDecoder` as the same value (`OutboxPayloadTests`).
    ///
    /// - Throws: What `encoder` throws for a value that cannot be encoded.
    func payload(_ encoder: JSONEncoder) throws -> String {
        switch self {
        case .send(let event, let target, let type, let id):
            var text = #"{"send":{"event":"#
            text += String(decoding: try encoder.encode(event), as: UTF8.self)
            text += #","target":"#
            text += Escaping.json(target)
            if let type { text += #","type":"# + Escaping.json(type) }
            if let id { text += #","id":"# + Escaping.json(id) }
            return text + "}}"
        case .log(let label, let message):
            var text = #"{"log":{"#
            if let label { text += #""label":"# + Escaping.json(label) + "," }
            return text + #""message":"# + Escaping.json(message) + "}}"
        case .startInvocation, .cancelInvocation, .activity:
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }
}
#endif
