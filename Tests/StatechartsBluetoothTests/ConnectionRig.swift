import Clocks
import Foundation
import Statecharts
import StatechartsBluetooth

/// A connection on a simulated central and a test clock, with the peripheral the tests use.
struct ConnectionRig {
    static let service: BluetoothUUID = "FFE0"
    static let write: BluetoothUUID = "FFE1"
    static let notify: BluetoothUUID = "FFE2"
    static let configuration = ConnectionConfiguration(
        service: service, writeCharacteristic: write, notifyCharacteristic: notify, replyTimeout: .seconds(3))
    static let deviceID = PeripheralID(UUID(uuidString: "6F1C1A52-3E55-4C49-9D5A-6A1E8A7B0001") ?? UUID())

    let clock: TestClock<Duration>
    let device: SimulatedPeripheral
    let central: SimulatedCentral
    let memory: any PeripheralMemory
    let configuration: ConnectionConfiguration
    let connection: BluetoothConnection

    /// A rig whose central starts in `power`, with the device (and `others`) around it.
    static func make(
        power: CentralState = .poweredOn, remembered: PeripheralID? = nil,
        device: SimulatedPeripheral = defaultDevice(),
        others: [SimulatedPeripheral] = [], configuration: ConnectionConfiguration = configuration,
        memory: (any PeripheralMemory)? = nil
    ) async throws -> ConnectionRig {
        let clock = TestClock()
        let central = SimulatedCentral(clock: clock, state: power, peripherals: [device] + others)
        let rig = try ConnectionRig(
            clock: clock, device: device, central: central, memory: memory ?? InMemoryPeripheralMemory(remembered),
            configuration: configuration)
        try await rig.connection.start()
        await rig.settle()
        return rig
    }

    init(
        clock: TestClock<Duration>, device: SimulatedPeripheral, central: SimulatedCentral,
        memory: any PeripheralMemory, configuration: ConnectionConfiguration = Self.configuration
    ) throws {
        self.clock = clock
        self.device = device
        self.central = central
        self.memory = memory
        self.configuration = configuration
        connection = try BluetoothConnection(
            central: central, configuration: configuration, memory: memory, clock: clock)
    }

    static func defaultDevice(
        writeLength: Int = 182, knownToSystem: Bool = true, connectedToSystem: Bool = false,
        characteristics: [BluetoothUUID] = [write, notify],
        respond: @escaping @Sendable (Data) -> SimulatedPeripheral.Reply? = { .init($0) }
    ) -> SimulatedPeripheral {
        SimulatedPeripheral(
            id: deviceID, name: "Thermometer", services: [service: characteristics], writeLength: writeLength,
            knownToSystem: knownToSystem, connectedToSystem: connectedToSystem, respond: respond)
    }

    /// The rig after the app is relaunched by the system: a new central and a new connection on the
    /// same device, memory and clock, with the system's state `power`.
    func relaunched(power: CentralState? = nil) async throws -> ConnectionRig {
        let central = self.central.relaunched(reporting: power)
        let rig = try ConnectionRig(
            clock: clock, device: device, central: central, memory: memory, configuration: configuration)
        try await rig.connection.start()
        await rig.settle()
        return rig
    }

    /// Waits until every report of the central has been handled and every due timer has fired.
    func settle() async { await connection.settle(reportsOf: central) }

    /// Advances the clock in steps, settling after each, so that what a step sets off (a delay
    /// the simulator starts when the chart commands it) is timed from when it happened: 10 ms
    /// steps up to 2 s, and 50 steps for longer waits. A step ends early at the simulator's next
    /// delay, so that what that delay sets off is timed from its deadline however slowly the
    /// machine runs the tasks.
    func advance(by duration: Duration) async {
        let step = duration <= .seconds(2) ? Duration.milliseconds(10) : duration / 50
        await settle()
        var remaining = duration
        while remaining > .zero {
            var next = min(step, remaining)
            if let due = central.timeToNextDelay, due > .zero, due < next { next = due }
            await clock.advance(by: next)
            await settle()
            remaining -= next
        }
    }

    /// The active atomic states.
    var states: [ConnectionState] { get async { await connection.snapshot.activeStates } }

    var context: ConnectionContext { get async { await connection.snapshot.context } }

    /// Pairs from idle and waits until ready: scan, discovery, connection, discovery.
    func pairAndWaitUntilReady() async {
        await connection.pair()
        await advance(by: .seconds(1))
    }
}

/// Whether `condition` holds within five seconds of real time: a bounded wait, so that a test
/// whose condition never comes fails instead of hanging the run.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// Advances `clock` 10 ms at a time until `central` has made `count` reports, for tests of a
/// central alone: a delay the simulator starts runs on a task that registers its sleep when it
/// first runs, so one advance made at once could come before it. Bounded: at most 10 s of the clock.
func advance(_ clock: TestClock<Duration>, until central: SimulatedCentral, hasReported count: Int) async {
    for _ in 0..<1_000 where central.reportCount < count {
        await clock.advance(by: .milliseconds(10))
        try? await Task.sleep(for: .milliseconds(1))
    }
}
