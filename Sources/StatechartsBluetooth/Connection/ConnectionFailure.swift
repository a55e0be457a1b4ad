/// Why the connection is not ready, as the app shows it.
public enum ConnectionFailure: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A scan found no peripheral with the service in time.
    case scanTimedOut
    /// A connection attempt took too long and was cancelled.
    case connectTimedOut
    /// A connection attempt failed.
    case connectFailed(BluetoothError?)
    /// Discovery took too long.
    case discoveryTimedOut
    /// Discovery failed, or the peripheral lacks the service or a characteristic.
    case discoveryFailed(String)
    /// The link went down with an error that does not mean the device left range.
    case disconnected(BluetoothError)
    /// Bluetooth is unsupported or not allowed.
    case unavailable(CentralState)

    /// A sentence for the app.
    public var description: String {
        switch self {
        case .scanTimedOut: "no device found"
        case .connectTimedOut: "the device did not answer in time"
        case .connectFailed(let error): "could not connect" + (error.map { ": \($0)" } ?? "")
        case .discoveryTimedOut: "the device did not describe itself in time"
        case .discoveryFailed(let reason): "the device is not the one expected: \(reason)"
        case .disconnected(let error): "disconnected: \(error)"
        case .unavailable(let state): "Bluetooth is \(state.rawValue)"
        }
    }
}
