import Statecharts

import struct Foundation.Data

/// A ``BluetoothCentral`` with simulated peripherals, on any clock, with faults injected on
/// command: for tests, demos and throughput measurements.
///
/// It behaves as CoreBluetooth does where the connection chart depends on it: connection
/// requests never time out and complete when the peripheral is in range; cancelling a connection
/// reports a disconnect with no error; a peripheral leaving range disconnects with
/// `connectionTimeout`; turning Bluetooth off drops every connection and reports only the new
/// state; a relaunch (``relaunched(reporting:)``) hands back the peripherals the system kept before it
/// reports its state. A scan reports what each peripheral advertises and its signal, once or, when
/// duplicates are allowed, every advertising interval. Writes with response are confirmed, writes
/// without response are paced by ``canSendWriteWithoutResponse(to:)``, and with a
/// ``LinkTiming`` every packet waits for a connection event. Everything it reports goes to the
/// streams of ``events()`` in order, and with a test clock everything happens at a known time.
public final class SimulatedCentral: BluetoothCentral {
    /// The simulated peripherals.
    public let peripherals: [SimulatedPeripheral]

    private let hub: CentralEventHub
    private let world: Locked<CentralWorld>
    private let clock: KitClock
    private let emitted = ReportCounter()
    /// The delays waiting on the clock, cancelled when the central is freed.
    private let pendingDelays = Locked(PendingDelays())

    /// The delays waiting on the clock, by a key each.
    private struct PendingDelays: ~Copyable {
        var tasks: [Int: Task<Void, Never>] = [:]
        /// When each delay ends, as time on the clock since the central was made.
        var deadlines: [Int: Duration] = [:]
        var nextKey = 0

        mutating func remove(_ key: Int) {
            tasks[key] = nil
            deadlines[key] = nil
        }
    }

    /// A central whose radio is in `state`, with `peripherals` around it.
    ///
    /// A subscriber's stream starts with `state`, as `centralManagerDidUpdateState` is called at start.
    public convenience init<C: Clock>(
        clock: C, state: CentralState = .poweredOn, peripherals: [SimulatedPeripheral]
    ) where C.Duration == Duration {
        self.init(
            clock: KitClock(clock), world: CentralWorld(power: state), peripherals: peripherals, restoring: nil)
    }

    private init(
        clock: KitClock, world: CentralWorld, peripherals: [SimulatedPeripheral],
        restoring: [RestoredPeripheral]?
    ) {
        self.peripherals = peripherals
        self.clock = clock
        hub = CentralEventHub(state: world.power)
        self.world = Locked(world)
        if let restoring { emit(.willRestore(restoring)) }
        emit(.stateChanged(world.power))
    }

    /// How many reports the central has made.
    public var reportCount: Int { emitted.value }

    /// Whether a delay whose time has come has yet to run its work: ``BluetoothConnection/settle(reportsOf:)``
    /// waits for it, so that what the clock set off is reported before a test looks.
    var hasDueDelays: Bool {
        let now = clock.elapsed()
        return pendingDelays.withLock { delays in delays.deadlines.values.contains { $0 <= now } }
    }

    /// How long until the earliest pending delay is due, if any: zero when one is already due.
    /// A test that advances its clock in steps stops there, so that what the delay sets off is
    /// timed from its deadline, not from the end of the step.
    package var timeToNextDelay: Duration? {
        let now = clock.elapsed()
        return pendingDelays.withLock { delays in delays.deadlines.values.min().map { max(.zero, $0 - now) } }
    }

    // MARK: - BluetoothCentral

    /// The radio's state.
    public var state: CentralState { world.withLock { $0.power } }

    /// A new subscriber's stream: the restoration at launch if any, the state, then every report.
    public func events() -> AsyncStream<CentralEvent> { hub.subscribe() }

