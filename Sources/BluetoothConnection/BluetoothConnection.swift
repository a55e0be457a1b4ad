import Statecharts
import Synchronization

/// A Bluetooth LE connection to one peripheral, run as a statechart, with messaging.
///
/// It waits for Bluetooth to be on, reconnects to the peripheral it remembers (or one the system
/// restored or holds connected), scans and pairs on request, connects and discovers with timeouts,
/// rides out the device leaving range, and carries messages of any size once
/// ``ConnectionState/ready`` (``messenger``).
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
    /// The live machine.
    public let machine: StatechartActor<ConnectionState, ConnectionEvent, ConnectionContext>

    private let pump = Locked<Task<Void, Never>?>(nil)
    private let processedReports = ReportCounter()

    /// A connection, not started.
    ///
    /// - Parameters:
    ///   - central: The central to drive.
    ///   - configuration: The service and characteristics, timeouts and message limits.
    ///   - memory: Where the paired peripheral is remembered across launches.
    ///   - clock: The clock of the timeouts (a test clock in tests).
    ///   - inspect: Called for every event, microstep and failed action of the chart: for logs.
    /// - Throws: `ChartValidationError` if the chart is invalid (it is not, but a chart is
    ///   checked when made).
    public init<C: Clock>(
        central: any BluetoothCentral, configuration: ConnectionConfiguration,
        memory: any PeripheralMemory = InMemoryPeripheralMemory(), clock: C = ContinuousClock(),
        inspect: (@Sendable (MachineInspection<ConnectionState, ConnectionEvent>) -> Void)? = nil
    ) throws where C.Duration == Duration {
        self.central = central
        self.configuration = configuration
        messenger = Messenger(
            maximumMessageLength: configuration.maximumMessageLength, replyTimeout: configuration.replyTimeout,
            clock: clock)
        timers = TimerWheel(clock: clock)
        let context = ConnectionContext(
            central: central, memory: memory, configuration: configuration, messenger: messenger)
        machine = StatechartActor(
            try ConnectionChart.make(configuration), context: context, timers: timers, inspect: inspect)
    }

    deinit { pump.withLock { $0?.cancel() } }

    /// Starts the chart and begins listening to the central.
    ///
    /// - Throws: `MachineError.alreadyStarted` the second time.
    public func start() async throws(MachineError<ConnectionState, ConnectionEvent>) {
        try await machine.start()
        let task = Task { [central, machine, messenger, processedReports, configuration] in
            for await report in central.events {
                switch report {
                // Chunks go to the messenger, which drops those of a peripheral it is not linked to.
                case .wroteValue(let peripheral, let characteristic, let error)
                where characteristic == configuration.writeCharacteristic:
                    messenger.didWrite(error: error, from: peripheral)
                case .valueUpdated(let peripheral, let characteristic, let value)
                where characteristic == configuration.notifyCharacteristic:
                    messenger.didReceive(value, from: peripheral)
                default:
                    if let event = ConnectionEvent(report) { _ = try? await machine.send(event) }
                }
                processedReports.increment()
            }
        }
        pump.withLock { $0 = task }
    }

    /// How many of the central's reports have been handled: for tests that wait for a quiet moment.
    public var handledReportCount: Int { processedReports.value }

    /// The current snapshot.
    public var snapshot: Snapshot { get async { await machine.snapshot } }

    /// The current snapshot, then one after every step.
    public func snapshots() async -> AsyncStream<Snapshot> { await machine.snapshots() }

    /// Scans for a new peripheral and pairs with the first one found; handled when idle or
    /// disconnected.
    ///
    /// - Returns: Whether the request was handled in the current state.
    @discardableResult
    public func pair() async -> Bool { await request(.pair) }

    /// Disconnects, keeping the peripheral paired for ``reconnect()``.
    @discardableResult
    public func disconnect() async -> Bool { await request(.disconnect) }

    /// Connects again to the paired peripheral after ``disconnect()`` or a failure.
    @discardableResult
    public func reconnect() async -> Bool { await request(.reconnect) }

    /// Forgets the paired peripheral: disconnects and clears the memory.
    @discardableResult
    public func unpair() async -> Bool { await request(.unpair) }

    private func request(_ event: ConnectionEvent) async -> Bool {
        (try? await machine.send(event)) ?? false
    }
}

/// Counts the central's reports handled, across tasks.
final class ReportCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { count.add(1, ordering: .sequentiallyConsistent) }

    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}
