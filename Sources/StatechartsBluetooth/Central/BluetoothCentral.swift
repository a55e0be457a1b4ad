import struct Foundation.Data

/// The central side of Bluetooth LE, as CoreBluetooth's `CBCentralManager` and `CBPeripheral`
/// offer it, without the platform: what ``BluetoothConnection`` drives.
///
/// Commands are synchronous and return at once, as CoreBluetooth's do; what they lead to comes
/// back later on the streams of ``events()``, in the order the delegate methods of
/// `CBCentralManagerDelegate` and `CBPeripheralDelegate` are called. `CoreBluetoothCentral`
/// implements it over CoreBluetooth on Apple platforms, and ``SimulatedCentral`` for tests and
/// demos anywhere.
///
/// Services and characteristics are named by UUID, and a characteristic by its service too
/// (``CharacteristicID``): two services may each have a characteristic with the same UUID.
public protocol BluetoothCentral: AnyObject, Sendable {
    /// The radio's state now (`CBCentralManager.state`).
    var state: CentralState { get }

    /// A new stream of what the central reports, for one subscriber: every call makes its own.
    ///
    /// The stream starts with what the central knows already, so that a late subscriber is not
    /// behind: the restoration the system made at launch, if any (``CentralEvent/willRestore(_:)``),
    /// then the current state (``CentralEvent/stateChanged(_:)``). Then comes every report from
    /// the moment of the call on. A stream ends when the subscriber stops iterating or the
    /// central is released.
    func events() -> AsyncStream<CentralEvent>

    /// Starts looking for peripherals that advertise one of `services`, or any peripheral when
    /// `services` is empty (`scanForPeripherals(withServices:options:)`).
    func scanForPeripherals(withServices services: [BluetoothUUID], options: ScanOptions)
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

    /// Discovers `services` of a connected peripheral, or all of them when `nil`
    /// (`discoverServices`).
    func discoverServices(_ services: [BluetoothUUID]?, of peripheral: PeripheralID)
    /// Discovers `characteristics` of a discovered service, or all of them when `nil`
    /// (`discoverCharacteristics(_:for:)`).
    func discoverCharacteristics(
        _ characteristics: [BluetoothUUID]?, of service: BluetoothUUID, of peripheral: PeripheralID)
    /// Discovers the descriptors of a discovered characteristic (`discoverDescriptors(for:)`).
    func discoverDescriptors(of characteristic: CharacteristicID, of peripheral: PeripheralID)

    /// Reads a characteristic's value (`readValue(for:)`): a
    /// ``CentralEvent/valueUpdated(_:characteristic:value:error:)`` follows.
    func readValue(of characteristic: CharacteristicID, of peripheral: PeripheralID)
    /// Writes `value` to a characteristic (`writeValue(_:for:type:)`).
    ///
    /// With ``WriteType/withResponse`` a ``CentralEvent/wroteValue(_:characteristic:error:)``
    /// follows. With ``WriteType/withoutResponse`` nothing does, and the write is dropped unless
    /// ``canSendWriteWithoutResponse(to:)`` was true: wait for
    /// ``CentralEvent/readyToSendWriteWithoutResponse(_:)`` when it is false.
    func writeValue(_ value: Data, to characteristic: CharacteristicID, of peripheral: PeripheralID, type: WriteType)
    /// Whether a write without response would be taken now (`canSendWriteWithoutResponse`).
    func canSendWriteWithoutResponse(to peripheral: PeripheralID) -> Bool
    /// Turns notifications of a characteristic on or off (`setNotifyValue(_:for:)`).
    func setNotifyValue(_ enabled: Bool, for characteristic: CharacteristicID, of peripheral: PeripheralID)
    /// Reads the signal strength of a connected peripheral (`readRSSI`): a
    /// ``CentralEvent/readRSSI(_:rssi:error:)`` follows.
    func readRSSI(of peripheral: PeripheralID)
    /// The most bytes one write of `type` carries on the connection
    /// (`maximumWriteValueLength(for:)`).
    func maximumWriteValueLength(for peripheral: PeripheralID, type: WriteType) -> Int
}

extension BluetoothCentral {
    /// Starts looking for peripherals that advertise one of `services`, with the default options.
    public func scanForPeripherals(withServices services: [BluetoothUUID]) {
        scanForPeripherals(withServices: services, options: ScanOptions())
    }
}