    /// A new subscriber's stream, counting what it is given: for ``BluetoothConnection/settle(reportsOf:)``.
    package func events(counting delivered: ReportCounter) -> AsyncStream<CentralEvent> {
        hub.subscribe(counting: delivered)
    }

    /// How many subscribers there are.
    public var subscriberCount: Int { hub.subscriberCount }

    /// Starts a scan: each peripheral in range that advertises one of `services` (any, when
    /// `services` is empty) is discovered after its advertising delay, and again every
    /// advertising interval when `options` allow duplicates.
    public func scanForPeripherals(withServices services: [BluetoothUUID], options: ScanOptions) {
        let (found, generation): ([SimulatedPeripheral], Int) = world.withLock { world in
            guard world.power == .poweredOn else { return ([], 0) }
            world.scanGeneration += 1
            world.scan = Scan(services: services, options: options, generation: world.scanGeneration)
            return (peripherals.filter { $0.isInRange && world.scan?.finds($0) == true }, world.scanGeneration)
        }
        for peripheral in found { announce(peripheral, generation: generation, after: peripheral.advertisingDelay) }
    }

    /// Stops the scan.
    public func stopScan() {
        world.withLock { world in
            world.scan = nil
            world.scanGeneration += 1
        }
    }

    /// Whether a scan is on.
    public var isScanning: Bool { world.withLock { $0.scan != nil } }

    /// Asks for a connection: it completes after the peripheral's connect delay once it is in
    /// range, or fails with an injected failure.
    public func connect(_ id: PeripheralID) {
        guard let peripheral = peripheral(id), world.withLock({ $0.power == .poweredOn }) else { return }
        world.withLock { _ = $0.pending.insert(id) }
        let failure: BluetoothError? = peripheral.state.withLock { state in
            state.connectionFailures.isEmpty ? nil : state.connectionFailures.removeFirst()
        }
        if let failure {
            world.withLock { _ = $0.pending.remove(id) }
            emit(.failedToConnect(id, failure))
            return
        }
        if peripheral.isInRange { completeConnection(to: peripheral) }
    }

    /// Cancels a connection (reported as a disconnect with no error) or a pending attempt.
    public func cancelPeripheralConnection(_ id: PeripheralID) {
        let wasConnected = world.withLock { world in
            world.pending.remove(id)
            return world.connected.removeValue(forKey: id) != nil
        }
        if wasConnected { emit(.disconnected(id, nil)) }
    }

    /// The peripherals among `identifiers` the system knows.
    public func retrievePeripherals(withIdentifiers identifiers: [PeripheralID]) -> [PeripheralID] {
        peripherals.filter { identifiers.contains($0.id) && $0.state.withLock { $0.knownToSystem } }.map(\.id)
    }

    /// The peripherals held connected by the system that offer one of `services`.
    public func retrieveConnectedPeripherals(withServices services: [BluetoothUUID]) -> [PeripheralID] {
        peripherals.filter { $0.offersAny(of: services) && $0.state.withLock { $0.connectedToSystem } }.map(\.id)
    }

    /// Discovers services after the peripheral's discovery delay.
    public func discoverServices(_ services: [BluetoothUUID]?, of id: PeripheralID) {
        guard let peripheral = peripheral(id) else { return }
        after(peripheral.discoveryDelay) { central in
            guard central.isConnected(id) else { return }
            let offered = peripheral.services.keys.sorted { $0.text < $1.text }
            let found = services.map { $0.filter { peripheral.services[$0] != nil } } ?? offered
            central.emit(.discoveredServices(id, found, nil))
        }
    }

    /// Discovers characteristics, with their properties, after the peripheral's discovery delay.
    public func discoverCharacteristics(
        _ characteristics: [BluetoothUUID]?, of service: BluetoothUUID, of id: PeripheralID
    ) {
        guard let peripheral = peripheral(id) else { return }
        after(peripheral.discoveryDelay) { central in
            guard central.isConnected(id) else { return }
            guard let offered = peripheral.services[service] else {
                central.emit(.discoveredCharacteristics(id, service: service, [], BluetoothError(.invalidParameters)))
                return
            }
            let found = characteristics.map { $0.filter(offered.contains) } ?? offered
            let discovered = found.map { uuid in
                DiscoveredCharacteristic(
                    uuid: uuid, properties: peripheral.properties(of: CharacteristicID(service: service, uuid: uuid)))
            }
            central.emit(.discoveredCharacteristics(id, service: service, discovered, nil))
        }
    }

