/// The states of a ``BluetoothConnection``'s chart.
///
/// ```
/// waitingForPower                  Bluetooth is not on (restored peripherals are held here)
/// poweredOn
///   choosing                       where to start: restored, remembered or system-connected peripheral
///   idle                           nothing paired: waits for pair()
///   scanning                       looks for the service, for 10 s
///   connecting                     one attempt, with its own timeout
///   link                           connected
///     discovering
///       discoveringServices
///       discoveringCharacteristics
///     ready                        messages can be sent
///   waitingForReturn               out of range: connects again with no timeout
///   disconnecting                  disconnect() waits for the link to go down
///   disconnected                   down for a reason that is not range; reconnect() or pair()
/// ```
public enum ConnectionState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Bluetooth is not on (or not known yet, or not allowed).
    case waitingForPower
    /// Bluetooth is on.
    case poweredOn
    /// Picks a start: a restored peripheral, the remembered one, or one connected to the system.
    case choosing
    /// No peripheral is paired: waiting for ``BluetoothConnection/pair()``.
    case idle
    /// Scanning for a peripheral with the service, until the scan timeout.
    case scanning
    /// Connecting to the chosen peripheral, until the connect timeout.
    case connecting
    /// Connected.
    case link
    /// Discovering the service and its characteristics.
    case discovering
    /// Discovering the service.
    case discoveringServices
    /// Discovering the message characteristics.
    case discoveringCharacteristics
    /// Connected and discovered: messages can be sent.
    case ready
    /// The peripheral went out of range; a connection request waits for it to return.
    case waitingForReturn
    /// Disconnecting at the app's request.
    case disconnecting
    /// Disconnected for a reason other than range: waiting for ``BluetoothConnection/reconnect()``.
    case disconnected
}
