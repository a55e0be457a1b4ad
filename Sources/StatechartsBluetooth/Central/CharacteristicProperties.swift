/// What a characteristic allows (`CBCharacteristicProperties`), with CoreBluetooth's bit values.
public struct CharacteristicProperties: OptionSet, Hashable, Sendable, Codable {
    /// The bits.
    public var rawValue: UInt

    /// Properties from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Its value may be broadcast.
    public static let broadcast = CharacteristicProperties(rawValue: 0x01)
    /// Its value may be read.
    public static let read = CharacteristicProperties(rawValue: 0x02)
    /// It may be written without a response.
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    /// It may be written with a response.
    public static let write = CharacteristicProperties(rawValue: 0x08)
    /// It notifies its value, without acknowledgement.
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    /// It indicates its value, with acknowledgement.
    public static let indicate = CharacteristicProperties(rawValue: 0x20)
    /// It may be written with a signature.
    public static let authenticatedSignedWrites = CharacteristicProperties(rawValue: 0x40)
    /// It has extended properties.
    public static let extendedProperties = CharacteristicProperties(rawValue: 0x80)
}

/// A characteristic a discovery found, with what it allows.
public struct DiscoveredCharacteristic: Hashable, Sendable, Codable {
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID
    /// What it allows.
    public var properties: CharacteristicProperties

    /// A discovered characteristic.
    public init(uuid: BluetoothUUID, properties: CharacteristicProperties) {
        self.uuid = uuid
        self.properties = properties
    }
}
