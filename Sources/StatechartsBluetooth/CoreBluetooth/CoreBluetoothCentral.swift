// The adapter from CoreBluetooth to ``BluetoothCentral``. On Apple platforms it is part of
// StatechartsBluetooth, on the real framework. Where CoreBluetooth is absent, the test target
// CoreBluetoothCentralTests and the target CoreBluetoothAdapterStandIn (for the documentation's
// app) compile this same file (symbolic links, with COREBLUETOOTH_STAND_IN defined) against a
// stand-in of the framework; on Apple platforms they leave it out.

#if COREBLUETOOTH_STAND_IN && !canImport(CoreBluetooth)
import CoreBluetoothStandIn
import StatechartsBluetooth
#elseif !COREBLUETOOTH_STAND_IN && canImport(CoreBluetooth)
import CoreBluetooth
#endif

#if (COREBLUETOOTH_STAND_IN && !canImport(CoreBluetooth)) || (!COREBLUETOOTH_STAND_IN && canImport(CoreBluetooth))
import Dispatch
import Foundation

/// A ``BluetoothCentral`` on CoreBluetooth: one `CBCentralManager`, its peripherals, and
/// their delegates, on a serial queue of its own.
///
/// Commands are given on the queue, in the order they are made; the delegates' calls become
/// ``CentralEvent`` values on the streams of ``events()``. Peripherals are named by their
/// identifiers, services and characteristics by UUID: the adapter keeps the `CBPeripheral`
/// objects (CoreBluetooth requires a strong reference to connect), and finds the
/// `CBService` and `CBCharacteristic` objects a command needs among those discovered. A
/// command on something not discovered (or a peripheral not known) is answered with the
/// error CoreBluetooth would give, as an event, so the caller always hears back.
///
/// With a restoration identifier the system relaunches the app for its peripherals and hands
/// them back (`centralManager(_:willRestoreState:)`): they come first on every stream, as
/// ``CentralEvent/willRestore(_:)``, and ``BluetoothConnection`` resumes with them once
/// Bluetooth is on.
///
/// ```swift
/// let central = CoreBluetoothCentral(restorationIdentifier: "com.example.thermometer")
/// let connection = try BluetoothConnection(central: central, configuration: configuration)
/// ```
public final class CoreBluetoothCentral: NSObject, BluetoothCentral, @unchecked Sendable {
    // @unchecked: every CoreBluetooth object below is touched on `queue` only.
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<Bool>()
    private let hub = CentralEventHub()
    private var manager: CBCentralManager?
    /// The peripherals seen (discovered, retrieved, restored), by identifier.
    private var peripherals: [UUID: CBPeripheral] = [:]

    /// A central on CoreBluetooth.
    ///
    /// - Parameters:
    ///   - restorationIdentifier: Names the central to the system, so that it relaunches the
    ///     app for its peripherals (`CBCentralManagerOptionRestoreIdentifierKey`). Set it with
    ///     the `bluetooth-central` background mode, and make the central at launch.
    ///   - showPowerAlert: Whether the system asks the user to turn Bluetooth on
    ///     (`CBCentralManagerOptionShowPowerAlertKey`).
    ///   - label: The label of the central's queue.
    public init(
        restorationIdentifier: String? = nil, showPowerAlert: Bool = false,
        label: String = "StatechartsBluetooth.CoreBluetoothCentral"
    ) {
        queue = DispatchQueue(label: label)
        super.init()
        queue.setSpecific(key: queueKey, value: true)
        var options: [String: Any] = [CBCentralManagerOptionShowPowerAlertKey: showPowerAlert]
        if let restorationIdentifier { options[CBCentralManagerOptionRestoreIdentifierKey] = restorationIdentifier }
        // Made on the queue: the delegate may be called as soon as it exists.
        onQueue { manager = CBCentralManager(delegate: self, queue: queue, options: options) }
    }

    deinit { hub.finish() }

    /// The manager, for what the adapter does not cover; use it on ``run(_:)``'s queue only.
    public func run<T>(_ body: (CBCentralManager?) -> T) -> T { onQueue { body(manager) } }

    // MARK: - BluetoothCentral

    /// The radio's state, as last reported.
    public var state: CentralState { hub.state }

    /// A new subscriber's stream: the restoration at launch if any, the state, then every report.
    public func events() -> AsyncStream<CentralEvent> { hub.subscribe() }

    /// Starts a scan (`scanForPeripherals(withServices:options:)`); no services means any.
    public func scanForPeripherals(withServices services: [BluetoothUUID], options: ScanOptions) {
        queue.async { [self] in
            var scanOptions: [String: Any] = [CBCentralManagerScanOptionAllowDuplicatesKey: options.allowDuplicates]
            if !options.solicitedServices.isEmpty {
                scanOptions[CBCentralManagerScanOptionSolicitedServiceUUIDsKey] = options.solicitedServices.map(
                    Self.cbUUID)
            }
            manager?.scanForPeripherals(
                withServices: services.isEmpty ? nil : services.map(Self.cbUUID), options: scanOptions)
        }
    }

