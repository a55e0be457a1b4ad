import Statecharts

import struct Foundation.Data

/// A ``BluetoothCentral`` with simulated peripherals, on any clock, with faults injected on
/// command: for tests and demos.
///
/// It behaves as CoreBluetooth does where the connection chart depends on it: connection
/// requests never time out and complete when the peripheral is in range; cancelling a connection
/// reports a disconnect with no error; a peripheral leaving range disconnects with
/// `connectionTimeout`; turning Bluetooth off drops every connection and reports only the new
/// state; a relaunch (``relaunched(reporting:)``) hands back the peripherals the system kept before it
/// reports its state. Everything it reports goes through ``events`` in order, and with a test
/// clock everything happens at a known time.
public final class SimulatedCentral: BluetoothCentral {
    /// What the central reports.
    public let events: AsyncStream<CentralEvent>
    /// The simulated peripherals.
    public let peripherals: [SimulatedPeripheral]

    private let continuation: AsyncStream<CentralEvent>.Continuation
    private let world: Locked<CentralWorld>
    private let sleep: @Sendable (Duration) async throws -> Void
    private let emitted = ReportCounter()
    /// The delays waiting on the clock, cancelled when the central is freed.
    private let pendingDelays = Locked(PendingDelays())

    /// The delays waiting on the clock, by a key each.
    private struct PendingDelays: ~Copyable {
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextKey = 0
    }

    /// A central whose radio is in `state`, with `peripherals` around it.
    ///
    /// It reports `state` first, as `centralManagerDidUpdateState` is called at start.
    public convenience init<C: Clock>(
        clock: C, state: CentralState = .poweredOn, peripherals: [SimulatedPeripheral]
    ) where C.Duration == Duration {
        self.init(clock: clock, world: CentralWorld(power: state), peripherals: peripherals, restoring: nil)
    }

    private init<C: Clock>(
        clock: C, world: CentralWorld, peripherals: [SimulatedPeripheral], restoring: [RestoredPeripheral]?
    ) where C.Duration == Duration {
        self.peripherals = peripherals
        (events, continuation) = AsyncStream.makeStream()
        self.world = Locked(world)
        sleep = { try await clock.sleep(for: $0) }
        relaunchedCentral = { world, restoring in
            SimulatedCentral(clock: clock, world: world, peripherals: peripherals, restoring: restoring)
        }
        if let restoring { emit(.willRestore(restoring)) }
        emit(.stateChanged(world.power))
    }

    private let relaunchedCentral: @Sendable (CentralWorld, [RestoredPeripheral]) -> SimulatedCentral

    /// How many reports the central has made.
    public var reportCount: Int { emitted.value }

    // MARK: - BluetoothCentral

    /// The radio's state.
    public var state: CentralState { world.withLock { $0.power } }

    /// Starts a scan: each peripheral in range with one of `services` is discovered after its
    /// advertising delay.
    public func scanForPeripherals(withServices services: [BluetoothUUID]) {
        let found: [SimulatedPeripheral] = world.withLock { world in
            guard world.power == .poweredOn else { return [] }
            world.scanning = services
            return peripherals.filter { $0.isInRange && $0.offersAny(of: services) }
        }
        for peripheral in found { announce(peripheral) }
    }

    /// Stops the scan.
    public func stopScan() { world.withLock { $0.scanning = nil } }

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
            world.notifying[id] = nil
            return world.connected.remove(id) != nil
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
    public func discoverServices(_ services: [BluetoothUUID], of id: PeripheralID) {
        guard let peripheral = peripheral(id) else { return }
        after(peripheral.discoveryDelay) { central in
            guard central.world.withLock({ $0.connected.contains(id) }) else { return }
            central.emit(.discoveredServices(id, services.filter { peripheral.services[$0] != nil }, nil))
        }
    }

    /// Discovers characteristics after the peripheral's discovery delay.
    public func discoverCharacteristics(
        _ characteristics: [BluetoothUUID], of service: BluetoothUUID, of id: PeripheralID
    ) {
        guard let peripheral = peripheral(id) else { return }
        after(peripheral.discoveryDelay) { central in
            guard central.world.withLock({ $0.connected.contains(id) }) else { return }
            let offered = peripheral.services[service] ?? []
            central.emit(
                .discoveredCharacteristics(id, service: service, characteristics.filter(offered.contains), nil))
        }
    }

    /// Delivers a chunk to the peripheral's app and confirms the write.
    public func writeValue(_ value: Data, to characteristic: BluetoothUUID, of id: PeripheralID) {
        guard let peripheral = peripheral(id), world.withLock({ $0.connected.contains(id) }) else {
            emit(.wroteValue(id, characteristic: characteristic, error: BluetoothError(.notConnected)))
            return
        }
        if let error = peripheral.state.withLock({ $0.linkDropsBeforeChunk() }) {
            // The link drops before the chunk goes out; CoreBluetooth reports no write after that.
            dropConnection(id, error: error)
            return
        }
        let lost: Bool = peripheral.state.withLock { state in
            guard let remaining = state.writesUntilLoss else { return false }
            state.writesUntilLoss = remaining > 1 ? remaining - 1 : nil
            return remaining == 1
        }
        let replies = lost ? [] : peripheral.receive(value)
        emit(.wroteValue(id, characteristic: characteristic, error: nil))
        for (reply, request) in replies {
            after(reply.delay) { central in
                central.notify(from: peripheral, reply.payload, kind: .response, replyTo: request)
            }
        }
    }