    /// Discovers descriptors: a characteristic that notifies or indicates has the Client
    /// Characteristic Configuration descriptor.
    public func discoverDescriptors(of characteristic: CharacteristicID, of id: PeripheralID) {
        guard let peripheral = peripheral(id) else { return }
        after(peripheral.discoveryDelay) { central in
            guard central.isConnected(id) else { return }
            guard peripheral.offers(characteristic) else {
                central.emit(
                    .discoveredDescriptors(
                        id, characteristic: characteristic, [], BluetoothError(attribute: .attributeNotFound)))
                return
            }
            let notifies = !peripheral.properties(of: characteristic).isDisjoint(with: [.notify, .indicate])
            central.emit(
                .discoveredDescriptors(
                    id, characteristic: characteristic, notifies ? [.clientCharacteristicConfiguration] : [], nil))
        }
    }

    /// Reads a characteristic: its value, or `readNotPermitted` when it cannot be read. With a
    /// link timing, the answer takes two connection intervals.
    public func readValue(of characteristic: CharacteristicID, of id: PeripheralID) {
        guard let peripheral = peripheral(id), isConnected(id) else {
            emit(.valueUpdated(id, characteristic: characteristic, value: nil, error: BluetoothError(.notConnected)))
            return
        }
        let delay = peripheral.linkTiming.map { $0.connectionInterval * 2 } ?? .zero
        after(delay) { central in
            guard central.isConnected(id) else { return }
            if !peripheral.offers(characteristic) {
                central.emit(
                    .valueUpdated(
                        id, characteristic: characteristic, value: nil,
                        error: BluetoothError(attribute: .attributeNotFound)))
            } else if !peripheral.properties(of: characteristic).contains(.read) {
                central.emit(
                    .valueUpdated(
                        id, characteristic: characteristic, value: nil,
                        error: BluetoothError(attribute: .readNotPermitted)))
            } else {
                central.emit(
                    .valueUpdated(
                        id, characteristic: characteristic, value: peripheral.value(of: characteristic) ?? Data(),
                        error: nil))
            }
        }
    }

    /// Writes a chunk. With response it is confirmed (or refused with `writeNotPermitted`);
    /// without, it is dropped when ``canSendWriteWithoutResponse(to:)`` is false or the
    /// characteristic does not take it. With no link timing it reaches the peripheral at once.
    public func writeValue(
        _ value: Data, to characteristic: CharacteristicID, of id: PeripheralID, type: WriteType
    ) {
        guard let peripheral = peripheral(id), isConnected(id) else {
            if type == .withResponse {
                emit(.wroteValue(id, characteristic: characteristic, error: BluetoothError(.notConnected)))
            }
            return
        }
        let properties = peripheral.properties(of: characteristic)
        switch type {
        case .withResponse where !peripheral.offers(characteristic) || !properties.contains(.write):
            emit(.wroteValue(id, characteristic: characteristic, error: BluetoothError(attribute: .writeNotPermitted)))
            return
        case .withoutResponse where !peripheral.offers(characteristic) || !properties.contains(.writeWithoutResponse):
            peripheral.state.withLock { $0.droppedWrites += 1 }
            return
        default: break
        }
        if let timing = peripheral.linkTiming {
            let queued: Bool = world.withLock { world in
                guard var link = world.connected[id] else { return false }
                defer { world.connected[id] = link }
                if type == .withoutResponse {
                    guard link.bufferedWithoutResponse < timing.writeWithoutResponseBuffer else {
                        link.refused = true
                        return false
                    }
                    link.bufferedWithoutResponse += 1
                }
                link.up.append(UpPacket(characteristic: characteristic, value: value, type: type))
                return true
            }
            if queued {
                scheduleConnectionEvent(for: peripheral)
            } else if type == .withoutResponse {
                peripheral.state.withLock { $0.droppedWrites += 1 }
            }
            return
        }
        if type == .withoutResponse && !canSendWriteWithoutResponse(to: id) {
            peripheral.state.withLock { $0.droppedWrites += 1 }
            return
        }
        guard transmit(value, type: type, to: peripheral) else { return }
        if type == .withResponse { emit(.wroteValue(id, characteristic: characteristic, error: nil)) }
    }

