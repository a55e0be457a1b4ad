/// How a characteristic is written (`CBCharacteristicWriteType`).
public enum WriteType: Hashable, Sendable, Codable {
    /// The peripheral confirms each write; one is in flight at a time.
    case withResponse
    /// Writes are not confirmed and go out as fast as the link takes them, paced by
    /// ``BluetoothCentral/canSendWriteWithoutResponse(to:)``.
    case withoutResponse
}
