#if !canImport(CoreBluetooth)
import Foundation

/// https://developer.apple.com/documentation/corebluetooth/cbpeer
open class CBPeer: NSObject {
    /// https://developer.apple.com/documentation/corebluetooth/cbpeer/identifier
    open var identifier: UUID { storedIdentifier }
    let storedIdentifier: UUID

    init(identifier: UUID) {
        storedIdentifier = identifier
        super.init()
    }
}

/// https://developer.apple.com/documentation/corebluetooth/cbperipheralstate
public enum CBPeripheralState: Int, Sendable {
    case disconnected = 0
    case connecting = 1
    case connected = 2
    case disconnecting = 3
}

/// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicwritetype
public enum CBCharacteristicWriteType: Int, Sendable {
    case withResponse = 0
    case withoutResponse = 1
}

/// https://developer.apple.com/documentation/corebluetooth/cbperipheral
///
/// Commands go to its manager's `onCommand`, as ``CBCentralManager``'s do.
open class CBPeripheral: CBPeer {
    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/delegate
    weak open var delegate: (any CBPeripheralDelegate)?
    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/name
    open package(set) var name: String?
    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/state
    open package(set) var state: CBPeripheralState = .disconnected
    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/services
    open package(set) var services: [CBService]?
    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/cansendwritewithoutresponse
    open package(set) var canSendWriteWithoutResponse = true

    /// The manager whose commands it records.
    package weak var manager: CBCentralManager?
    /// The services it advertises, for `retrieveConnectedPeripherals(withServices:)`.
    package var advertisedServices: [CBUUID] = []
    /// The most bytes a write of each type carries.
    package var writeLengths: [CBCharacteristicWriteType: Int] = [.withResponse: 512, .withoutResponse: 182]

    /// A peripheral the tests make (Apple's has no public initializer).
    package init(identifier: UUID, name: String?, manager: CBCentralManager) {
        self.name = name
        self.manager = manager
        super.init(identifier: identifier)
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/discoverservices(_:)
    open func discoverServices(_ serviceUUIDs: [CBUUID]?) { manager?.record(.discoverServices(self, serviceUUIDs)) }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/discovercharacteristics(_:for:)
    open func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?, for service: CBService) {
        manager?.record(.discoverCharacteristics(self, characteristicUUIDs, service))
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/discoverdescriptors(for:)
    open func discoverDescriptors(for characteristic: CBCharacteristic) {
        manager?.record(.discoverDescriptors(self, characteristic))
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/readvalue(for:)-1d6xk
    open func readValue(for characteristic: CBCharacteristic) { manager?.record(.readValue(self, characteristic)) }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/writevalue(_:for:type:)
    open func writeValue(_ data: Data, for characteristic: CBCharacteristic, type: CBCharacteristicWriteType) {
        manager?.record(.writeValue(self, data, characteristic, type))
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/setnotifyvalue(_:for:)
    open func setNotifyValue(_ enabled: Bool, for characteristic: CBCharacteristic) {
        manager?.record(.setNotifyValue(self, enabled, characteristic))
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/readrssi()
    open func readRSSI() { manager?.record(.readRSSI(self)) }

    /// https://developer.apple.com/documentation/corebluetooth/cbperipheral/maximumwritevaluelength(for:)
    open func maximumWriteValueLength(for type: CBCharacteristicWriteType) -> Int { writeLengths[type] ?? 20 }

    /// Sets what the peripheral reports, as the system does before calling the delegate.
    package func setState(_ state: CBPeripheralState) { self.state = state }
    package func setServices(_ services: [CBService]?) { self.services = services }
    package func setCanSendWriteWithoutResponse(_ can: Bool) { canSendWriteWithoutResponse = can }
}
#endif
