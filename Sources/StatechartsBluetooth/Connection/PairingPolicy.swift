/// How ``BluetoothConnection/pair()`` picks a peripheral among those its scan hears.
public enum PairingPolicy: Hashable, Sendable, Codable {
    /// The first peripheral that passes the filter.
    case firstFound
    /// The strongest signal heard while listening for `listening`; if none was heard by then,
    /// the first one heard after.
    case strongestSignal(listening: Duration)
}
