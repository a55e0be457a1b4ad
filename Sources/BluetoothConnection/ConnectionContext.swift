/// What a ``BluetoothConnection``'s chart knows: the central it drives, what it is connected to,
/// and why it is not ready.
public struct ConnectionContext: Sendable {
    /// The central the chart's actions command.
    public let central: any BluetoothCentral
    /// Where the paired peripheral is remembered.
    public let memory: any PeripheralMemory
    /// What to look for and how long to wait.
    public let configuration: ConnectionConfiguration
    /// The messenger, connected while the chart is ready.
    public let messenger: Messenger
    /// The radio's last reported state.
    public internal(set) var power: CentralState = .unknown
    /// The peripheral being connected to, or connected.
    public internal(set) var peripheral: PeripheralID?
    /// Peripherals the system handed back after a relaunch, held until Bluetooth is on.
    public internal(set) var restored: [RestoredPeripheral] = []
    /// Why the connection is not ready, when something went wrong.
    public internal(set) var failure: ConnectionFailure?
    /// Where ``ConnectionState/choosing`` decided to go.
    var start: Start = .idle

    /// Where a connection starts once Bluetooth is on.
    enum Start: Sendable {
        /// A restored peripheral that is still connected: discover it.
        case connected
        /// A restored peripheral with a pending connection: the system keeps asking, with no
        /// timeout, as for a device out of range.
        case waitForReturn
        /// A known peripheral: connect to it.
        case connect
        /// A remembered peripheral the system does not know now: look for it.
        case scan
        /// Nothing paired: wait for the app.
        case idle
    }

    /// A context.
    public init(
        central: any BluetoothCentral, memory: any PeripheralMemory, configuration: ConnectionConfiguration,
        messenger: Messenger
    ) {
        self.central = central
        self.memory = memory
        self.configuration = configuration
        self.messenger = messenger
    }

    /// Picks where to start: a restored peripheral (the remembered one first), the remembered
    /// one if the system knows it, one connected to the system with the service, else a scan
    /// when a peripheral is remembered and nothing otherwise.
    mutating func chooseStart() {
        let remembered = memory.pairedPeripheral
        let restored = self.restored
        self.restored = []
        if let candidate = restored.first(where: { $0.id == remembered }) ?? (remembered == nil ? restored.first : nil)
        {
            peripheral = candidate.id
            start = candidate.isConnected ? .connected : .waitForReturn
        } else if let remembered, central.retrievePeripherals(withIdentifiers: [remembered]).contains(remembered) {
            peripheral = remembered
            start = .connect
        } else if let connected = central.retrieveConnectedPeripherals(withServices: [configuration.service]).first {
            peripheral = connected
            start = .connect
        } else {
            peripheral = nil
            start = remembered == nil ? .idle : .scan
        }
    }

    /// Forgets the peripheral: the connection, if any, is cancelled and the memory cleared.
    mutating func forget() {
        if let peripheral { central.cancelPeripheralConnection(peripheral) }
        memory.pairedPeripheral = nil
        peripheral = nil
        failure = nil
    }
}
