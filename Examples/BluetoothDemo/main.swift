#if Tools
// A scripted session of the Bluetooth LE connection kit on a simulated central and a test clock:
// pairing, messages, the device leaving range, Bluetooth turned off, a relaunch by the system,
// unpairing, and choosing a device from the nearby list. Every transition of the chart is printed with the virtual time it happened at.
//
//     swift run bluetooth-demo

import Clocks
import Foundation
import Statecharts
import StatechartsBluetooth

let clock = TestClock()
let start = clock.now
let service: BluetoothUUID = "FFE0"
let battery = CharacteristicID(service: "180F", uuid: "2A19")
let configuration = ConnectionConfiguration(
    service: service, writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2", additionalServices: ["180F"])
let thermometer = SimulatedPeripheral(
    id: PeripheralID(UUID(uuidString: "6F1C1A52-3E55-4C49-9D5A-6A1E8A7B0001") ?? UUID()), name: "Thermometer",
    services: [service: ["FFE1", "FFE2"], "180F": ["2A19"]], values: [battery: Data([87])], rssi: -58,
    writeLength: 20
) { request in
    // The thermometer's app answers {"get": "temperature"} with a reading, after 80 ms.
    let asked = String(decoding: request, as: UTF8.self)
    let answer = asked.contains("temperature") ? #"{"temperature": 21.5, "unit": "C"}"# : #"{"error": "unknown"}"#
    return .init(Data(answer.utf8), after: .milliseconds(80))
}
// A second device, heard later and farther away: it shows in the picker.
let scale = SimulatedPeripheral(
    id: PeripheralID(UUID(uuidString: "6F1C1A52-3E55-4C49-9D5A-6A1E8A7B0002") ?? UUID()), name: "Kitchen scale",
    services: [service: ["FFE1", "FFE2"]], rssi: -74)
scale.advertisingDelay = .milliseconds(800)
let memory = InMemoryPeripheralMemory()

func time() -> String {
    let elapsed = start.duration(to: clock.now)
    let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    return String(format: "%7.3fs", Double(milliseconds) / 1000)
}

func say(_ line: String) { print("\(time())  \(line)") }

/// Prints each microstep: the event, and the states left and entered.
let log: @Sendable (MachineInspection<ConnectionState, ConnectionEvent>) -> Void = { inspection in
    guard case .didTake(let step) = inspection else { return }
    let exited = step.exited.map(\.rawValue).joined(separator: ", ")
    let entered = step.entered.map(\.rawValue).joined(separator: ", ")
    let name = step.event ?? (exited.isEmpty ? "(start)" : "(eventless)")
    let event = name.padding(toLength: 26, withPad: " ", startingAt: 0)
    if exited.isEmpty && entered.isEmpty {
        say("  \(event) (no change of state)")
    } else {
        say("  \(event) \(exited.isEmpty ? "·" : exited) → \(entered)")
    }
}

/// A connection on `central`, started.
func connect(_ central: SimulatedCentral) async throws -> BluetoothConnection {
    let connection = try BluetoothConnection(
        central: central, configuration: configuration, memory: memory, clock: clock, inspect: log)
    try await connection.start()
    await connection.settle(reportsOf: central)
    return connection
}

/// Runs the clock in 10 ms steps, letting the connection handle what each step sets off.
func wait(_ duration: Duration, _ connection: BluetoothConnection, _ central: SimulatedCentral) async {
    // What the last command set off is handled before the clock moves.
    await connection.settle(reportsOf: central)
    var remaining = duration
    while remaining > .zero {
        let step = min(remaining, duration > .seconds(2) ? duration / 50 : .milliseconds(10))
        await clock.advance(by: step)
        await connection.settle(reportsOf: central)
        remaining -= step
    }
}

func states(_ connection: BluetoothConnection) async -> String {
    await connection.snapshot.activeStates.map(\.rawValue).joined(separator: ", ")
}

/// The session, in a function of its own: its locals end with it, before the process exits.
func runDemo() async throws {
    say("Bluetooth is off; the app starts with nothing paired")
    var central = SimulatedCentral(clock: clock, state: .poweredOff, peripherals: [thermometer, scale])
    var connection = try await connect(central)

    say("Bluetooth turned on")
    central.powerOn()
    await connection.settle(reportsOf: central)

    say("the user taps Pair")
    await connection.pair()
    await wait(.seconds(1), connection, central)
    say("ready: \(await states(connection)); remembered \(memory.pairedPeripheral?.description ?? "nothing")")

    say("request {\"get\": \"temperature\"}")
    let messenger = connection.messenger
    let request = Task { try await messenger.request(Data(#"{"get": "temperature"}"#.utf8)) }
    await wait(.milliseconds(100), connection, central)
    say("answer \(String(decoding: try await request.value, as: UTF8.self))")

    let log = Data(repeating: UInt8(ascii: "x"), count: 10_000)
    try await connection.messenger.send(log)
    let chunks = try MessageChunker(chunkLength: 20, maximumMessageLength: log.count).chunks(
        of: log, kind: .message, id: 0)
    say(
        "sent a 10,000-byte log in \(chunks.count) chunks of 20 bytes; the thermometer got \(thermometer.receivedMessages.last?.count ?? 0) bytes"
    )

    say("the thermometer goes out of range")
    central.moveOutOfRange(thermometer.id)
    await connection.settle(reportsOf: central)
    await wait(.seconds(30), connection, central)
    say("30 s later: \(await states(connection)) (no timeout)")
    say("the thermometer is back")
    central.bringIntoRange(thermometer.id)
    await wait(.milliseconds(300), connection, central)

    say("Bluetooth turned off")
    central.powerOff()
    await connection.settle(reportsOf: central)
    say("Bluetooth turned on")
    central.powerOn()
    await wait(.milliseconds(300), connection, central)

    say("the system ends the app in the background, keeps the connection, and relaunches it")
    central = central.relaunched(reporting: .unknown)
    connection = try await connect(central)
    say("restored, held until Bluetooth is on: \(await connection.snapshot.context.restored.count) peripheral")
    central.powerOn()
    await wait(.milliseconds(300), connection, central)

    say("a 500-byte message arrives, one of its chunks lost on the air")
    var inbox = connection.messenger.inbox.makeAsyncIterator()
    central.loseNotificationChunk(from: thermometer.id, number: 4)
    central.send(Data(repeating: 1, count: 500), from: thermometer.id)
    if case .failed(_, let error) = await inbox.next() { say("dropped, not half-delivered: \(error)") }

    say(
        "battery \(try await connection.readValue(of: battery).first ?? 0) %, signal \(try await connection.readRSSI()) dBm"
    )

    say("the user taps Forget")
    await connection.unpair()
    await connection.settle(reportsOf: central)
    say("\(await states(connection)); remembered \(memory.pairedPeripheral?.description ?? "nothing")")

    say("the user opens the device picker")
    await connection.browse()
    await wait(.seconds(1), connection, central)
    for device in await connection.nearby {
        say("  nearby: \(device.name ?? "unnamed"), \(device.rssi) dBm")
    }
    say("the user picks the Kitchen scale")
    await connection.pair(with: scale.id)
    await wait(.milliseconds(300), connection, central)
    say(
        "\(await states(connection)); remembered \(memory.pairedPeripheral == scale.id ? "the Kitchen scale" : "something else")"
    )
}

do {
    try await runDemo()
} catch {
    print("bluetooth-demo: \(error)")
    exit(1)
}
#else
import Foundation

FileHandle.standardError.write(
    Data("bluetooth-demo was built without the package trait Tools: build it with --enable-all-traits\n".utf8))
exit(2)
#endif