    /// Stops the scan.
    public func stopScan() { queue.async { [self] in manager?.stopScan() } }

    /// Asks for a connection; one to a peripheral never seen fails with `unknownDevice`.
    public func connect(_ peripheral: PeripheralID) {
        queue.async { [self] in
            guard let manager, let target = known(peripheral) else {
                return hub.publish(.failedToConnect(peripheral, BluetoothError(.unknownDevice)))
            }
            target.delegate = self
            manager.connect(target, options: nil)
        }
    }

    /// Cancels a connection or an attempt.
    public func cancelPeripheralConnection(_ peripheral: PeripheralID) {
        queue.async { [self] in
            guard let target = known(peripheral) else { return }
            manager?.cancelPeripheralConnection(target)
        }
    }

    /// The peripherals among `identifiers` the system knows; they are kept for ``connect(_:)``.
    public func retrievePeripherals(withIdentifiers identifiers: [PeripheralID]) -> [PeripheralID] {
        onQueue {
            let found = manager?.retrievePeripherals(withIdentifiers: identifiers.map(\.uuid)) ?? []
            for peripheral in found { peripherals[peripheral.identifier] = peripheral }
            return found.map { PeripheralID($0.identifier) }
        }
    }

    /// The peripherals connected to the system that offer one of `services`; they are kept.
    public func retrieveConnectedPeripherals(withServices services: [BluetoothUUID]) -> [PeripheralID] {
        onQueue {
            let found = manager?.retrieveConnectedPeripherals(withServices: services.map(Self.cbUUID)) ?? []
            for peripheral in found { peripherals[peripheral.identifier] = peripheral }
            return found.map { PeripheralID($0.identifier) }
        }
    }

    /// Discovers services.
    public func discoverServices(_ services: [BluetoothUUID]?, of peripheral: PeripheralID) {
        queue.async { [self] in
            guard let target = connected(peripheral) else {
                return hub.publish(.discoveredServices(peripheral, [], BluetoothError(.notConnected)))
            }
            target.discoverServices(services?.map(Self.cbUUID))
        }
    }

    /// Discovers a discovered service's characteristics; an undiscovered service fails with
    /// `invalidParameters`.
    public func discoverCharacteristics(
        _ characteristics: [BluetoothUUID]?, of service: BluetoothUUID, of peripheral: PeripheralID
    ) {
        queue.async { [self] in
            guard let target = connected(peripheral) else {
                return hub.publish(
                    .discoveredCharacteristics(peripheral, service: service, [], BluetoothError(.notConnected)))
            }
            guard let found = target.services?.first(where: { $0.uuid == Self.cbUUID(service) }) else {
                return hub.publish(
                    .discoveredCharacteristics(peripheral, service: service, [], BluetoothError(.invalidParameters)))
            }
            target.discoverCharacteristics(characteristics?.map(Self.cbUUID), for: found)
        }
    }

    /// Discovers a discovered characteristic's descriptors.
    public func discoverDescriptors(of characteristic: CharacteristicID, of peripheral: PeripheralID) {
        withCharacteristic(characteristic, of: peripheral) { target, found in
            target.discoverDescriptors(for: found)
        } failing: { error in
            .discoveredDescriptors(peripheral, characteristic: characteristic, [], error)
        }
    }

    /// Reads a characteristic.
    public func readValue(of characteristic: CharacteristicID, of peripheral: PeripheralID) {
        withCharacteristic(characteristic, of: peripheral) { target, found in
            target.readValue(for: found)
        } failing: { error in
            .valueUpdated(peripheral, characteristic: characteristic, value: nil, error: error)
        }
    }

    /// Writes a characteristic; a write without response to something not discovered is
    /// dropped, as CoreBluetooth reports nothing for those.
    public func writeValue(
        _ value: Data, to characteristic: CharacteristicID, of peripheral: PeripheralID, type: WriteType
    ) {
        withCharacteristic(characteristic, of: peripheral) { target, found in
            target.writeValue(value, for: found, type: type == .withResponse ? .withResponse : .withoutResponse)
        } failing: { error in
            type == .withResponse ? .wroteValue(peripheral, characteristic: characteristic, error: error) : nil
        }
    }

    /// Whether a write without response would be taken now.
    public func canSendWriteWithoutResponse(to peripheral: PeripheralID) -> Bool {
        onQueue { connected(peripheral)?.canSendWriteWithoutResponse ?? false }
    }