    /// Whether a write without response would be taken now: always while connected with no link
    /// timing, else while the central's buffer has room.
    public func canSendWriteWithoutResponse(to id: PeripheralID) -> Bool {
        guard let peripheral = peripheral(id) else { return false }
        let capacity = peripheral.linkTiming?.writeWithoutResponseBuffer
        return world.withLock { world in
            guard var link = world.connected[id] else { return false }
            guard let capacity else { return true }
            if link.bufferedWithoutResponse < capacity { return true }
            link.refused = true
            world.connected[id] = link
            return false
        }
    }

    /// Turns notifications on or off; a characteristic that neither notifies nor indicates
    /// refuses with `requestNotSupported`.
    public func setNotifyValue(_ enabled: Bool, for characteristic: CharacteristicID, of id: PeripheralID) {
        guard let peripheral = peripheral(id), isConnected(id) else {
            emit(
                .notificationStateChanged(
                    id, characteristic: characteristic, enabled: false, error: BluetoothError(.notConnected)))
            return
        }
        guard peripheral.offers(characteristic),
            !peripheral.properties(of: characteristic).isDisjoint(with: [.notify, .indicate])
        else {
            emit(
                .notificationStateChanged(
                    id, characteristic: characteristic, enabled: false,
                    error: BluetoothError(attribute: .requestNotSupported)))
            return
        }
        world.withLock { world in
            world.connected[id]?.notifying.removeAll { $0 == characteristic }
            if enabled { world.connected[id]?.notifying.append(characteristic) }
        }
        emit(.notificationStateChanged(id, characteristic: characteristic, enabled: enabled, error: nil))
    }

    /// Reports the peripheral's signal strength.
    public func readRSSI(of id: PeripheralID) {
        guard let peripheral = peripheral(id), isConnected(id) else {
            emit(.readRSSI(id, rssi: 0, error: BluetoothError(.notConnected)))
            return
        }
        emit(.readRSSI(id, rssi: peripheral.rssi, error: nil))
    }

    /// The peripheral's write length, for both types: the simulator does not model long writes,
    /// where CoreBluetooth reports 512 bytes for writes with response.
    public func maximumWriteValueLength(for id: PeripheralID, type: WriteType) -> Int {
        peripheral(id)?.writeLength ?? 20
    }

    // MARK: - Faults and the world around

    /// Turns Bluetooth off: every connection and the scan end, and only the new state is reported.
    public func powerOff() { setState(.poweredOff) }

    /// Turns Bluetooth on.
    public func powerOn() { setState(.poweredOn) }

    /// Sets the radio's state (`unauthorized`, `resetting`, …) and reports it.
    public func setState(_ state: CentralState) {
        world.withLock { world in
            world.power = state
            if state != .poweredOn {
                world.connected.removeAll()
                world.pending.removeAll()
                world.scan = nil
                world.scanGeneration += 1
            }
        }
        emit(.stateChanged(state))
    }

    /// Takes a peripheral out of range: a connection to it drops with `error`
    /// (`connectionTimeout` by default); attempts wait for it to return, and scans stop hearing it.
    public func moveOutOfRange(_ id: PeripheralID, error: BluetoothError = BluetoothError(.connectionTimeout)) {
        guard let peripheral = peripheral(id) else { return }
        peripheral.state.withLock { $0.inRange = false }
        dropConnection(id, error: error)
    }

