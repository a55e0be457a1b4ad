import struct Foundation.Data
import struct Foundation.UUID

/// The central side of Bluetooth LE, as CoreBluetooth's `CBCentralManager` and `CBPeripheral`
/// offer it, without the platform: what ``BluetoothConnection`` drives.
///
/// Commands are synchronous and return at once, as CoreBluetooth's do; what they lead to comes
/// back later on ``events``, in the order the delegate methods of `CBCentralManagerDelegate`
/// and `CBPeripheralDelegate` would be called. ``SimulatedCentral`` implements it for tests and
/// demos; an app implements it over CoreBluetooth in one thin adapter.
public protocol BluetoothCentral: AnyObject, Sendable {
    /// The radio's state now (`CBCentralManager.state`).
    var state: CentralState { get }
    /// What the central reports, one stream for the manager's and the peripherals' delegates.
    var events: AsyncStream<CentralEvent> { get }

    /// Starts looking for peripherals that advertise one of `services` (`scanForPeripherals`).
    func scanForPeripherals(withServices services: [BluetoothUUID])
    /// Stops looking (`stopScan`).
    func stopScan()
    /// Asks for a connection; it does not time out (`connect`). A peripheral out of range is
    /// connected when it comes back.
    func connect(_ peripheral: PeripheralID)
    /// Cancels a connection or a pending connection attempt (`cancelPeripheralConnection`).
    func cancelPeripheralConnection(_ peripheral: PeripheralID)
    /// The known peripherals among `identifiers` (`retrievePeripherals(withIdentifiers:)`).
    func retrievePeripherals(withIdentifiers identifiers: [PeripheralID]) -> [PeripheralID]
    /// The peripherals connected to the system that offer one of `services`
    /// (`retrieveConnectedPeripherals(withServices:)`).
    func retrieveConnectedPeripherals(withServices services: [BluetoothUUID]) -> [PeripheralID]
    /// Discovers `services` of a connected peripheral (`discoverServices`).
    func discoverServices(_ services: [BluetoothUUID], of peripheral: PeripheralID)
    /// Discovers `characteristics` of a service (`discoverCharacteristics(_:for:)`).
    func discoverCharacteristics(
        _ characteristics: [BluetoothUUID], of service: BluetoothUUID, of peripheral: PeripheralID)
    /// Writes `value` to a characteristic, with a response (`writeValue(_:for:type:)`): a
    /// ``CentralEvent/wroteValue(_:characteristic:error:)`` follows.
    func writeValue(_ value: Data, to characteristic: BluetoothUUID, of peripheral: PeripheralID)
    /// Turns notifications of a characteristic on or off (`setNotifyValue(_:for:)`).
    func setNotifyValue(_ enabled: Bool, for characteristic: BluetoothUUID, of peripheral: PeripheralID)
    /// The most bytes one write carries on the connection (`maximumWriteValueLength(for:)`).
    func maximumWriteValueLength(for peripheral: PeripheralID) -> Int
}

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

/// A service or characteristic UUID (`CBUUID`), as its text: `"180D"` or a full UUID.
public struct BluetoothUUID: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The UUID's text, upper-cased.
    public var text: String

    /// A UUID from its text.
    public init(_ text: String) { self.text = text.uppercased() }

    /// A UUID from a literal.
    public init(stringLiteral text: String) { self.init(text) }

    /// The UUID's text.
    public var description: String { text }
}

/// The radio's state (`CBManagerState`).
public enum CentralState: String, Hashable, Sendable, Codable {
    /// Not known yet: the state right after launch.
    case unknown
    /// The connection to the system service was lost and is being restored.
    case resetting
    /// The device has no Bluetooth LE.
    case unsupported
    /// The app may not use Bluetooth.
    case unauthorized
    /// Bluetooth is off.
    case poweredOff
    /// Bluetooth is on and ready.
    case poweredOn
}

