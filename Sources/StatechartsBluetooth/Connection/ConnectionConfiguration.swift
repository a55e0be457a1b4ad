/// What a ``BluetoothConnection`` looks for, how it picks and writes, and how long it waits.
public struct ConnectionConfiguration: Hashable, Sendable, Codable {
    /// The service the peripheral advertises and offers, which holds the message characteristics.
    public var service: BluetoothUUID
    /// The characteristic of ``service`` the app writes messages to.
    public var writeCharacteristic: BluetoothUUID
    /// The characteristic of ``service`` whose notifications carry the peripheral's messages.
    public var notifyCharacteristic: BluetoothUUID
    /// Other services to discover once connected, with all their characteristics, for
    /// ``BluetoothConnection/readValue(of:)``: the Battery or Device Information service. A
    /// peripheral that lacks one is still used.
    public var additionalServices: [BluetoothUUID]
    /// Which advertisements are taken for candidates.
    public var scanFilter: ScanFilter
    /// How ``BluetoothConnection/pair()`` picks among the candidates.
    public var pairingPolicy: PairingPolicy
    /// How the messenger writes.
    public var writePreference: WritePreference
    /// How long a scan looks before giving up, when pairing.
    public var scanTimeout: Duration
    /// How long a peripheral stays in the nearby list once it is no longer heard.
    public var nearbyTimeout: Duration
    /// How long one connection attempt may take before it is cancelled.
    public var connectTimeout: Duration
    /// How long discovering the services, characteristics and descriptors may take.
    public var discoveryTimeout: Duration
    /// The largest message sent or accepted, in bytes.
    public var maximumMessageLength: Int
    /// How long a request waits for its answer, unless the request says otherwise.
    public var replyTimeout: Duration

    /// The characteristic messages are written to.
    public var writeCharacteristicID: CharacteristicID { CharacteristicID(service: service, uuid: writeCharacteristic) }
    /// The characteristic messages are notified on.
    public var notifyCharacteristicID: CharacteristicID {
        CharacteristicID(service: service, uuid: notifyCharacteristic)
    }

    /// A configuration; by default it pairs with the first connectable peripheral found, writes
    /// without response where it can, and waits 10 s for a scan, 5 s for a connection attempt and
    /// 10 s for discovery; a silent peripheral leaves the nearby list after 5 s; messages go up
    /// to 4 MiB with a 10 s reply timeout.
    public init(
        service: BluetoothUUID, writeCharacteristic: BluetoothUUID, notifyCharacteristic: BluetoothUUID,
        additionalServices: [BluetoothUUID] = [], scanFilter: ScanFilter = ScanFilter(),
        pairingPolicy: PairingPolicy = .firstFound, writePreference: WritePreference = .automatic,
        scanTimeout: Duration = .seconds(10), nearbyTimeout: Duration = .seconds(5),
        connectTimeout: Duration = .seconds(5), discoveryTimeout: Duration = .seconds(10),
        maximumMessageLength: Int = 4 << 20, replyTimeout: Duration = .seconds(10)
    ) {
        self.service = service
        self.writeCharacteristic = writeCharacteristic
        self.notifyCharacteristic = notifyCharacteristic
        self.additionalServices = additionalServices
        self.scanFilter = scanFilter
        self.pairingPolicy = pairingPolicy
        self.writePreference = writePreference
        self.scanTimeout = scanTimeout
        self.nearbyTimeout = nearbyTimeout
        self.connectTimeout = connectTimeout
        self.discoveryTimeout = discoveryTimeout
        self.maximumMessageLength = maximumMessageLength
        self.replyTimeout = replyTimeout
    }
}
