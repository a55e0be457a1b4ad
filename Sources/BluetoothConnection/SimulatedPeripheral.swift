import Statecharts

import struct Foundation.Data

/// A peripheral for ``SimulatedCentral``: its services, its range, its timing, and the app on it
/// that answers messages.
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

    /// A peripheral.
    ///
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - name: The name it advertises.
    ///   - services: Its services and their characteristics.
    ///   - writeLength: The most bytes one write or notification carries (20 to 512 on real devices).
    ///   - inRange: Whether it starts in range.
    ///   - knownToSystem: Whether the system knows it, so that `retrievePeripherals` finds it.
    ///   - connectedToSystem: Whether another app holds it connected, so that
    ///     `retrieveConnectedPeripherals` finds it.
    ///   - respond: How its app answers requests; by default it echoes them.
    public init(
        id: PeripheralID, name: String, services: [BluetoothUUID: [BluetoothUUID]], writeLength: Int = 182,
        inRange: Bool = true, knownToSystem: Bool = true, connectedToSystem: Bool = false,
        respond: @escaping @Sendable (Data) -> Reply? = { Reply($0) }
    ) {
        self.id = id
        self.name = name
        self.services = services
        self.respond = respond
        state = Locked(
            PeripheralState(
                writeLength: writeLength, inRange: inRange, knownToSystem: knownToSystem,
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

    /// The most bytes one write or notification carries.
    public var writeLength: Int {
        get { state.withLock { $0.writeLength } }
        set { state.withLock { $0.writeLength = newValue } }
    }
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

    var writeLength: Int
    var inRange: Bool
    var knownToSystem: Bool
    var connectedToSystem: Bool
    var connectDelay: Duration = .milliseconds(100)
    var discoveryDelay: Duration = .milliseconds(50)
    var advertisingDelay: Duration = .milliseconds(500)
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
}
