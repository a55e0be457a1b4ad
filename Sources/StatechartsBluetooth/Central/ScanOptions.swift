/// How a scan reports (the options of `scanForPeripherals(withServices:options:)`).
public struct ScanOptions: Hashable, Sendable, Codable {
    /// Whether each advertisement of a peripheral is reported, not only the first: for signal
    /// strength that follows the device (`CBCentralManagerScanOptionAllowDuplicatesKey`).
    public var allowDuplicates: Bool
    /// Peripherals soliciting one of these services are reported too
    /// (`CBCentralManagerScanOptionSolicitedServiceUUIDsKey`).
    public var solicitedServices: [BluetoothUUID]

    /// Options; by default each peripheral is reported once.
    public init(allowDuplicates: Bool = false, solicitedServices: [BluetoothUUID] = []) {
        self.allowDuplicates = allowDuplicates
        self.solicitedServices = solicitedServices
    }
}
