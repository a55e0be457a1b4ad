import Statecharts

/// What drives a ``BluetoothConnection``'s chart: the central's reports and the app's requests.
public enum ConnectionEvent: StatechartEvent, Sendable, Hashable {
    /// The radio's state changed.
    case stateChanged(CentralState)
    /// The system handed back peripherals after a relaunch.
    case willRestore([RestoredPeripheral])
    /// A scan heard a peripheral: what it advertises and its signal, in dBm.
    case discovered(PeripheralID, Advertisement, rssi: Int)
    /// A connection was made.
    case connected(PeripheralID)
    /// A connection attempt failed.
    case failedToConnect(PeripheralID, BluetoothError?)
    /// A connection ended, with no error when the app ended it.
    case disconnected(PeripheralID, BluetoothError?)
    /// The peripheral's services were discovered.
    case discoveredServices(PeripheralID, [BluetoothUUID], BluetoothError?)
    /// A service's characteristics were discovered, with what each allows.
    case discoveredCharacteristics(PeripheralID, service: BluetoothUUID, [DiscoveredCharacteristic], BluetoothError?)
    /// A characteristic's descriptors were discovered.
    case discoveredDescriptors(PeripheralID, characteristic: CharacteristicID, [BluetoothUUID], BluetoothError?)
    /// The app asks to find a new peripheral and pair with the one the pairing policy picks.
    case pair
    /// The app asks to list nearby peripherals, for the user to pick one.
    case browse
    /// The app asks to pair with a peripheral the user picked.
    case pairWith(PeripheralID)
    /// The app asks to stop looking.
    case stopSearching
    /// The app asks to disconnect, keeping the peripheral for ``reconnect``.
    case disconnect
    /// The app asks to connect again to the paired peripheral.
    case reconnect
    /// The app asks to forget the peripheral.
    case unpair

    /// The kinds of events, for transitions.
    public enum Kind: String, CaseIterable, Sendable {
        case stateChanged, willRestore, discovered, connected, failedToConnect, disconnected
        case discoveredServices, discoveredCharacteristics, discoveredDescriptors
        case pair, browse, pairWith, stopSearching, disconnect, reconnect, unpair
    }

    /// The event's kind.
    public var kind: Kind {
        switch self {
        case .stateChanged: .stateChanged
        case .willRestore: .willRestore
        case .discovered: .discovered
        case .connected: .connected
        case .failedToConnect: .failedToConnect
        case .disconnected: .disconnected
        case .discoveredServices: .discoveredServices
        case .discoveredCharacteristics: .discoveredCharacteristics
        case .discoveredDescriptors: .discoveredDescriptors
        case .pair: .pair
        case .browse: .browse
        case .pairWith: .pairWith
        case .stopSearching: .stopSearching
        case .disconnect: .disconnect
        case .reconnect: .reconnect
        case .unpair: .unpair
        }
    }

    /// The peripheral the event is about: the central's reports, and the user's pick.
    public var peripheral: PeripheralID? {
        switch self {
        case .discovered(let id, _, _), .connected(let id), .failedToConnect(let id, _), .disconnected(let id, _),
            .discoveredServices(let id, _, _), .discoveredCharacteristics(let id, _, _, _),
            .discoveredDescriptors(let id, _, _, _):
            id
        default: nil
        }
    }

    /// The error the event carries, if any.
    public var error: BluetoothError? {
        switch self {
        case .failedToConnect(_, let error), .disconnected(_, let error), .discoveredServices(_, _, let error),
            .discoveredCharacteristics(_, _, _, let error), .discoveredDescriptors(_, _, _, let error):
            error
        default: nil
        }
    }

    /// The event that a central's report becomes, if the chart cares about it.
    public init?(_ report: CentralEvent) {
        switch report {
        case .stateChanged(let state): self = .stateChanged(state)
        case .willRestore(let peripherals): self = .willRestore(peripherals)
        case .discovered(let id, let advertisement, let rssi): self = .discovered(id, advertisement, rssi: rssi)
        case .connected(let id): self = .connected(id)
        case .failedToConnect(let id, let error): self = .failedToConnect(id, error)
        case .disconnected(let id, let error): self = .disconnected(id, error)
        case .discoveredServices(let id, let services, let error): self = .discoveredServices(id, services, error)
        case .discoveredCharacteristics(let id, let service, let characteristics, let error):
            self = .discoveredCharacteristics(id, service: service, characteristics, error)
        case .discoveredDescriptors(let id, let characteristic, let descriptors, let error):
            self = .discoveredDescriptors(id, characteristic: characteristic, descriptors, error)
        case .wroteValue, .readyToSendWriteWithoutResponse, .valueUpdated, .notificationStateChanged, .readRSSI:
            return nil
        }
    }
}