    /// Brings a peripheral back into range: a pending connection completes and a scan finds it.
    public func bringIntoRange(_ id: PeripheralID) {
        guard let peripheral = peripheral(id) else { return }
        peripheral.state.withLock { $0.inRange = true }
        let (pending, scan) = world.withLock { ($0.pending.contains(id), $0.scan) }
        if pending { completeConnection(to: peripheral) }
        if let scan, scan.finds(peripheral) {
            announce(peripheral, generation: scan.generation, after: peripheral.advertisingDelay)
        }
    }

    /// Drops a connection with `error`, as the link layer would: what was on the air is lost.
    public func dropConnection(_ id: PeripheralID, error: BluetoothError?) {
        let wasConnected = world.withLock { $0.connected.removeValue(forKey: id) != nil }
        guard wasConnected else { return }
        peripheral(id)?.dropPartialMessages()
        emit(.disconnected(id, error))
    }

    /// Makes the next connection attempts to a peripheral fail, one error each.
    public func failNextConnections(to id: PeripheralID, with errors: [BluetoothError]) {
        peripheral(id)?.state.withLock { $0.connectionFailures += errors }
    }

    /// Makes connection attempts to a peripheral never complete (or complete again).
    public func setUnresponsive(_ id: PeripheralID, _ unresponsive: Bool) {
        peripheral(id)?.state.withLock { $0.unresponsive = unresponsive }
    }

    /// Loses the `number`th notification chunk from now (1 is the next one).
    public func loseNotificationChunk(from id: PeripheralID, number: Int) {
        peripheral(id)?.state.withLock { $0.notificationsUntilLoss = max(number, 1) }
    }

    /// Loses the `number`th written chunk from now on the air; its write is still confirmed.
    public func loseWrittenChunk(to id: PeripheralID, number: Int) {
        peripheral(id)?.state.withLock { $0.writesUntilLoss = max(number, 1) }
    }

    /// Drops the link with `error` after `chunks` more chunks (written or notified) go through:
    /// a message cut part-way.
    public func cutConnection(to id: PeripheralID, afterChunks chunks: Int, error: BluetoothError) {
        peripheral(id)?.state.withLock { $0.cut = (max(chunks, 0), error) }
    }

    /// The peripheral's app sends a message (or a request) to the app, as notifications.
    public func send(_ message: Data, from id: PeripheralID, asRequest: Bool = false) {
        guard let peripheral = peripheral(id) else { return }
        notify(from: peripheral, message, kind: asRequest ? .request : .message, replyTo: nil)
    }

    /// Sets a characteristic's value on the peripheral; the central is notified when it turned
    /// notifications on for it.
    public func updateValue(_ value: Data, of characteristic: CharacteristicID, on id: PeripheralID) {
        guard let peripheral = peripheral(id) else { return }
        peripheral.state.withLock { $0.values[characteristic] = value }
        let notifying = world.withLock { $0.connected[id]?.notifying.contains(characteristic) ?? false }
        if notifying { emit(.valueUpdated(id, characteristic: characteristic, value: value, error: nil)) }
    }

    /// The app is relaunched by the system: the connections the system kept, and their pending
    /// attempts, go on in a new central, which reports them (`willRestoreState`) and then its
    /// state. This central reports nothing more.
    ///
    /// - Parameter power: The state the new central reports, if not the current one: `.unknown`
    ///   shows a restoration arriving before Bluetooth is known to be on.
    public func relaunched(reporting power: CentralState? = nil) -> SimulatedCentral {
        let world = self.world.withLock { world in
            var kept = world
            if let power { kept.power = power }
            world = CentralWorld(power: world.power)
            return kept
        }
        hub.finish()
        let restoring =
            world.connected.keys.sorted { $0.description < $1.description }.map {
                RestoredPeripheral(id: $0, isConnected: true)
            }
            + world.pending.sorted { $0.description < $1.description }.map {
                RestoredPeripheral(id: $0, isConnected: false)
            }
        var kept = CentralWorld(power: world.power)
        kept.pending = world.pending
        for (id, link) in world.connected {
            kept.connected[id] = SimulatedLink(serial: link.serial, connectedAt: link.connectedAt)
        }
        kept.nextSerial = world.nextSerial
        return SimulatedCentral(clock: clock, world: kept, peripherals: peripherals, restoring: restoring)
    }