    /// Turns notifications on or off.
    public func setNotifyValue(_ enabled: Bool, for characteristic: CharacteristicID, of peripheral: PeripheralID) {
        withCharacteristic(characteristic, of: peripheral) { target, found in
            target.setNotifyValue(enabled, for: found)
        } failing: { error in
            .notificationStateChanged(peripheral, characteristic: characteristic, enabled: false, error: error)
        }
    }

    /// Reads the signal strength of a connected peripheral.
    public func readRSSI(of peripheral: PeripheralID) {
        queue.async { [self] in
            guard let target = connected(peripheral) else {
                return hub.publish(.readRSSI(peripheral, rssi: 0, error: BluetoothError(.notConnected)))
            }
            target.readRSSI()
        }
    }

    /// The most bytes one write of `type` carries; 20 (the least) when not connected.
    public func maximumWriteValueLength(for peripheral: PeripheralID, type: WriteType) -> Int {
        onQueue {
            connected(peripheral)?.maximumWriteValueLength(
                for: type == .withResponse ? .withResponse : .withoutResponse) ?? 20
        }
    }

    // MARK: - Doing it on the queue

    /// Runs `body` on the queue, at once when already on it.
    private func onQueue<T>(_ body: () -> T) -> T {
        DispatchQueue.getSpecific(key: queueKey) == true ? body() : queue.sync(execute: body)
    }

    private func known(_ peripheral: PeripheralID) -> CBPeripheral? {
        if let kept = peripherals[peripheral.uuid] { return kept }
        guard let found = manager?.retrievePeripherals(withIdentifiers: [peripheral.uuid]).first else { return nil }
        peripherals[peripheral.uuid] = found
        return found
    }

    private func connected(_ peripheral: PeripheralID) -> CBPeripheral? {
        guard let target = peripherals[peripheral.uuid], target.state == .connected else { return nil }
        return target
    }

    /// Runs `command` on the queue with the discovered characteristic, or publishes what
    /// `failing` makes of the error when the peripheral is not connected (`notConnected`) or
    /// the characteristic not discovered (`attributeNotFound`).
    private func withCharacteristic(
        _ characteristic: CharacteristicID, of peripheral: PeripheralID,
        _ command: @escaping @Sendable (CBPeripheral, CBCharacteristic) -> Void,
        failing: @escaping @Sendable (BluetoothError) -> CentralEvent?
    ) {
        queue.async { [self] in
            guard let target = connected(peripheral) else {
                if let event = failing(BluetoothError(.notConnected)) { hub.publish(event) }
                return
            }
            let service = target.services?.first { $0.uuid == Self.cbUUID(characteristic.service) }
            guard let found = service?.characteristics?.first(where: { $0.uuid == Self.cbUUID(characteristic.uuid) })
            else {
                if let event = failing(BluetoothError(attribute: .attributeNotFound)) { hub.publish(event) }
                return
            }
            command(target, found)
        }
    }

    // MARK: - Values between the two

    static func cbUUID(_ uuid: BluetoothUUID) -> CBUUID { CBUUID(string: uuid.text) }

    static func uuid(_ uuid: CBUUID) -> BluetoothUUID { BluetoothUUID(uuid.uuidString) }

    static func centralState(_ state: CBManagerState) -> CentralState {
        switch state {
        case .poweredOn: .poweredOn
        case .poweredOff: .poweredOff
        case .resetting: .resetting
        case .unauthorized: .unauthorized
        case .unsupported: .unsupported
        default: .unknown
        }
    }

    /// The kit's error for what CoreBluetooth reported: its `CBError` and `CBATTError` codes,
    /// else `unknown`.
    static func bluetoothError(_ error: (any Error)?) -> BluetoothError? {
        guard let error else { return nil }
        if let attribute = error as? CBATTError {
            return BluetoothError(
                attribute: BluetoothError.AttributeCode(rawValue: attribute.code.rawValue) ?? .unlikelyError)
        }
        if let central = error as? CBError {
            return BluetoothError(BluetoothError.Code(rawValue: central.code.rawValue) ?? .unknown)
        }
        return BluetoothError(.unknown)
    }

    static func characteristicID(_ characteristic: CBCharacteristic) -> CharacteristicID {
        CharacteristicID(service: characteristic.service.map { uuid($0.uuid) } ?? "", uuid: uuid(characteristic.uuid))
    }

