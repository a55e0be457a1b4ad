import Foundation
import Statecharts
import StatechartsBluetooth
import Testing

// The example of the connection kit's documentation, as it shows it, on a simulated central on the
// real clock.

@Suite("The connection kit's example", .timeLimit(.minutes(1)))
struct ConnectionKitTests {
    @Test("the app pairs with the thermometer and asks it for the temperature")
    func pairAndAsk() async throws {
        let thermometer = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Thermometer", services: ["FFE0": ["FFE1", "FFE2"]],
            respond: { _ in .init(Data(#"{"temperature": 21.5}"#.utf8)) })
        let central = SimulatedCentral(clock: ContinuousClock(), peripherals: [thermometer])
        let memory = InMemoryPeripheralMemory()

        let connection = try BluetoothConnection(
            central: central,
            configuration: ConnectionConfiguration(
                service: "FFE0", writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2"),
            memory: memory)
        try await connection.start()

        for await snapshot in await connection.snapshots() where snapshot.isActive(.idle) { break }

        await connection.pair()

        for await snapshot in await connection.snapshots() where snapshot.isActive(.ready) { break }

        let answer = try await connection.messenger.request(Data(#"{"get": "temperature"}"#.utf8))

        #expect(String(decoding: answer, as: UTF8.self) == #"{"temperature": 21.5}"#)
    }

    @Test("the user picks the nearest thermometer from the list")
    func pickFromTheList() async throws {
        let kitchen = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Thermometer kitchen", services: ["FFE0": ["FFE1", "FFE2"]], rssi: -48)
        let garden = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Thermometer garden", services: ["FFE0": ["FFE1", "FFE2"]], rssi: -81)
        let scale = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Scale", services: ["FFE0": ["FFE1", "FFE2"]], rssi: -40)
        let central = SimulatedCentral(clock: ContinuousClock(), peripherals: [kitchen, garden, scale])

        let configuration = ConnectionConfiguration(
            service: "FFE0", writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2",
            scanFilter: ScanFilter(namePrefix: "Thermometer", minimumRSSI: -90),
            pairingPolicy: .strongestSignal(listening: .seconds(2)))
        let connection = try BluetoothConnection(
            central: central, configuration: configuration, memory: InMemoryPeripheralMemory())
        try await connection.start()
        for await snapshot in await connection.snapshots() where snapshot.isActive(.idle) { break }

        await connection.browse()
        for await snapshot in await connection.snapshots() where snapshot.context.nearby.count == 2 { break }
        for device in await connection.nearby {
            print(device.name ?? "unnamed", device.rssi, "dBm")
        }

        let nearest = await connection.nearby[0]
        await connection.pair(with: nearest.id)

        for await snapshot in await connection.snapshots() where snapshot.isActive(.ready) { break }
        #expect(await connection.snapshot.context.peripheral == kitchen.id)
        #expect(connection.messenger.writeType == .withoutResponse)
    }

    @Test("the memory lives in the application-support folder")
    func memoryFile() {
        let memory = FilePeripheralMemory(application: "com.example.thermometer")

        #expect(memory.fileURL.path.hasSuffix("com.example.thermometer/peripherals.json"))
    }
}
