import Statecharts

import struct Foundation.Data

/// A peripheral for ``SimulatedCentral``: what it advertises, its services and characteristics,
/// its range and signal, its timing, and the app on it that answers messages.
public final class SimulatedPeripheral: Sendable {
    /// How the peripheral's app answers a request: the answer, and how long it takes.
    public struct Reply: Sendable {
        /// The answer.
        public var payload: Data
        /// How long the peripheral takes to answer.
        public var delay: Duration

        /// An answer sent after `delay`.
        public init(_ payload: Data, after delay: Duration = .zero) {
            self.payload = payload
            self.delay = delay
        }
    }

    /// The peripheral's identifier.
    public let id: PeripheralID
    /// The name it advertises.
    public let name: String
    /// Its services and each one's characteristics.
    public let services: [BluetoothUUID: [BluetoothUUID]]
    /// How its app answers requests: `nil` leaves a request unanswered.
    public let respond: @Sendable (Data) -> Reply?

    let state: Locked<PeripheralState>

    /// The properties a characteristic has unless the peripheral is told otherwise: it can be
    /// read, written both ways and notified.
    public static let defaultProperties: CharacteristicProperties = [.read, .write, .writeWithoutResponse, .notify]

    /// A peripheral.
    ///
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - name: The name it advertises.
    ///   - services: Its services and their characteristics.
    ///   - properties: What characteristics allow, where not ``defaultProperties``.
    ///   - values: The values of readable characteristics.
    ///   - advertisement: What it advertises; by default its name, its services and that it
    ///     takes connections.
    ///   - rssi: Its signal strength at the central, in dBm.
    ///   - writeLength: The most bytes one write or notification carries (20 to 512 on real
    ///     devices: the ATT MTU less 3).
    ///   - linkTiming: How its link carries packets; `nil` for a link with no air time, where
    ///     every write and notification goes at once.
    ///   - inRange: Whether it starts in range.
    ///   - knownToSystem: Whether the system knows it, so that `retrievePeripherals` finds it.
    ///   - connectedToSystem: Whether another app holds it connected, so that
    ///     `retrieveConnectedPeripherals` finds it.
    ///   - respond: How its app answers requests; by default it echoes them.
    public init(
        id: PeripheralID, name: String, services: [BluetoothUUID: [BluetoothUUID]],
        properties: [CharacteristicID: CharacteristicProperties] = [:], values: [CharacteristicID: Data] = [:],
        advertisement: Advertisement? = nil, rssi: Int = -60, writeLength: Int = 182, linkTiming: LinkTiming? = nil,
        inRange: Bool = true, knownToSystem: Bool = true, connectedToSystem: Bool = false,
        respond: @escaping @Sendable (Data) -> Reply? = { Reply($0) }
    ) {
        self.id = id
        self.name = name
        self.services = services
        self.respond = respond
        var advertised =
            advertisement
            ?? Advertisement(
                localName: name, serviceUUIDs: services.keys.sorted { $0.text < $1.text }, isConnectable: true)
        if advertised.localName == nil && advertisement == nil { advertised.localName = name }
        state = Locked(
            PeripheralState(
                properties: properties, values: values, advertisement: advertised, rssi: rssi,
                writeLength: writeLength, linkTiming: linkTiming, inRange: inRange, knownToSystem: knownToSystem,
                connectedToSystem: connectedToSystem))
    }

    /// Whether it is in range now.
    public var isInRange: Bool { state.withLock { $0.inRange } }

    /// The messages (not requests) its app received, in order.
    public var receivedMessages: [Data] { state.withLock { $0.receivedMessages } }

    /// The requests its app received, in order.
    public var receivedRequests: [Data] { state.withLock { $0.receivedRequests } }

    /// Messages that arrived broken and were dropped, with why.
    public var droppedMessages: [MessagingError] { state.withLock { $0.droppedMessages } }

    /// Writes without response the central dropped: made while it refused them, or to a
    /// characteristic that does not take them.
    public var droppedWrites: Int { state.withLock { $0.droppedWrites } }

