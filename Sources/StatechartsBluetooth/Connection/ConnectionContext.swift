import struct Foundation.Data

/// What a ``BluetoothConnection``'s chart knows: the central it drives, what it hears and is
/// connected to, and why it is not ready.
public struct ConnectionContext: Sendable {
    /// The central the chart's actions command.
    public let central: any BluetoothCentral
    /// Where the paired peripheral is remembered.
    public let memory: any PeripheralMemory
    /// What to look for and how long to wait.
    public let configuration: ConnectionConfiguration
    /// The messenger, connected while the chart is ready.
    public let messenger: Messenger
    /// The time on the connection's clock, since the connection was made.
    let now: @Sendable () -> Duration
    /// The radio's last reported state.
    public internal(set) var power: CentralState = .unknown
    /// The peripheral being connected to, or connected.
    public internal(set) var peripheral: PeripheralID?
    /// The peripherals heard while searching that pass the filter, strongest signal first.
    public internal(set) var nearby: [NearbyPeripheral] = []
    /// The services discovered on the peripheral, with their characteristics.
    public internal(set) var services: [BluetoothUUID: [DiscoveredCharacteristic]] = [:]
    /// How the messenger writes on this link, once discovered.
    public internal(set) var writeType: WriteType?
    /// Peripherals the system handed back after a relaunch, held until Bluetooth is on.
    public internal(set) var restored: [RestoredPeripheral] = []
    /// Why the connection is not ready, when something went wrong.
    public internal(set) var failure: ConnectionFailure?
    /// Where ``ConnectionState/choosing`` decided to go.
    var start: Start = .idle
    /// The remembered peripheral a scan looks for, when the system no longer knows it.
    var sought: PeripheralID?
    /// Whether a ``PairingPolicy/strongestSignal(listening:)`` scan has listened long enough.
    var listened = false
    /// Services whose characteristics are still being discovered.
    var servicesToDiscover: Set<BluetoothUUID> = []

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
    ///
    /// - Parameters:
    ///   - central: The central the chart's actions command.
    ///   - memory: Where the paired peripheral is remembered.
    ///   - configuration: What to look for and how long to wait.
    ///   - messenger: The messenger to connect while ready.
    ///   - now: The time on the connection's clock; the nearby list is aged by it.
    public init(
        central: any BluetoothCentral, memory: any PeripheralMemory, configuration: ConnectionConfiguration,
        messenger: Messenger, now: @escaping @Sendable () -> Duration
    ) {
        self.central = central
        self.memory = memory
        self.configuration = configuration
        self.messenger = messenger
        self.now = now
    }

