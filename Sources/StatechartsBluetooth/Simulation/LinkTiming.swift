/// How a simulated link carries packets: the connection interval, how many link-layer packets
/// each connection event takes, and how long they are, so that messaging throughput can be
/// measured in simulated time.
///
/// Packets go only at connection events, every ``connectionInterval`` from the moment of
/// connection; each event takes up to ``packetsPerConnectionEvent`` link-layer packets each way.
/// An ATT write or notification of `n` bytes is `n + 7` bytes on the link (the ATT and L2CAP
/// headers) and takes `⌈(n + 7) / dataLength⌉` packets: with the default 251-byte packets (LE
/// Data Length Extension), a 244-byte write is one packet and a 512-byte one three. A write with
/// response goes in one event and is confirmed in the next; the central sends no other request
/// meanwhile, as ATT requires. Writes without response wait in the central's buffer of
/// ``writeWithoutResponseBuffer`` writes: while it is full,
/// ``SimulatedCentral/canSendWriteWithoutResponse(to:)`` is false and a write is dropped, and a
/// connection event that makes room reports ``CentralEvent/readyToSendWriteWithoutResponse(_:)``.
public struct LinkTiming: Hashable, Sendable, Codable {
    /// The time between connection events (7.5 ms to 4 s; iOS asks for 15 or 30 ms).
    public var connectionInterval: Duration
    /// How many link-layer packets a connection event takes each way.
    public var packetsPerConnectionEvent: Int
    /// The most bytes of one link-layer packet: 27 without the LE Data Length Extension, up to 251 with it.
    public var dataLength: Int
    /// How many writes without response the central holds before it refuses more.
    public var writeWithoutResponseBuffer: Int

    /// A link timing; by default a 30 ms interval, 6 packets of 251 bytes per event, and a buffer of 8 writes.
    public init(
        connectionInterval: Duration = .milliseconds(30), packetsPerConnectionEvent: Int = 6, dataLength: Int = 251,
        writeWithoutResponseBuffer: Int = 8
    ) {
        self.connectionInterval = connectionInterval
        self.packetsPerConnectionEvent = max(packetsPerConnectionEvent, 1)
        self.dataLength = min(max(dataLength, 27), 251)
        self.writeWithoutResponseBuffer = max(writeWithoutResponseBuffer, 1)
    }

    /// How many link-layer packets an ATT value of `length` bytes takes.
    func packets(forValueOf length: Int) -> Int { (length + 7 + dataLength - 1) / dataLength }
}
