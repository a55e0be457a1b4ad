/// A characteristic, by its service's UUID and its own: two services may have characteristics
/// with the same UUID, and CoreBluetooth keeps them apart.
public struct CharacteristicID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The service the characteristic belongs to.
    public var service: BluetoothUUID
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID

    /// The characteristic `uuid` of `service`.
    public init(service: BluetoothUUID, uuid: BluetoothUUID) {
        self.service = service
        self.uuid = uuid
    }

    /// `service/characteristic`.
    public var description: String { "\(service)/\(uuid)" }
}