    // MARK: - Doing it

    private func peripheral(_ id: PeripheralID) -> SimulatedPeripheral? { peripherals.first { $0.id == id } }

    private func isConnected(_ id: PeripheralID) -> Bool { world.withLock { $0.connected[id] != nil } }

    private func emit(_ event: CentralEvent) {
        emitted.increment()
        hub.publish(event)
    }

    /// Runs `work` after `delay` on the clock, or now when `delay` is zero.
    ///
    /// The work gets the central, held weakly while it waits: a central released with work still
    /// pending (a test that ends) is freed, with its clock, and the work never runs.
    private func after(_ delay: Duration, _ work: @escaping @Sendable (SimulatedCentral) -> Void) {
        guard delay > .zero else { return work(self) }
        pendingDelays.withLock { delays in
            let key = delays.nextKey
            delays.nextKey += 1
            // Made under the lock, so that its removal (which takes the lock) follows its insertion.
            // Timed from now, not from when the task first runs.
            let wait = clock.deadline(delay)
            delays.deadlines[key] = clock.elapsed() + delay
            delays.tasks[key] = Task { [weak self] in
                if (try? await wait()) != nil, let self { work(self) }
                self?.pendingDelays.withLock { $0.remove(key) }
            }
        }
    }

    deinit {
        // A task asleep on a manual clock and the clock hold each other: cancelling the sleep
        // takes it off the clock, so both are freed.
        pendingDelays.withLock { delays in
            for task in delays.tasks.values { task.cancel() }
        }
    }

    /// Reports `peripheral` after `delay` if the scan of `generation` is still on and it is in
    /// range; again every advertising interval when the scan allows duplicates.
    private func announce(_ peripheral: SimulatedPeripheral, generation: Int, after delay: Duration) {
        after(delay) { central in
            let scan = central.world.withLock { world in
                world.scan.flatMap { $0.generation == generation && $0.finds(peripheral) ? $0 : nil }
            }
            guard let scan, peripheral.isInRange else { return }
            let (advertisement, rssi) = peripheral.state.withLock { ($0.advertisement, $0.rssi) }
            central.emit(.discovered(peripheral.id, advertisement, rssi: rssi))
            if scan.options.allowDuplicates {
                central.announce(peripheral, generation: generation, after: peripheral.advertisingInterval)
            }
        }
    }

    private func completeConnection(to peripheral: SimulatedPeripheral) {
        guard !peripheral.state.withLock({ $0.unresponsive }) else { return }
        after(peripheral.connectDelay) { central in
            let now = central.clock.elapsed()
            let connected = central.world.withLock { world in
                guard world.power == .poweredOn, peripheral.isInRange, world.pending.remove(peripheral.id) != nil else {
                    return false
                }
                world.nextSerial += 1
                world.connected[peripheral.id] = SimulatedLink(serial: world.nextSerial, connectedAt: now)
                return true
            }
            if connected {
                _ = peripheral.state.withLock { $0.reassembler.reset() }
                central.emit(.connected(peripheral.id))
            }
        }
    }

