/// A peripheral a scan heard recently: what a picker shows.
public struct NearbyPeripheral: Hashable, Sendable, Codable, Identifiable {
    /// The peripheral.
    public var id: PeripheralID
    /// What it advertised last.
    public var advertisement: Advertisement
    /// Its last signal strength, in dBm.
    public var rssi: Int
    /// When it was last heard, on the connection's clock (time since the connection was made).
    public var lastSeen: Duration

    /// A sighting.
    public init(id: PeripheralID, advertisement: Advertisement, rssi: Int, lastSeen: Duration) {
        self.id = id
        self.advertisement = advertisement
        self.rssi = rssi
        self.lastSeen = lastSeen
    }

    /// The advertised name, if any.
    public var name: String? { advertisement.localName }
}

extension [NearbyPeripheral] {
    /// Notes a sighting: updates the peripheral's entry or adds one, and keeps the list sorted
    /// by signal, strongest first (ties by identifier, so the order is stable).
    mutating func note(_ sighting: NearbyPeripheral) {
        if let index = firstIndex(where: { $0.id == sighting.id }) {
            self[index] = sighting
        } else {
            append(sighting)
        }
        sort { ($0.rssi, $1.id.description) > ($1.rssi, $0.id.description) }
    }

    /// Drops the peripherals not heard for `timeout` at `now`.
    mutating func removeSilent(olderThan timeout: Duration, at now: Duration) {
        removeAll { now - $0.lastSeen > timeout }
    }
}