    /// Turns notifications on or off.
    public func setNotifyValue(_ enabled: Bool, for characteristic: BluetoothUUID, of id: PeripheralID) {
        world.withLock { world in
            world.notifying[id] = enabled ? characteristic : nil
        }
        emit(.notificationStateChanged(id, characteristic: characteristic, enabled: enabled, error: nil))
    }

    /// The peripheral's write length.
    public func maximumWriteValueLength(for id: PeripheralID) -> Int { peripheral(id)?.writeLength ?? 20 }

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
                world.notifying.removeAll()
                world.scanning = nil
            }
        }
        emit(.stateChanged(state))
    }

    /// Takes a peripheral out of range: a connection to it drops with `error`
    /// (`connectionTimeout` by default); attempts wait for it to return.
    public func moveOutOfRange(_ id: PeripheralID, error: BluetoothError = BluetoothError(.connectionTimeout)) {
        guard let peripheral = peripheral(id) else { return }
        peripheral.state.withLock { $0.inRange = false }
        dropConnection(id, error: error)
    }

    /// Brings a peripheral back into range: a pending connection completes and a scan finds it.
    public func bringIntoRange(_ id: PeripheralID) {
        guard let peripheral = peripheral(id) else { return }
        peripheral.state.withLock { $0.inRange = true }
        let (pending, scanning) = world.withLock { ($0.pending.contains(id), $0.scanning) }
        if pending { completeConnection(to: peripheral) }
        if let scanning, peripheral.offersAny(of: scanning) { announce(peripheral) }
    }

    /// Drops a connection with `error`, as the link layer would.
    public func dropConnection(_ id: PeripheralID, error: BluetoothError?) {
        let wasConnected = world.withLock { world in
            world.notifying[id] = nil
            return world.connected.remove(id) != nil
        }
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
        continuation.finish()
        let restoring =
            world.connected.sorted { $0.description < $1.description }.map {
                RestoredPeripheral(id: $0, isConnected: true)
            }
            + world.pending.sorted { $0.description < $1.description }.map {
                RestoredPeripheral(id: $0, isConnected: false)
            }
        var kept = world
        kept.scanning = nil
        kept.notifying.removeAll()
        return relaunchedCentral(kept, restoring)
    }

    // MARK: - Doing it

    private func peripheral(_ id: PeripheralID) -> SimulatedPeripheral? { peripherals.first { $0.id == id } }

    private func emit(_ event: CentralEvent) {
        emitted.increment()
        continuation.yield(event)
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
            delays.tasks[key] = Task { [weak self, sleep] in
                if (try? await sleep(delay)) != nil, let self { work(self) }
                self?.pendingDelays.withLock { _ = $0.tasks.removeValue(forKey: key) }
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

    private func announce(_ peripheral: SimulatedPeripheral) {
        after(peripheral.advertisingDelay) { central in
            let stillScanning = central.world.withLock { world in
                world.scanning.map { peripheral.offersAny(of: $0) } ?? false
            }
            if stillScanning && peripheral.isInRange { central.emit(.discovered(peripheral.id, rssi: -60)) }
        }
    }

    private func completeConnection(to peripheral: SimulatedPeripheral) {
        guard !peripheral.state.withLock({ $0.unresponsive }) else { return }
        after(peripheral.connectDelay) { central in
            let connected = central.world.withLock { world in
                guard world.power == .poweredOn, peripheral.isInRange, world.pending.remove(peripheral.id) != nil else {
                    return false
                }
                world.connected.insert(peripheral.id)
                return true
            }
            if connected {
                _ = peripheral.state.withLock { $0.reassembler.reset() }
                central.emit(.connected(peripheral.id))
            }
        }
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
        for chunk in chunks {
            // Notifications go out on the characteristic the app turned them on for, while connected.
            let characteristic = world.withLock { world in
                world.connected.contains(peripheral.id) ? world.notifying[peripheral.id] : nil
            }
            guard let characteristic else { return }
            if let error = peripheral.state.withLock({ $0.linkDropsBeforeChunk() }) {
                dropConnection(peripheral.id, error: error)
                return
            }
            let lost: Bool = peripheral.state.withLock { state in
                guard let remaining = state.notificationsUntilLoss else { return false }
                state.notificationsUntilLoss = remaining > 1 ? remaining - 1 : nil
                return remaining == 1
            }
            if !lost { emit(.valueUpdated(peripheral.id, characteristic: characteristic, chunk)) }
        }
    }
}

extension SimulatedPeripheral {
    func offersAny(of services: [BluetoothUUID]) -> Bool { services.contains { self.services[$0] != nil } }

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

struct CentralWorld: Sendable {
    var power: CentralState
    var scanning: [BluetoothUUID]?
    var pending: Set<PeripheralID> = []
    var connected: Set<PeripheralID> = []
    /// The characteristic each peripheral notifies on, once the app turned notifications on.
    var notifying: [PeripheralID: BluetoothUUID] = [:]
}