    /// Puts a chunk on the air to the peripheral's app: it may be lost or cut the link. Returns
    /// whether the link is still up.
    private func transmit(_ chunk: Data, type: WriteType, to peripheral: SimulatedPeripheral) -> Bool {
        if let error = peripheral.state.withLock({ $0.linkDropsBeforeChunk() }) {
            // The link drops before the chunk goes out; CoreBluetooth reports no write after that.
            dropConnection(peripheral.id, error: error)
            return false
        }
        let lost: Bool = peripheral.state.withLock { state in
            if type == .withResponse { state.writesWithResponse += 1 } else { state.writesWithoutResponse += 1 }
            guard let remaining = state.writesUntilLoss else { return false }
            state.writesUntilLoss = remaining > 1 ? remaining - 1 : nil
            return remaining == 1
        }
        let replies = lost ? [] : peripheral.receive(chunk)
        for (reply, request) in replies {
            after(reply.delay) { central in
                central.notify(from: peripheral, reply.payload, kind: .response, replyTo: request)
            }
        }
        return true
    }

    private func notify(
        from peripheral: SimulatedPeripheral, _ message: Data, kind: MessageFrame.Kind, replyTo: UInt16?
    ) {
        let chunks: [Data] = peripheral.state.withLock { state in
            state.lastMessageID &+= 1
            let chunker = try? MessageChunker(chunkLength: state.writeLength, maximumMessageLength: Int.max)
            let chunks =
                (try? chunker?.chunks(of: message, kind: kind, id: state.lastMessageID, replyTo: replyTo)) ?? nil
            return chunks ?? []
        }
        if peripheral.linkTiming != nil {
            // Notifications wait for connection events, on the characteristic they go out on then.
            let queued = world.withLock { world in
                guard world.connected[peripheral.id] != nil else { return false }
                world.connected[peripheral.id]?.down.append(contentsOf: chunks.map { DownPacket.notification($0) })
                return true
            }
            if queued { scheduleConnectionEvent(for: peripheral) }
            return
        }
        for chunk in chunks where !notifyChunk(chunk, from: peripheral) { return }
    }

    /// Sends one notification chunk on the characteristic the app turned notifications on for,
    /// while connected; returns whether the link is still up.
    private func notifyChunk(_ chunk: Data, from peripheral: SimulatedPeripheral) -> Bool {
        let characteristic = world.withLock { $0.connected[peripheral.id]?.notifying.first }
        guard let characteristic else { return false }
        if let error = peripheral.state.withLock({ $0.linkDropsBeforeChunk() }) {
            dropConnection(peripheral.id, error: error)
            return false
        }
        let lost: Bool = peripheral.state.withLock { state in
            guard let remaining = state.notificationsUntilLoss else { return false }
            state.notificationsUntilLoss = remaining > 1 ? remaining - 1 : nil
            return remaining == 1
        }
        if !lost { emit(.valueUpdated(peripheral.id, characteristic: characteristic, value: chunk, error: nil)) }
        return true
    }

    // MARK: - Connection events

    /// Arms the next connection event of `peripheral`'s link, unless one is armed.
    private func scheduleConnectionEvent(for peripheral: SimulatedPeripheral) {
        guard let timing = peripheral.linkTiming else { return }
        let now = clock.elapsed()
        let armed: (serial: Int, delay: Duration)? = world.withLock { world in
            guard var link = world.connected[peripheral.id], !link.eventArmed else { return nil }
            link.eventArmed = true
            world.connected[peripheral.id] = link
            let interval = timing.connectionInterval.nanoseconds
            let sinceConnection = (now - link.connectedAt).nanoseconds
            let next = (sinceConnection / interval + 1) * interval
            return (link.serial, .nanoseconds(next - sinceConnection))
        }
        guard let armed else { return }
        after(armed.delay) { central in central.connectionEvent(of: peripheral, serial: armed.serial) }
    }

