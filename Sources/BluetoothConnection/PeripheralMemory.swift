import Statecharts

/// Where the paired peripheral's identifier is kept across launches (`UserDefaults`, the
/// keychain, a file).
public protocol PeripheralMemory: AnyObject, Sendable {
    /// The paired peripheral, or `nil`.
    var pairedPeripheral: PeripheralID? { get set }
}

/// A ``PeripheralMemory`` in memory: for tests, and as the model of a persistent one.
public final class InMemoryPeripheralMemory: PeripheralMemory {
    private let stored: Locked<PeripheralID?>

    /// A memory holding `peripheral`.
    public init(_ peripheral: PeripheralID? = nil) { stored = Locked(peripheral) }

    /// The paired peripheral, or `nil`.
    public var pairedPeripheral: PeripheralID? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
