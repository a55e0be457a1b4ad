import BluetoothConnection
import Foundation
import Statecharts
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
}
