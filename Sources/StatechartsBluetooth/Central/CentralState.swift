/// The radio's state (`CBManagerState`).
public enum CentralState: String, Hashable, Sendable, Codable {
    /// Not known yet: the state right after launch.
    case unknown
    /// The connection to the system service was lost and is being restored.
    case resetting
    /// The device has no Bluetooth LE.
    case unsupported
    /// The app may not use Bluetooth.
    case unauthorized
    /// Bluetooth is off.
    case poweredOff
    /// Bluetooth is on and ready.
    case poweredOn
}
