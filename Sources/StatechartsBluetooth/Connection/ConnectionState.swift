/// The states of a ``BluetoothConnection``'s chart.
///
/// ```
/// waitingForPower                  Bluetooth is not on (restored peripherals are held here)
/// poweredOn
///   choosing                       where to start: restored, remembered or system-connected peripheral
///   idle                           nothing paired: waits for pair() or browse()
///   searching                      a scan is on; the nearby list is kept; pair(with:) connects
///     scanning                     pair(): the pairing policy picks, within the scan timeout
///     browsing                     browse(): the user picks; silent peripherals age out
///   connecting                     one attempt, with its own timeout
///   link                           connected
///     discovering
///       discoveringServices
///       discoveringCharacteristics one discovery per service
///       discoveringDescriptors     the notify characteristic's configuration descriptor
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
    /// No peripheral is paired: waiting for ``BluetoothConnection/pair()`` or
    /// ``BluetoothConnection/browse()``.
    case idle
    /// A scan is on and the nearby list is kept: ``BluetoothConnection/pair(with:)`` connects to
    /// the peripheral picked.
    case searching
    /// Pairing: the pairing policy picks a peripheral, until the scan timeout.
    case scanning
    /// Browsing: the nearby list is shown for the user to pick, with no timeout.
    case browsing
    /// Connecting to the chosen peripheral, until the connect timeout.
    case connecting
    /// Connected.
    case link
    /// Discovering the services, characteristics and descriptors.
    case discovering
    /// Discovering the services.
    case discoveringServices
    /// Discovering each service's characteristics.
    case discoveringCharacteristics
    /// Discovering the descriptors notifications need.
    case discoveringDescriptors
    /// Connected and discovered: messages can be sent.
    case ready
    /// The peripheral went out of range; a connection request waits for it to return.
    case waitingForReturn
    /// Disconnecting at the app's request.
    case disconnecting
    /// Disconnected for a reason other than range: waiting for ``BluetoothConnection/reconnect()``.
    case disconnected
}
