import Statecharts

import struct Foundation.Data

/// A Bluetooth LE connection to one peripheral, run as a statechart, with messaging.
///
/// It waits for Bluetooth to be on, reconnects to the peripheral it remembers (or one the system
/// restored or holds connected), finds and pairs on request (by policy with ``pair()``, or with
/// the one the user picked from ``nearby`` with ``browse()`` and ``pair(with:)``), connects and
/// discovers with timeouts, rides out the device leaving range, and carries messages of any size
/// once ``ConnectionState/ready`` (``messenger``).
///
/// ```swift
/// let connection = try BluetoothConnection(central: central, configuration: configuration)
/// try await connection.start()
/// await connection.pair()
/// for await snapshot in await connection.snapshots() where snapshot.isActive(.ready) { break }
/// let answer = try await connection.messenger.request(Data("hello".utf8))
/// ```
public final class BluetoothConnection: Sendable {
    /// The machine's snapshot type.
    public typealias Snapshot = MachineSnapshot<ConnectionState, ConnectionContext>

    /// The central the connection drives.
    public let central: any BluetoothCentral
    /// Messages over the connection, while it is ready.
    public let messenger: Messenger
    /// The wheel the chart's timeouts run on.
    public let timers: TimerWheel
    /// The service and characteristics, timeouts and message limits.
    public let configuration: ConnectionConfiguration
    /// Where the paired peripheral and what the app notes per device are kept.
    public let memory: any PeripheralMemory
    /// The live machine.
    public let machine: StatechartActor<ConnectionState, ConnectionEvent, ConnectionContext>

    private let pump = Locked<Task<Void, Never>?>(nil)
    private let deliveredReports = ReportCounter()
    private let processedReports = ReportCounter()
    private let reads = Locked(PendingReads())
    private let clock: KitClock

    /// A connection, not started.
    ///
    /// - Parameters:
    ///   - central: The central to drive.
    ///   - configuration: The service and characteristics, how to pick and write, timeouts and
    ///     message limits.
    ///   - memory: Where the paired peripheral is remembered across launches: by default a file
    ///     in the application-support folder (``FilePeripheralMemory``).
    ///   - clock: The clock of the timeouts (a test clock in tests).
    ///   - inspect: Called for every event, microstep and failed action of the chart: for logs.
    /// - Throws: `ChartValidationError` if the chart is invalid (it is not, but a chart is
    ///   checked when made).
    public init<C: Clock>(
        central: any BluetoothCentral, configuration: ConnectionConfiguration,
        memory: any PeripheralMemory = FilePeripheralMemory(), clock: C = ContinuousClock(),
        inspect: (@Sendable (MachineInspection<ConnectionState, ConnectionEvent>) -> Void)? = nil
    ) throws where C.Duration == Duration {
        self.central = central
        self.configuration = configuration
        self.memory = memory
        messenger = Messenger(
            maximumMessageLength: configuration.maximumMessageLength, replyTimeout: configuration.replyTimeout,
            clock: clock)
        timers = TimerWheel(clock: clock)
        let kitClock = KitClock(clock)
        self.clock = kitClock
        let context = ConnectionContext(
            central: central, memory: memory, configuration: configuration, messenger: messenger,
            now: kitClock.elapsed)
        machine = StatechartActor(
            try ConnectionChart.make(configuration), context: context, timers: timers, inspect: inspect)
    }

    deinit { pump.withLock { $0?.cancel() } }

    /// Starts the chart and begins listening to the central.
    ///
    /// - Throws: `MachineError.alreadyStarted` the second time.
    public func start() async throws(MachineError<ConnectionState, ConnectionEvent>) {
        try await machine.start()
        let reports = (central as? SimulatedCentral)?.events(counting: deliveredReports) ?? central.events()
        let task = Task { [machine, messenger, processedReports, configuration, reads] in
            for await report in reports {
                switch report {
                // Chunks go to the messenger, which drops those of a peripheral it is not linked to.
                case .wroteValue(let peripheral, let characteristic, let error)
                where characteristic == configuration.writeCharacteristicID:
                    messenger.didWrite(error: error, from: peripheral)
                case .readyToSendWriteWithoutResponse(let peripheral):
                    messenger.peripheralIsReady(peripheral)
                case .valueUpdated(let peripheral, let characteristic, let value?, nil)
                where characteristic == configuration.notifyCharacteristicID:
                    messenger.didReceive(value, from: peripheral)
                case .valueUpdated(let peripheral, let characteristic, let value, let error):
                    let result: Result<Data, BluetoothError> =
                        value.map { .success($0) } ?? .failure(error ?? BluetoothError(.unknown))
                    for waiter in reads.withLock({ $0.takeReads(of: characteristic, of: peripheral) }) {
                        waiter.resume(returning: result)
                    }
                case .readRSSI(let peripheral, let rssi, let error):
                    for waiter in reads.withLock({ $0.takeSignalReads(of: peripheral) }) {
                        waiter.resume(returning: error.map { .failure($0) } ?? .success(rssi))
                    }
                default:
                    if case .disconnected(let peripheral, let error) = report {
                        let failure = error ?? BluetoothError(.peripheralDisconnected)
                        let (values, signals) = reads.withLock { $0.takeAll(of: peripheral) }
                        for waiter in values { waiter.resume(returning: .failure(failure)) }
                        for waiter in signals { waiter.resume(returning: .failure(failure)) }
                    }
                    if let event = ConnectionEvent(report) { _ = try? await machine.send(event) }
                }
                processedReports.increment()
            }
        }
        pump.withLock { $0 = task }
    }

