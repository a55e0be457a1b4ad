#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the value of a ``StateData`` of a `Codable` type goes into a ``MachineArchive`` and comes
/// back: as JSON text, so that the archive itself needs no knowledge of the value's type.
struct StateDataCodec: Sendable {
    /// The JSON text of a value; `nil` when the value is not of the codec's type.
    let encode: @Sendable (any Sendable) throws -> String?
    /// The value of a JSON text.
    let decode: @Sendable (String) throws -> any Sendable

    init<Value: Sendable & Codable>(_ type: Value.Type) {
        encode = { value in
            guard let value = value as? Value else { return nil }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        decode = { text in try JSONDecoder().decode(Value.self, from: Data(text.utf8)) }
    }
}
