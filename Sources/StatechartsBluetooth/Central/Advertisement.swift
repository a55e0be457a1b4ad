import struct Foundation.Data

/// What a peripheral advertises: the advertisement data of `centralManager(_:didDiscover:advertisementData:rssi:)`.
public struct Advertisement: Hashable, Sendable, Codable {
    /// Its name (`CBAdvertisementDataLocalNameKey`).
    public var localName: String?
    /// Its manufacturer's data: a company identifier in two little-endian bytes, then the
    /// manufacturer's own (`CBAdvertisementDataManufacturerDataKey`).
    public var manufacturerData: Data?
    /// Data per service (`CBAdvertisementDataServiceDataKey`).
    public var serviceData: [BluetoothUUID: Data]
    /// The services it advertises (`CBAdvertisementDataServiceUUIDsKey`).
    public var serviceUUIDs: [BluetoothUUID]
    /// Services that did not fit in the advertisement (`CBAdvertisementDataOverflowServiceUUIDsKey`).
    public var overflowServiceUUIDs: [BluetoothUUID]
    /// The services it asks a central for (`CBAdvertisementDataSolicitedServiceUUIDsKey`).
    public var solicitedServiceUUIDs: [BluetoothUUID]
    /// The transmit power, in dBm (`CBAdvertisementDataTxPowerLevelKey`).
    public var txPowerLevel: Int?
    /// Whether it takes connections (`CBAdvertisementDataIsConnectable`).
    public var isConnectable: Bool?

    /// An advertisement.
    public init(
        localName: String? = nil, manufacturerData: Data? = nil, serviceData: [BluetoothUUID: Data] = [:],
        serviceUUIDs: [BluetoothUUID] = [], overflowServiceUUIDs: [BluetoothUUID] = [],
        solicitedServiceUUIDs: [BluetoothUUID] = [], txPowerLevel: Int? = nil, isConnectable: Bool? = nil
    ) {
        self.localName = localName
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.serviceUUIDs = serviceUUIDs
        self.overflowServiceUUIDs = overflowServiceUUIDs
        self.solicitedServiceUUIDs = solicitedServiceUUIDs
        self.txPowerLevel = txPowerLevel
        self.isConnectable = isConnectable
    }

    /// The Bluetooth SIG company identifier that starts the manufacturer data, if there are two bytes.
    public var manufacturerID: UInt16? {
        guard let data = manufacturerData, data.count >= 2 else { return nil }
        let start = data.startIndex
        return UInt16(data[start]) | UInt16(data[start + 1]) << 8
    }

    /// Whether it advertises `service`, in the advertisement or its overflow.
    public func advertises(_ service: BluetoothUUID) -> Bool {
        serviceUUIDs.contains(service) || overflowServiceUUIDs.contains(service)
    }
}