    /// How many of the central's reports have been handled: for tests that wait for a quiet moment.
    public var handledReportCount: Int { processedReports.value }

    /// How many reports the central has given the connection (counted for a ``SimulatedCentral``
    /// only): for ``settle(reportsOf:)``.
    var deliveredReportCount: Int { deliveredReports.value }

    /// The current snapshot.
    public var snapshot: Snapshot { get async { await machine.snapshot } }

    /// The current snapshot, then one after every step.
    public func snapshots() async -> AsyncStream<Snapshot> { await machine.snapshots() }

    /// The peripherals heard while searching that pass the filter, strongest signal first.
    public var nearby: [NearbyPeripheral] { get async { await machine.snapshot.context.nearby } }

    /// Scans for a new peripheral and pairs with the one the pairing policy picks; handled when
    /// idle, disconnected or browsing.
    ///
    /// - Returns: Whether the request was handled in the current state.
    @discardableResult
    public func pair() async -> Bool { await request(.pair) }

    /// Scans and keeps ``nearby`` for the user to pick from, with no timeout; handled when idle,
    /// disconnected or pairing.
    @discardableResult
    public func browse() async -> Bool { await request(.browse) }

    /// Pairs with `peripheral`, picked from ``nearby``; handled while searching.
    @discardableResult
    public func pair(with peripheral: PeripheralID) async -> Bool { await request(.pairWith(peripheral)) }

    /// Stops searching, pairing with nothing.
    @discardableResult
    public func stopSearching() async -> Bool { await request(.stopSearching) }

    /// Disconnects, keeping the peripheral paired for ``reconnect()``.
    @discardableResult
    public func disconnect() async -> Bool { await request(.disconnect) }

    /// Connects again to the paired peripheral after ``disconnect()`` or a failure.
    @discardableResult
    public func reconnect() async -> Bool { await request(.reconnect) }

    /// Forgets the paired peripheral: disconnects and clears what the memory keeps for it.
    @discardableResult
    public func unpair() async -> Bool { await request(.unpair) }

    /// Reads a characteristic of the ready peripheral: one of the message service or of the
    /// configuration's ``ConnectionConfiguration/additionalServices``.
    ///
    /// - Throws: `BluetoothError` `notConnected` when the connection is not ready, the
    ///   peripheral's refusal (`readNotPermitted`, …), `peripheralDisconnected` when the link
    ///   goes down first, or `connectionTimeout` after the reply timeout.
    public func readValue(of characteristic: CharacteristicID) async throws(BluetoothError) -> Data {
        let peripheral = try await readyPeripheral()
        return try await wait { reads, continuation in
            reads.add(read: continuation, of: characteristic, of: peripheral)
        } start: {
            central.readValue(of: characteristic, of: peripheral)
        }.get()
    }

    /// Reads the signal strength of the ready peripheral, in dBm.
    ///
    /// - Throws: What ``readValue(of:)`` throws.
    public func readRSSI() async throws(BluetoothError) -> Int {
        let peripheral = try await readyPeripheral()
        return try await wait { reads, continuation in
            reads.add(signalRead: continuation, of: peripheral)
        } start: {
            central.readRSSI(of: peripheral)
        }.get()
    }

    private func readyPeripheral() async throws(BluetoothError) -> PeripheralID {
        let snapshot = await machine.snapshot
        guard snapshot.isActive(.ready), let peripheral = snapshot.context.peripheral else {
            throw BluetoothError(.notConnected)
        }
        return peripheral
    }

    /// Registers a waiter, starts the read, and fails the waiter after the reply timeout.
    private func wait<Value: Sendable>(
        register: @Sendable (inout PendingReads, ReadWaiter<Value>) -> Void, start: @Sendable () -> Void
    ) async -> Result<Value, BluetoothError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, BluetoothError>, Never>) in
            let waiter = ReadWaiter(continuation)
            reads.withLock { register(&$0, waiter) }
            start()
            let wait = clock.deadline(configuration.replyTimeout)
            Task { [weak self] in
                guard (try? await wait()) != nil else { return }
                if self?.reads.withLock({ $0.remove(waiter.key) }) == true {
                    waiter.resume(returning: .failure(BluetoothError(.connectionTimeout)))
                }
            }
        }
    }

    private func request(_ event: ConnectionEvent) async -> Bool {
        (try? await machine.send(event)) ?? false
    }
}
