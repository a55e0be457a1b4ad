#if !canImport(CoreBluetooth)
import Foundation

/// https://developer.apple.com/documentation/corebluetooth/cbmanagerstate
public enum CBManagerState: Int, Sendable {
    case unknown = 0
    case resetting = 1
    case unsupported = 2
    case unauthorized = 3
    case poweredOff = 4
    case poweredOn = 5
}

/// https://developer.apple.com/documentation/corebluetooth/cbmanager
open class CBManager: NSObject {
    /// https://developer.apple.com/documentation/corebluetooth/cbmanager/state
    open package(set) var state: CBManagerState = .unknown
}

/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager
///
/// Every command is recorded in `commands` and handed to `onCommand` (package members,
/// for tests), which answers through the delegates on the queue, as the system would.
open class CBCentralManager: CBManager {
    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/delegate
    weak open var delegate: (any CBCentralManagerDelegate)?
    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/isscanning
    open package(set) var isScanning = false

    /// The queue the delegate is called on.
    package let queue: DispatchQueue
    /// The options the manager was made with.
    package let options: [String: Any]?
    /// The commands given so far.
    package var commands: [StandInCommand] = []
    /// Called with each command, on the caller's thread (the adapter's queue).
    package var onCommand: ((StandInCommand) -> Void)?
    /// What `retrievePeripherals(withIdentifiers:)` knows.
    package var knownPeripherals: [CBPeripheral] = []
    /// What `retrieveConnectedPeripherals(withServices:)` finds.
    package var systemConnectedPeripherals: [CBPeripheral] = []

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/init(delegate:queue:options:)
    public init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        self.delegate = delegate
        self.queue = queue ?? .main
        self.options = options
        super.init()
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/scanforperipherals(withservices:options:)
    open func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil) {
        isScanning = true
        record(.scan(serviceUUIDs, options: options))
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/stopscan()
    open func stopScan() {
        isScanning = false
        record(.stopScan)
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/connect(_:options:)
    open func connect(_ peripheral: CBPeripheral, options: [String: Any]? = nil) {
        peripheral.state = .connecting
        record(.connect(peripheral))
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/cancelperipheralconnection(_:)
    open func cancelPeripheralConnection(_ peripheral: CBPeripheral) { record(.cancelConnection(peripheral)) }

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/retrieveperipherals(withidentifiers:)
    open func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [CBPeripheral] {
        knownPeripherals.filter { identifiers.contains($0.identifier) }
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbcentralmanager/retrieveconnectedperipherals(withservices:)
    open func retrieveConnectedPeripherals(withServices serviceUUIDs: [CBUUID]) -> [CBPeripheral] {
        systemConnectedPeripherals.filter { peripheral in
            peripheral.advertisedServices.contains { serviceUUIDs.contains($0) }
        }
    }

    /// Sets the state, as the system does before `centralManagerDidUpdateState(_:)`.
    package func setState(_ state: CBManagerState) { self.state = state }

    func record(_ command: StandInCommand) {
        commands.append(command)
        onCommand?(command)
    }
}

/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanageroptionrestoreidentifierkey
public let CBCentralManagerOptionRestoreIdentifierKey = "kCBRestoreIdentifierKey"
/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanageroptionshowpoweralertkey
public let CBCentralManagerOptionShowPowerAlertKey = "kCBInitOptionShowPowerAlert"
/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanagerscanoptionallowduplicateskey
public let CBCentralManagerScanOptionAllowDuplicatesKey = "kCBScanOptionAllowDuplicates"
/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanagerscanoptionsolicitedserviceuuidskey
public let CBCentralManagerScanOptionSolicitedServiceUUIDsKey = "kCBScanOptionSolicitedServiceUUIDs"
/// https://developer.apple.com/documentation/corebluetooth/cbcentralmanagerrestoredstateperipheralskey
public let CBCentralManagerRestoredStatePeripheralsKey = "kCBRestoredPeripherals"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdatalocalnamekey
public let CBAdvertisementDataLocalNameKey = "kCBAdvDataLocalName"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdatamanufacturerdatakey
public let CBAdvertisementDataManufacturerDataKey = "kCBAdvDataManufacturerData"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdataservicedatakey
public let CBAdvertisementDataServiceDataKey = "kCBAdvDataServiceData"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdataserviceuuidskey
public let CBAdvertisementDataServiceUUIDsKey = "kCBAdvDataServiceUUIDs"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdataoverflowserviceuuidskey
public let CBAdvertisementDataOverflowServiceUUIDsKey = "kCBAdvDataOverflowServiceUUIDs"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdatasolicitedserviceuuidskey
public let CBAdvertisementDataSolicitedServiceUUIDsKey = "kCBAdvDataSolicitedServiceUUIDs"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdatatxpowerlevelkey
public let CBAdvertisementDataTxPowerLevelKey = "kCBAdvDataTxPowerLevel"
/// https://developer.apple.com/documentation/corebluetooth/cbadvertisementdataisconnectable
public let CBAdvertisementDataIsConnectable = "kCBAdvDataIsConnectable"
#endif
