#if Inspector
import Foundation

/// A JSON value: an event's data, a machine's data model or context as the inspector shows them.
public enum InspectorValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([InspectorValue])
    /// An object.
    case object([String: InspectorValue])

    /// Decodes any JSON value.
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
        } else if let value = try? container.decode([InspectorValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: InspectorValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value of anything `Encodable`, through its JSON encoding; `nil` when it cannot be encoded.
    public init?(encoding value: any Encodable) {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        guard let data = try? encoder.encode(value),
            let decoded = try? JSONDecoder().decode(InspectorValue.self, from: data)
        else { return nil }
        self = decoded
    }

    /// The member `key` of an object; `nil` for anything else.
    public subscript(key: String) -> InspectorValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
#endif
