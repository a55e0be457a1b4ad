import struct Foundation.Data

/// Which advertisements a ``BluetoothConnection`` takes for a candidate, beyond advertising the
/// configuration's service (the scan asks the system for that one).
///
/// Every condition set must hold; an empty filter takes every peripheral the scan reports.
public struct ScanFilter: Hashable, Sendable, Codable {
    /// Services the advertisement must also name (in its service list or its overflow).
    public var services: [BluetoothUUID]
    /// The start of the advertised local name; a peripheral that advertises no name fails it.
    public var namePrefix: String?
    /// The weakest signal taken, in dBm (`-70` keeps peripherals within a few metres).
    public var minimumRSSI: Int?
    /// The Bluetooth SIG company identifier the manufacturer data must start with.
    public var manufacturerID: UInt16?
    /// The bytes the manufacturer data must start with after the company identifier.
    public var manufacturerDataPrefix: Data?
    /// Whether a peripheral that says it takes no connections is left out.
    public var requiresConnectable: Bool

    /// A filter; by default it takes every peripheral that may be connected to.
    public init(
        services: [BluetoothUUID] = [], namePrefix: String? = nil, minimumRSSI: Int? = nil,
        manufacturerID: UInt16? = nil, manufacturerDataPrefix: Data? = nil, requiresConnectable: Bool = true
    ) {
        self.services = services
        self.namePrefix = namePrefix
        self.minimumRSSI = minimumRSSI
        self.manufacturerID = manufacturerID
        self.manufacturerDataPrefix = manufacturerDataPrefix
        self.requiresConnectable = requiresConnectable
    }

    /// Whether a peripheral heard with `advertisement` at `rssi` dBm passes.
    ///
    /// CoreBluetooth reports 127 when it could not measure the signal; such a sighting fails a
    /// minimum.
    public func accepts(_ advertisement: Advertisement, rssi: Int) -> Bool {
        if !services.allSatisfy(advertisement.advertises) { return false }
        if let namePrefix, !(advertisement.localName?.hasPrefix(namePrefix) ?? false) { return false }
        if let minimumRSSI, rssi < minimumRSSI || rssi == 127 { return false }
        if let manufacturerID, advertisement.manufacturerID != manufacturerID { return false }
        if let prefix = manufacturerDataPrefix {
            guard let data = advertisement.manufacturerData, data.count >= 2 + prefix.count,
                data.dropFirst(2).starts(with: prefix)
            else { return false }
        }
        if requiresConnectable && advertisement.isConnectable == false { return false }
        return true
    }
}
