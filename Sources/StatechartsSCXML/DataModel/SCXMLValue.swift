import Foundation
import Statecharts

/// A data value of an SCXML session: event data, done data, parameters. The shape of JSON, and
/// XML content.
public enum SCXMLValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// No value (ECMAScript's `null`).
    case null
    /// A boolean.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// A list.
    case array([SCXMLValue])
    /// A record.
    case object([String: SCXMLValue])
    /// XML content, as its markup: what `<content>` with XML children sends. A data model with a
    /// DOM (ECMAScript's) gives it to documents as one; in JSON it is written as
    /// `{"$xml": "markup"}`.
    case xml(String)

    /// The key that marks XML content in JSON.
    static let xmlKey = "$xml"

    /// The value of a JSON text, or `nil` if it is not JSON.
    public init?(json: String) {
        guard let value = try? JSONDecoder().decode(SCXMLValue.self, from: Data(json.utf8)) else { return nil }
        self = value
    }

    /// The value as JSON text, with keys sorted.
    public var json: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return value.isFinite ? "\(value)" : "null"
        case .string(let value): return Escaping.json(value)
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let values):
            return "{"
                + values.keys.sorted().map { Escaping.json($0) + ":" + (values[$0]?.json ?? "null") }.joined(
                    separator: ",") + "}"
        case .xml(let markup):
            return "{" + Escaping.json(Self.xmlKey) + ":" + Escaping.json(markup) + "}"
        }
    }

    /// The text of a string value, the markup of XML content, and JSON for any other.
    public var description: String {
        if case .string(let text) = self { return text }
        if case .xml(let markup) = self { return markup }
        return json
    }

    // MARK: - Codable, as JSON values

    /// Decodes a JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SCXMLValue].self) {
            self = .array(value)
        } else {
            let object = try container.decode([String: SCXMLValue].self)
            if object.count == 1, case .string(let markup)? = object[Self.xmlKey] {
                self = .xml(markup)
            } else {
                self = .object(object)
            }
        }
    }

    /// Encodes the value as a JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let values): try container.encode(values)
        case .xml(let markup): try container.encode([Self.xmlKey: markup])
        }
    }
}