/// An error a central reports, with CoreBluetooth's codes (`CBError.Code`).
public struct BluetoothError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Int, Hashable, Sendable, Codable {
        /// An unknown error: on a disconnect, most often the device going out of range.
        case unknown = 0
        /// The parameters were invalid.
        case invalidParameters = 1
        /// The handle was invalid.
        case invalidHandle = 2
        /// The peripheral is not connected.
        case notConnected = 3
        /// The device is out of space.
        case outOfSpace = 4
        /// The operation was cancelled.
        case operationCancelled = 5
        /// The connection timed out: the device went out of range.
        case connectionTimeout = 6
        /// The peripheral disconnected.
        case peripheralDisconnected = 7
        /// The UUID is not allowed.
        case uuidNotAllowed = 8
        /// The peripheral is already advertising.
        case alreadyAdvertising = 9
        /// The connection failed.
        case connectionFailed = 10
        /// The device reached its connection limit.
        case connectionLimitReached = 11
        /// The device is unknown.
        case unknownDevice = 12
        /// The operation is not supported.
        case operationNotSupported = 13
        /// The peer removed its pairing information.
        case peerRemovedPairingInformation = 14
        /// The encryption timed out.
        case encryptionTimedOut = 15
    }

    /// What went wrong.
    public var code: Code

    /// An error with a code.
    public init(_ code: Code) { self.code = code }

    /// Whether a disconnect with this error means the device went out of range and may come
    /// back, so that connecting again (with no timeout) is the right answer.
    public var meansOutOfRange: Bool {
        switch code {
        case .unknown, .connectionTimeout, .peripheralDisconnected, .connectionFailed: true
        default: false
        }
    }

    /// The code's name.
    public var description: String { "\(code) (\(code.rawValue))" }
}

/// What a ``BluetoothCentral`` reports: its delegates' calls, as values.
public enum CentralEvent: Hashable, Sendable {
    /// The radio's state changed (`centralManagerDidUpdateState`).
    case stateChanged(CentralState)
    /// The system relaunched the app and hands back the peripherals it kept for it, connected or
    /// not (`centralManager(_:willRestoreState:)`), before the state is known.
    case willRestore([RestoredPeripheral])
    /// A scan found a peripheral (`didDiscover`).
    case discovered(PeripheralID, rssi: Int)
    /// A connection was made (`didConnect`).
    case connected(PeripheralID)
    /// A connection attempt failed (`didFailToConnect`).
    case failedToConnect(PeripheralID, BluetoothError?)
    /// A connection ended: with no error when the app cancelled it (`didDisconnectPeripheral`).
    case disconnected(PeripheralID, BluetoothError?)
    /// Services were discovered (`didDiscoverServices`): the ones found.
    case discoveredServices(PeripheralID, [BluetoothUUID], BluetoothError?)
    /// Characteristics of a service were discovered (`didDiscoverCharacteristicsFor`).
    case discoveredCharacteristics(PeripheralID, service: BluetoothUUID, [BluetoothUUID], BluetoothError?)
    /// A write with response finished (`didWriteValueFor`).
    case wroteValue(PeripheralID, characteristic: BluetoothUUID, error: BluetoothError?)
    /// A notified characteristic's value arrived (`didUpdateValueFor`).
    case valueUpdated(PeripheralID, characteristic: BluetoothUUID, Data)
    /// Notifications were turned on or off (`didUpdateNotificationStateFor`).
    case notificationStateChanged(PeripheralID, characteristic: BluetoothUUID, enabled: Bool, error: BluetoothError?)
}

/// A peripheral the system kept for the app across a relaunch.
public struct RestoredPeripheral: Hashable, Sendable, Codable {
    /// The peripheral.
    public var id: PeripheralID
    /// Whether it is still connected.
    public var isConnected: Bool

    /// A restored peripheral.
    public init(id: PeripheralID, isConnected: Bool) {
        self.id = id
        self.isConnected = isConnected
    }
}