    /// The advertisement data of a discovery, as a value.
    static func advertisement(_ data: [String: Any]) -> Advertisement {
        let uuids = { (key: String) in (data[key] as? [CBUUID])?.map(uuid) ?? [] }
        var serviceData: [BluetoothUUID: Data] = [:]
        for (service, value) in data[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data] ?? [:] {
            serviceData[uuid(service)] = value
        }
        return Advertisement(
            localName: data[CBAdvertisementDataLocalNameKey] as? String,
            manufacturerData: data[CBAdvertisementDataManufacturerDataKey] as? Data, serviceData: serviceData,
            serviceUUIDs: uuids(CBAdvertisementDataServiceUUIDsKey),
            overflowServiceUUIDs: uuids(CBAdvertisementDataOverflowServiceUUIDsKey),
            solicitedServiceUUIDs: uuids(CBAdvertisementDataSolicitedServiceUUIDsKey),
            txPowerLevel: (data[CBAdvertisementDataTxPowerLevelKey] as? NSNumber)?.intValue,
            isConnectable: (data[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue)
    }
}

extension CoreBluetoothCentral: CBCentralManagerDelegate {
    /// Reports the new state.
    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        hub.publish(.stateChanged(Self.centralState(central.state)))
    }

    /// Keeps the restored peripherals and reports them.
    public func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        let restored = dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral] ?? []
        for peripheral in restored {
            peripheral.delegate = self
            peripherals[peripheral.identifier] = peripheral
        }
        hub.publish(
            .willRestore(
                restored.map {
                    RestoredPeripheral(id: PeripheralID($0.identifier), isConnected: $0.state == .connected)
                }))
    }

    /// Keeps the peripheral and reports what it advertises.
    public func centralManager(
        _ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any],
        rssi RSSI: NSNumber
    ) {
        peripherals[peripheral.identifier] = peripheral
        hub.publish(
            .discovered(PeripheralID(peripheral.identifier), Self.advertisement(advertisementData), rssi: RSSI.intValue)
        )
    }

    /// Reports the connection.
    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        hub.publish(.connected(PeripheralID(peripheral.identifier)))
    }

    /// Reports the failed attempt.
    public func centralManager(
        _ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?
    ) {
        hub.publish(.failedToConnect(PeripheralID(peripheral.identifier), Self.bluetoothError(error)))
    }

    /// Reports the disconnection.
    public func centralManager(
        _ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?
    ) {
        hub.publish(.disconnected(PeripheralID(peripheral.identifier), Self.bluetoothError(error)))
    }
}

extension CoreBluetoothCentral: CBPeripheralDelegate {
    /// Reports the services discovered.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        let services = (peripheral.services ?? []).map { Self.uuid($0.uuid) }
        hub.publish(.discoveredServices(PeripheralID(peripheral.identifier), services, Self.bluetoothError(error)))
    }

    /// Reports a service's characteristics, with their properties.
    public func peripheral(
        _ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?
    ) {
        let characteristics = (service.characteristics ?? []).map {
            DiscoveredCharacteristic(
                uuid: Self.uuid($0.uuid), properties: CharacteristicProperties(rawValue: $0.properties.rawValue))
        }
        hub.publish(
            .discoveredCharacteristics(
                PeripheralID(peripheral.identifier), service: Self.uuid(service.uuid), characteristics,
                Self.bluetoothError(error)))
    }

    /// Reports a characteristic's descriptors.
    public func peripheral(
        _ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?
    ) {
        hub.publish(
            .discoveredDescriptors(
                PeripheralID(peripheral.identifier), characteristic: Self.characteristicID(characteristic),
                (characteristic.descriptors ?? []).map { Self.uuid($0.uuid) }, Self.bluetoothError(error)))
    }

    /// Reports a value read or notified.
    public func peripheral(
        _ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?
    ) {
        let failure = Self.bluetoothError(error)
        hub.publish(
            .valueUpdated(
                PeripheralID(peripheral.identifier), characteristic: Self.characteristicID(characteristic),
                value: failure == nil ? characteristic.value ?? Data() : nil, error: failure))
    }

    /// Reports a write with response done.
    public func peripheral(
        _ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?
    ) {
        hub.publish(
            .wroteValue(
                PeripheralID(peripheral.identifier), characteristic: Self.characteristicID(characteristic),
                error: Self.bluetoothError(error)))
    }

    /// Reports notifications turned on or off.
    public func peripheral(
        _ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic,
        error: (any Error)?
    ) {
        hub.publish(
            .notificationStateChanged(
                PeripheralID(peripheral.identifier), characteristic: Self.characteristicID(characteristic),
                enabled: characteristic.isNotifying, error: Self.bluetoothError(error)))
    }

    /// Reports the signal strength read.
    public func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) {
        hub.publish(
            .readRSSI(PeripheralID(peripheral.identifier), rssi: RSSI.intValue, error: Self.bluetoothError(error)))
    }

    /// Reports that writes without response are taken again.
    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        hub.publish(.readyToSendWriteWithoutResponse(PeripheralID(peripheral.identifier)))
    }
}
#endif