    /// One connection event: packets go each way, up to the link's count of link-layer packets;
    /// a PDU longer than what is left of the event takes the rest from the events after.
    private func connectionEvent(of peripheral: SimulatedPeripheral, serial: Int) {
        guard let timing = peripheral.linkTiming else { return }
        let perEvent = timing.packetsPerConnectionEvent
        let taken: (up: [UpPacket], down: [DownPacket], ready: Bool, more: Bool)? = world.withLock { world in
            guard var link = world.connected[peripheral.id], link.serial == serial else { return nil }
            defer { world.connected[peripheral.id] = link }
            link.eventArmed = false
            // The peripheral's packets first: a response frees the central for its next request.
            var down: [DownPacket] = []
            if link.downDebt >= perEvent {
                link.downDebt -= perEvent
            } else {
                var budget = perEvent - link.downDebt
                while budget > 0, let next = link.down.first {
                    budget -= next.packets(timing)
                    down.append(next)
                    _ = link.down.takeFirst(1)
                }
                link.downDebt = max(0, -budget)
            }
            if down.contains(where: \.isResponse) { link.requestInFlight = false }
            var up: [UpPacket] = []
            if link.upDebt >= perEvent {
                link.upDebt -= perEvent
            } else {
                var budget = perEvent - link.upDebt
                while budget > 0, let next = link.up.first {
                    if next.type == .withResponse {
                        if link.requestInFlight { break }
                        link.requestInFlight = true
                    } else {
                        link.bufferedWithoutResponse -= 1
                    }
                    budget -= timing.packets(forValueOf: next.value.count)
                    up.append(next)
                    _ = link.up.takeFirst(1)
                }
                link.upDebt = max(0, -budget)
            }
            let ready = link.refused && link.bufferedWithoutResponse < timing.writeWithoutResponseBuffer
            if ready { link.refused = false }
            return (up, down, ready, !link.up.isEmpty || !link.down.isEmpty || link.upDebt > 0 || link.downDebt > 0)
        }
        guard let taken else { return }
        for packet in taken.down {
            switch packet {
            case .notification(let chunk):
                guard notifyChunk(chunk, from: peripheral) else { return }
            case .response(let characteristic):
                emit(.wroteValue(peripheral.id, characteristic: characteristic, error: nil))
            }
        }
        for packet in taken.up {
            guard transmit(packet.value, type: packet.type, to: peripheral) else { return }
            if packet.type == .withResponse {
                // Confirmed at the next connection event.
                world.withLock { $0.connected[peripheral.id]?.down.append(.response(packet.characteristic)) }
            }
        }
        if taken.ready { emit(.readyToSendWriteWithoutResponse(peripheral.id)) }
        let more = world.withLock { world in
            world.connected[peripheral.id].map { !$0.up.isEmpty || !$0.down.isEmpty } ?? false
        }
        if taken.more || more { scheduleConnectionEvent(for: peripheral) }
    }
}

extension SimulatedPeripheral {
    func offersAny(of services: [BluetoothUUID]) -> Bool { services.contains { self.services[$0] != nil } }

    func offers(_ characteristic: CharacteristicID) -> Bool {
        services[characteristic.service]?.contains(characteristic.uuid) ?? false
    }

    /// The link went down: messages part-way are dropped.
    func dropPartialMessages() {
        state.withLock { state in
            for _ in state.reassembler.reset() { state.droppedMessages.append(.disconnected) }
        }
    }

    /// Takes a written chunk; returns the replies its app makes to requests it completed, each
    /// with the request's id.
    func receive(_ chunk: Data) -> [(Reply, UInt16)] {
        let outcomes = state.withLock { $0.reassembler.receive(chunk) }
        var replies: [(Reply, UInt16)] = []
        for outcome in outcomes {
            switch outcome {
            case .message(let message) where message.kind == .request:
                state.withLock { $0.receivedRequests.append(message.payload) }
                if let reply = respond(message.payload) { replies.append((reply, message.id)) }
            case .message(let message):
                state.withLock { $0.receivedMessages.append(message.payload) }
            case .failed(_, let error):
                state.withLock { $0.droppedMessages.append(error) }
            }
        }
        return replies
    }
}
