#if HTTP
import Foundation
import Statecharts

extension BasicHTTPEventProcessor: LiveEventProcessor {
    /// Why a live machine's send through the processor failed: the sender gets
    /// `error.communication` with this description.
    public struct DeliveryError: Error, Sendable, CustomStringConvertible {
        /// A sentence.
        public var description: String
    }

    /// POSTs an event a live machine of a `StatechartSystem` sent (`scope.send(event, to: url,
    /// type: "basichttp")`), as a document's `<send>` through the processor does: the name of the
    /// event's kind as `_scxmleventname`, and the event itself, when it is `Encodable`, as JSON in
    /// `_scxmldata`, which a session at the other end reads as the event's data. Returns once a
    /// `2xx` answered.
    ///
    /// - Throws: ``DeliveryError`` when the target is not an HTTP URL of an allowed host, too many
    ///   sends are under way, the event cannot be encoded, or the request fails or is answered
    ///   with another status.
    public func deliver(_ message: ProcessorMessage) async throws {
        if let refusal = refusal(of: message.target) { throw DeliveryError(description: refusal) }
        var pairs = message.name.isEmpty ? [] : ["_scxmleventname=" + Self.formEncode(message.name)]
        if let encodable = message.event as? any Encodable {
            let json: Data
            do {
                json = try JSONEncoder().encode(encodable)
            } catch {
                throw DeliveryError(description: "the event '\(message.name)' cannot be encoded as JSON: \(error)")
            }
            pairs.append("_scxmldata=" + Self.formEncode(String(decoding: json, as: UTF8.self)))
        }
        guard inbox.beginSend(limit: limits.maximumSendsInFlight) else {
            throw DeliveryError(description: "too many sends are under way")
        }
        defer { inbox.endSend(nil) }
        if let failure = await post(
            pairs.joined(separator: "&"), contentType: "application/x-www-form-urlencoded", query: nil,
            to: message.target, headers: [])
        {
            throw DeliveryError(description: failure)
        }
    }
}
#endif
