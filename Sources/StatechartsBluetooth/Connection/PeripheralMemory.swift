import Statecharts

import struct Foundation.Data

/// Where a ``BluetoothConnection`` keeps, across launches, the peripheral it is paired with and
/// what the app notes about each device.
///
/// ``FilePeripheralMemory`` is the default: a file in the application-support folder. Implement
/// the protocol to keep it elsewhere (the keychain, `UserDefaults`, an app's own database); the
/// connection reads and writes it from its chart's actions, so each call should return quickly.
public protocol PeripheralMemory: AnyObject, Sendable {
    /// The paired peripheral, or `nil`.
    var pairedPeripheral: PeripheralID? { get set }
    /// What is kept under `key` for `peripheral`, or `nil`.
    func value(forKey key: String, of peripheral: PeripheralID) -> Data?
    /// Keeps `value` under `key` for `peripheral`; `nil` removes it.
    func setValue(_ value: Data?, forKey key: String, of peripheral: PeripheralID)
    /// Forgets everything kept for `peripheral`, and unpairs it if it is the paired one.
    func forget(_ peripheral: PeripheralID)
}

/// What a ``PeripheralMemory`` holds: the paired peripheral, and values per device.
public struct RememberedPeripherals: Hashable, Sendable, Codable {
    /// The paired peripheral, or `nil`.
    public var paired: PeripheralID?
    /// Values per device and key.
    public var devices: [PeripheralID: [String: Data]]

    /// Contents; empty by default.
    public init(paired: PeripheralID? = nil, devices: [PeripheralID: [String: Data]] = [:]) {
        self.paired = paired
        self.devices = devices
    }

    /// Keeps or removes a value.
    mutating func set(_ value: Data?, forKey key: String, of peripheral: PeripheralID) {
        devices[peripheral, default: [:]][key] = value
        if devices[peripheral]?.isEmpty == true { devices[peripheral] = nil }
    }

    /// Forgets a device.
    mutating func forget(_ peripheral: PeripheralID) {
        devices[peripheral] = nil
        if paired == peripheral { paired = nil }
    }
}

/// A ``PeripheralMemory`` in memory, forgotten at exit: for tests and previews.
public final class InMemoryPeripheralMemory: PeripheralMemory {
    private let stored: Locked<RememberedPeripherals>

    /// A memory holding `peripheral` as the paired one.
    public init(_ peripheral: PeripheralID? = nil) { stored = Locked(RememberedPeripherals(paired: peripheral)) }

    /// The paired peripheral, or `nil`.
    public var pairedPeripheral: PeripheralID? {
        get { stored.withLock { $0.paired } }
        set { stored.withLock { $0.paired = newValue } }
    }

    /// What is kept under `key` for `peripheral`.
    public func value(forKey key: String, of peripheral: PeripheralID) -> Data? {
        stored.withLock { $0.devices[peripheral]?[key] }
    }

    /// Keeps `value` under `key` for `peripheral`.
    public func setValue(_ value: Data?, forKey key: String, of peripheral: PeripheralID) {
        stored.withLock { $0.set(value, forKey: key, of: peripheral) }
    }

    /// Forgets `peripheral`.
    public func forget(_ peripheral: PeripheralID) { stored.withLock { $0.forget(peripheral) } }
}
