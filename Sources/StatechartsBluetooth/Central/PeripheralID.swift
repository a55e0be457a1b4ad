import struct Foundation.UUID

/// A peripheral, by the identifier the system gives it (`CBPeripheral.identifier`), which stays
/// the same across launches and is what an app stores to find its device again.
public struct PeripheralID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The identifier.
    public var uuid: UUID

    /// A peripheral's identifier.
    public init(_ uuid: UUID) { self.uuid = uuid }

    /// The identifier's text.
    public var description: String { uuid.uuidString }
}

extension PeripheralID: CodingKeyRepresentable {
    /// The identifier's text, as a dictionary key in an archive.
    public var codingKey: any CodingKey { Key(stringValue: description) }

    /// The identifier a dictionary key names, if it is one.
    public init?<T: CodingKey>(codingKey: T) {
        guard let uuid = UUID(uuidString: codingKey.stringValue) else { return nil }
        self.init(uuid)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
