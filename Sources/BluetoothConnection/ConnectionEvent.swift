import Statecharts

/// What drives a ``BluetoothConnection``'s chart: the central's reports and the app's requests.
public enum ConnectionEvent: StatechartEvent, Sendable, Hashable {
    /// The radio's state changed.
    case stateChanged(CentralState)
    /// The system handed back peripherals after a relaunch.
    case willRestore([RestoredPeripheral])
    /// A scan found a peripheral.
    case discovered(PeripheralID)
    /// A connection was made.
    case connected(PeripheralID)
    /// A connection attempt failed.
    case failedToConnect(PeripheralID, BluetoothError?)
    /// A connection ended, with no error when the app ended it.
    case disconnected(PeripheralID, BluetoothError?)
    /// The peripheral's services were discovered.
    case discoveredServices(PeripheralID, [BluetoothUUID], BluetoothError?)
    /// A service's characteristics were discovered.
    case discoveredCharacteristics(PeripheralID, [BluetoothUUID], BluetoothError?)
    /// The app asks to find and pair a new peripheral.
    case pair
    /// The app asks to disconnect, keeping the peripheral for ``reconnect``.
    case disconnect
    /// The app asks to connect again to the paired peripheral.
    case reconnect
    /// The app asks to forget the peripheral.
    case unpair

    /// The kinds of events, for transitions.
    public enum Kind: String, CaseIterable, Sendable {
        case stateChanged, willRestore, discovered, connected, failedToConnect, disconnected
        case discoveredServices, discoveredCharacteristics, pair, disconnect, reconnect, unpair
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
        case .pair: .pair
        case .disconnect: .disconnect
        case .reconnect: .reconnect
        case .unpair: .unpair
        }
    }

    /// The peripheral the event is about, for the central's reports.
    public var peripheral: PeripheralID? {
        switch self {
        case .discovered(let id), .connected(let id), .failedToConnect(let id, _), .disconnected(let id, _),
            .discoveredServices(let id, _, _), .discoveredCharacteristics(let id, _, _):
            id
        default: nil
        }
    }

    /// The error the event carries, if any.
    public var error: BluetoothError? {
        switch self {
        case .failedToConnect(_, let error), .disconnected(_, let error), .discoveredServices(_, _, let error),
            .discoveredCharacteristics(_, _, let error):
            error
        default: nil
        }
    }

    /// The event that a central's report becomes, if the chart cares about it.
    public init?(_ report: CentralEvent) {
        switch report {
        case .stateChanged(let state): self = .stateChanged(state)
        case .willRestore(let peripherals): self = .willRestore(peripherals)
        case .discovered(let id, _): self = .discovered(id)
        case .connected(let id): self = .connected(id)
        case .failedToConnect(let id, let error): self = .failedToConnect(id, error)
        case .disconnected(let id, let error): self = .disconnected(id, error)
        case .discoveredServices(let id, let services, let error): self = .discoveredServices(id, services, error)
        case .discoveredCharacteristics(let id, _, let characteristics, let error):
            self = .discoveredCharacteristics(id, characteristics, error)
        case .wroteValue, .valueUpdated, .notificationStateChanged: return nil
        }
    }
}
