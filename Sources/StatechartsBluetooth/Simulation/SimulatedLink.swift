import struct Foundation.Data

/// The radio world of a ``SimulatedCentral``: its power, its scan, and its connections.
struct CentralWorld: Sendable {
    var power: CentralState
    var scan: Scan?
    /// Counts scans started and stopped, so that announcements of an ended scan stop.
    var scanGeneration = 0
    var pending: Set<PeripheralID> = []
    var connected: [PeripheralID: SimulatedLink] = [:]
    var nextSerial = 0
}

/// A scan on: what it looks for and how it reports.
struct Scan: Sendable {
    var services: [BluetoothUUID]
    var options: ScanOptions
    var generation: Int

    /// Whether the scan reports `peripheral`: it advertises, or solicits, one of the services
    /// (any peripheral when the scan names none).
    func finds(_ peripheral: SimulatedPeripheral) -> Bool {
        let advertisement = peripheral.advertisement
        if services.isEmpty { return true }
        return services.contains(where: advertisement.advertises)
            || options.solicitedServices.contains { advertisement.solicitedServiceUUIDs.contains($0) }
    }
}

/// One connection of a ``SimulatedCentral``: what is notified, and what waits for the air.
struct SimulatedLink: Sendable {
    /// Tells this connection from a later one to the same peripheral.
    var serial: Int
    /// When it was made, on the central's clock: connection events are counted from it.
    var connectedAt: Duration
    /// The characteristics notifications are on for, in the order they were turned on.
    var notifying: [CharacteristicID] = []
    /// Packets from the central, waiting for a connection event.
    var up = PacketQueue<UpPacket>()
    /// Packets from the peripheral, waiting for a connection event.
    var down = PacketQueue<DownPacket>()
    /// Whether a connection event is armed.
    var eventArmed = false
    /// Writes without response in the central's buffer.
    var bufferedWithoutResponse = 0
    /// Whether a write without response was refused since the buffer last had room.
    var refused = false
    /// Whether a write with response waits for its confirmation.
    var requestInFlight = false
    /// Link-layer packets a long PDU still owes the coming events, each way.
    var upDebt = 0
    var downDebt = 0
}

/// A write on its way to the peripheral.
struct UpPacket: Sendable {
    var characteristic: CharacteristicID
    var value: Data
    var type: WriteType
}

/// A packet on its way to the central.
enum DownPacket: Sendable {
    case notification(Data)
    case response(CharacteristicID)

    var isResponse: Bool { if case .response = self { true } else { false } }

    /// How many link-layer packets it takes.
    func packets(_ timing: LinkTiming) -> Int {
        switch self {
        case .notification(let chunk): timing.packets(forValueOf: chunk.count)
        case .response: 1
        }
    }
}

/// A first-in, first-out queue that takes from its head without moving what follows.
struct PacketQueue<Element: Sendable>: Sendable {
    private var elements: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == elements.count }

    var first: Element? { isEmpty ? nil : elements[head] }

    mutating func append(_ element: Element) { elements.append(element) }

    mutating func append(contentsOf new: [Element]) { elements.append(contentsOf: new) }

    /// Removes and returns up to `count` elements from the head.
    mutating func takeFirst(_ count: Int) -> [Element] {
        let end = min(head + count, elements.count)
        let taken = Array(elements[head..<end])
        head = end
        if head > 1024 && head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return taken
    }
}