    /// Picks where to start: a restored peripheral (the remembered one first), the remembered
    /// one if the system knows it, one connected to the system with the service, else a scan
    /// for the remembered one, and nothing when none is remembered.
    mutating func chooseStart() {
        let remembered = memory.pairedPeripheral
        let restored = self.restored
        self.restored = []
        sought = nil
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
            sought = remembered
            start = remembered == nil ? .idle : .scan
        }
    }

    /// Starts a scan for the service, hearing every advertisement so that the signal follows
    /// the devices.
    mutating func startSearching() {
        failure = nil
        nearby = []
        listened = false
        central.scanForPeripherals(
            withServices: [configuration.service], options: ScanOptions(allowDuplicates: true))
    }

    /// Notes a sighting that passes the filter (and, when looking for the remembered peripheral,
    /// is that one).
    mutating func noteSighting(_ event: ConnectionEvent?) {
        guard case .discovered(let id, let advertisement, let rssi) = event,
            configuration.scanFilter.accepts(advertisement, rssi: rssi), sought == nil || sought == id
        else { return }
        nearby.note(NearbyPeripheral(id: id, advertisement: advertisement, rssi: rssi, lastSeen: now()))
    }

    /// Drops the peripherals not heard within the nearby timeout.
    mutating func removeSilentPeripherals() {
        nearby.removeSilent(olderThan: configuration.nearbyTimeout, at: now())
    }

    /// The peripheral the pairing policy picks now, if any.
    var policyChoice: PeripheralID? {
        switch configuration.pairingPolicy {
        case .firstFound: nearby.first?.id
        case .strongestSignal: listened ? nearby.first?.id : nil
        }
    }

    /// Makes `peripheral` the one to connect to.
    mutating func choose(_ peripheral: PeripheralID?) {
        self.peripheral = peripheral
        sought = nil
    }

    /// Starts discovering: the message service and the additional ones.
    mutating func discoverServices() {
        services = [:]
        writeType = nil
        guard let peripheral else { return }
        central.discoverServices([configuration.service] + configuration.additionalServices, of: peripheral)
    }

    /// Notes the services found and asks for each one's characteristics: the message ones of the
    /// message service, all of the others.
    mutating func discoverCharacteristics(of found: [BluetoothUUID]) {
        guard let peripheral else { return }
        let wanted = Set([configuration.service] + configuration.additionalServices)
        servicesToDiscover = Set(found).intersection(wanted)
        for service in found.filter(servicesToDiscover.contains) {
            let characteristics =
                service == configuration.service
                ? [configuration.writeCharacteristic, configuration.notifyCharacteristic] : nil
            central.discoverCharacteristics(characteristics, of: service, of: peripheral)
        }
    }

    /// Notes a service's characteristics.
    mutating func noteCharacteristics(_ event: ConnectionEvent?) {
        guard case .discoveredCharacteristics(_, let service, let characteristics, _) = event,
            servicesToDiscover.remove(service) != nil
        else { return }
        services[service] = characteristics
    }

    /// What is wrong with the message service's characteristics, or `nil` when the messenger
    /// can use them.
    var messageCharacteristicsProblem: String? {
        if case .failure(let problem) = checkMessageCharacteristics() { problem.reason } else { nil }
    }

    /// How the messenger is to write, once the characteristics pass.
    var chosenWriteType: WriteType? { try? checkMessageCharacteristics().get() }

    /// Why discovery found the peripheral unfit.
    struct DiscoveryProblem: Error {
        var reason: String
    }

    private func checkMessageCharacteristics() -> Result<WriteType, DiscoveryProblem> {
        let found = services[configuration.service] ?? []
        let properties = { (uuid: BluetoothUUID) in found.first { $0.uuid == uuid }?.properties }
        let (writeUUID, notifyUUID) = (configuration.writeCharacteristic, configuration.notifyCharacteristic)
        guard let write = properties(writeUUID) else {
            return .failure(DiscoveryProblem(reason: "missing \(writeUUID)"))
        }
        guard let notify = properties(notifyUUID) else {
            return .failure(DiscoveryProblem(reason: "missing \(notifyUUID)"))
        }
        if notify.isDisjoint(with: [.notify, .indicate]) {
            return .failure(DiscoveryProblem(reason: "\(notifyUUID) neither notifies nor indicates"))
        }
        switch configuration.writePreference {
        case .automatic where write.contains(.writeWithoutResponse): return .success(.withoutResponse)
        case .automatic, .withResponse:
            guard write.contains(.write) else {
                return .failure(DiscoveryProblem(reason: "\(writeUUID) cannot be written"))
            }
            return .success(.withResponse)
        case .withoutResponse:
            guard write.contains(.writeWithoutResponse) else {
                return .failure(DiscoveryProblem(reason: "\(writeUUID) cannot be written without response"))
            }
            return .success(.withoutResponse)
        }
    }

    /// Keeps the peripheral as the paired one, with the name it advertised.
    func rememberPeripheral() {
        guard let peripheral else { return }
        memory.pairedPeripheral = peripheral
        if let name = nearby.first(where: { $0.id == peripheral })?.name {
            memory.setValue(Data(name.utf8), forKey: ConnectionContext.nameKey, of: peripheral)
        }
    }

    /// The key under which the name a device last advertised is kept in the memory.
    public static let nameKey = "name"

    /// Forgets the peripheral: the connection, if any, is cancelled and the memory cleared.
    mutating func forget() {
        if let peripheral {
            central.cancelPeripheralConnection(peripheral)
            memory.forget(peripheral)
        }
        // Bluetooth off: no peripheral is chosen, but one may be remembered.
        if let remembered = memory.pairedPeripheral { memory.forget(remembered) }
        memory.pairedPeripheral = nil
        peripheral = nil
        failure = nil
    }
}