    /// How many writes of each type reached the peripheral.
    public var writesReceived: (withResponse: Int, withoutResponse: Int) {
        state.withLock { ($0.writesWithResponse, $0.writesWithoutResponse) }
    }

    /// What it advertises.
    public var advertisement: Advertisement {
        get { state.withLock { $0.advertisement } }
        set { state.withLock { $0.advertisement = newValue } }
    }

    /// Its signal strength at the central, in dBm: what discoveries and `readRSSI` report.
    public var rssi: Int {
        get { state.withLock { $0.rssi } }
        set { state.withLock { $0.rssi = newValue } }
    }

    /// How long a connection takes once asked for and in range.
    public var connectDelay: Duration {
        get { state.withLock { $0.connectDelay } }
        set { state.withLock { $0.connectDelay = newValue } }
    }

    /// How long each discovery (services, then characteristics) takes.
    public var discoveryDelay: Duration {
        get { state.withLock { $0.discoveryDelay } }
        set { state.withLock { $0.discoveryDelay = newValue } }
    }

    /// How long after a scan starts (or it comes into range) it is discovered.
    public var advertisingDelay: Duration {
        get { state.withLock { $0.advertisingDelay } }
        set { state.withLock { $0.advertisingDelay = newValue } }
    }

    /// How often it advertises: how often a scan that allows duplicates hears it again.
    public var advertisingInterval: Duration {
        get { state.withLock { $0.advertisingInterval } }
        set { state.withLock { $0.advertisingInterval = newValue } }
    }

    /// The most bytes one write or notification carries.
    public var writeLength: Int {
        get { state.withLock { $0.writeLength } }
        set { state.withLock { $0.writeLength = newValue } }
    }

    /// How its link carries packets, or `nil` for no air time.
    public var linkTiming: LinkTiming? {
        get { state.withLock { $0.linkTiming } }
        set { state.withLock { $0.linkTiming = newValue } }
    }

    /// What a characteristic allows.
    public func properties(of characteristic: CharacteristicID) -> CharacteristicProperties {
        state.withLock { $0.properties[characteristic] } ?? Self.defaultProperties
    }

    /// A characteristic's value, as a read returns it.
    public func value(of characteristic: CharacteristicID) -> Data? { state.withLock { $0.values[characteristic] } }
}

struct PeripheralState: Sendable {
    /// Counts one chunk on the air; true when the link is to drop before it.
    mutating func linkDropsBeforeChunk() -> BluetoothError? {
        guard let (remaining, error) = cut else { return nil }
        if remaining <= 0 {
            cut = nil
            return error
        }
        cut = (remaining - 1, error)
        return nil
    }

    var properties: [CharacteristicID: CharacteristicProperties]
    var values: [CharacteristicID: Data]
    var advertisement: Advertisement
    var rssi: Int
    var writeLength: Int
    var linkTiming: LinkTiming?
    var inRange: Bool
    var knownToSystem: Bool
    var connectedToSystem: Bool
    var connectDelay: Duration = .milliseconds(100)
    var discoveryDelay: Duration = .milliseconds(50)
    var advertisingDelay: Duration = .milliseconds(500)
    var advertisingInterval: Duration = .seconds(1)
    /// Errors the next connection attempts fail with, first first.
    var connectionFailures: [BluetoothError] = []
    /// Whether connection attempts never complete.
    var unresponsive = false
    /// Counts down to a notification chunk that is lost on the air.
    var notificationsUntilLoss: Int?
    /// Counts down to a written chunk that is lost on the air (its write is still confirmed).
    var writesUntilLoss: Int?
    /// Counts chunks (written or notified) down to the link dropping, and the error it drops with.
    var cut: (chunks: Int, error: BluetoothError)?
    var reassembler = MessageReassembler(maximumMessageLength: 64 << 20)
    var lastMessageID: UInt16 = 0
    var receivedMessages: [Data] = []
    var receivedRequests: [Data] = []
    var droppedMessages: [MessagingError] = []
    var droppedWrites = 0
    var writesWithResponse = 0
    var writesWithoutResponse = 0
}
