import struct Foundation.Data

/// What a ``BluetoothCentral`` reports: its delegates' calls, as values.
public enum CentralEvent: Hashable, Sendable {
    /// The radio's state changed (`centralManagerDidUpdateState`).
    case stateChanged(CentralState)
    /// The system relaunched the app and hands back the peripherals it kept for it, connected or
    /// not (`centralManager(_:willRestoreState:)`), before the state is known.
    case willRestore([RestoredPeripheral])
    /// A scan found a peripheral, or heard it again when duplicates are allowed (`didDiscover`).
    case discovered(PeripheralID, Advertisement, rssi: Int)
    /// A connection was made (`didConnect`).
    case connected(PeripheralID)
    /// A connection attempt failed (`didFailToConnect`).
    case failedToConnect(PeripheralID, BluetoothError?)
    /// A connection ended: with no error when the app cancelled it (`didDisconnectPeripheral`).
    case disconnected(PeripheralID, BluetoothError?)
    /// Services were discovered (`didDiscoverServices`): the ones found.
    case discoveredServices(PeripheralID, [BluetoothUUID], BluetoothError?)
    /// Characteristics of a service were discovered (`didDiscoverCharacteristicsFor`): the ones
    /// found, with their properties.
    case discoveredCharacteristics(PeripheralID, service: BluetoothUUID, [DiscoveredCharacteristic], BluetoothError?)
    /// Descriptors of a characteristic were discovered (`didDiscoverDescriptorsFor`).
    case discoveredDescriptors(PeripheralID, characteristic: CharacteristicID, [BluetoothUUID], BluetoothError?)
    /// A write with response finished (`didWriteValueFor`).
    case wroteValue(PeripheralID, characteristic: CharacteristicID, error: BluetoothError?)
    /// Writes without response are taken again (`peripheralIsReady(toSendWriteWithoutResponse:)`).
    case readyToSendWriteWithoutResponse(PeripheralID)
    /// A characteristic's value arrived, read or notified (`didUpdateValueFor`); `value` is `nil`
    /// when a read failed.
    case valueUpdated(PeripheralID, characteristic: CharacteristicID, value: Data?, error: BluetoothError?)
    /// Notifications were turned on or off (`didUpdateNotificationStateFor`).
    case notificationStateChanged(PeripheralID, characteristic: CharacteristicID, enabled: Bool, error: BluetoothError?)
    /// The signal strength of a connected peripheral was read, in dBm (`didReadRSSI`).
    case readRSSI(PeripheralID, rssi: Int, error: BluetoothError?)

    /// The peripheral the report is about, if any.
    public var peripheral: PeripheralID? {
        switch self {
        case .stateChanged, .willRestore: nil
        case .discovered(let id, _, _), .connected(let id), .failedToConnect(let id, _), .disconnected(let id, _),
            .discoveredServices(let id, _, _), .discoveredCharacteristics(let id, _, _, _),
            .discoveredDescriptors(let id, _, _, _), .wroteValue(let id, _, _),
            .readyToSendWriteWithoutResponse(let id),
            .valueUpdated(let id, _, _, _), .notificationStateChanged(let id, _, _, _), .readRSSI(let id, _, _):
            id
        }
    }
}
