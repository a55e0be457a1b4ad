/// What a ``BluetoothConnection`` looks for, and how long it waits.
public struct ConnectionConfiguration: Hashable, Sendable, Codable {
    /// The service the peripheral advertises and offers.
    public var service: BluetoothUUID
    /// The characteristic the app writes messages to.
    public var writeCharacteristic: BluetoothUUID
    /// The characteristic whose notifications carry the peripheral's messages.
    public var notifyCharacteristic: BluetoothUUID
    /// How long a scan looks before giving up.
    public var scanTimeout: Duration
    /// How long one connection attempt may take before it is cancelled.
    public var connectTimeout: Duration
    /// How long discovering the service and its characteristics may take.
    public var discoveryTimeout: Duration
    /// The largest message sent or accepted, in bytes.
    public var maximumMessageLength: Int
    /// How long a request waits for its answer, unless the request says otherwise.
    public var replyTimeout: Duration

    /// A configuration; the timeouts default to a 10 s scan, 5 s connection attempt and 10 s
    /// discovery, and messages to 4 MiB with a 10 s reply timeout.
    public init(
        service: BluetoothUUID, writeCharacteristic: BluetoothUUID, notifyCharacteristic: BluetoothUUID,
        scanTimeout: Duration = .seconds(10), connectTimeout: Duration = .seconds(5),
        discoveryTimeout: Duration = .seconds(10), maximumMessageLength: Int = 4 << 20,
        replyTimeout: Duration = .seconds(10)
    ) {
        self.service = service
        self.writeCharacteristic = writeCharacteristic
        self.notifyCharacteristic = notifyCharacteristic
        self.scanTimeout = scanTimeout
        self.connectTimeout = connectTimeout
        self.discoveryTimeout = discoveryTimeout
        self.maximumMessageLength = maximumMessageLength
        self.replyTimeout = replyTimeout
    }
}
