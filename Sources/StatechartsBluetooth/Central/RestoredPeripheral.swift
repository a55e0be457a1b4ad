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
