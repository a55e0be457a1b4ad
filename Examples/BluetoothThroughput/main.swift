#if Tools
// Messaging throughput of the connection kit on the simulated link, in simulated time: a request
// answered with its own bytes (1 MiB each way by default), at ATT write lengths of 20, 185, 244
// and 512 bytes, written with and without response, over a link with a 30 ms connection interval
// and six 251-byte link-layer packets per connection event each way (LinkTiming's defaults).
//
//     swift run -c release bluetooth-throughput [bytes]
//
// Prints a Markdown table: the simulated seconds from the request to the whole answer, and the
// bytes moved (request plus answer) per simulated second. Deterministic: the same on every run.

import Clocks
import Foundation
import Statecharts
import StatechartsBluetooth

let size = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1 << 20
let service: BluetoothUUID = "FFE0"
let timing = LinkTiming()

/// The simulated seconds one request of `size` bytes and its echo take.
func measure(writeLength: Int, preference: WritePreference) async throws -> Duration {
    let clock = TestClock()
    let device = SimulatedPeripheral(
        id: PeripheralID(UUID()), name: "Echo", services: [service: ["FFE1", "FFE2"]], writeLength: writeLength,
        linkTiming: timing)
    let central = SimulatedCentral(clock: clock, peripherals: [device])
    let configuration = ConnectionConfiguration(
        service: service, writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2", writePreference: preference,
        maximumMessageLength: 4 * size + 1024, replyTimeout: .seconds(86_400))
    let connection = try BluetoothConnection(
        central: central, configuration: configuration, memory: InMemoryPeripheralMemory(), clock: clock)
    try await connection.start()
    await connection.settle(reportsOf: central)
    await connection.pair()
    for _ in 0..<200 where !(await connection.snapshot.isActive(.ready)) {
        await clock.advance(by: .milliseconds(10))
        await connection.settle(reportsOf: central)
    }
    guard await connection.snapshot.isActive(.ready) else { throw ThroughputError.notReady }
    let message = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let start = clock.now
    let answer = Task { try await connection.messenger.request(message) }
    let finished = Locked(false)
    let watcher = Task {
        _ = await answer.result
        finished.withLock { $0 = true }
    }
    // One connection interval at a time: each step runs the connection event it reaches.
    while !finished.withLock({ $0 }) {
        await connection.settle(reportsOf: central)
        if finished.withLock({ $0 }) { break }
        await clock.advance(by: timing.connectionInterval)
    }
    await watcher.value
    guard try await answer.value == message else { throw ThroughputError.wrongAnswer }
    guard device.droppedWrites == 0 else { throw ThroughputError.dropped(device.droppedWrites) }
    return start.duration(to: clock.now)
}

enum ThroughputError: Error {
    case notReady, wrongAnswer, dropped(Int)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

print("| Write length | With response | Without response |")
print("|---:|---:|---:|")
do {
    for writeLength in [20, 185, 244, 512] {
        var cells: [String] = []
        for preference in [WritePreference.withResponse, .withoutResponse] {
            let duration = try await measure(writeLength: writeLength, preference: preference)
            let rate = Double(2 * size) / seconds(duration)
            cells.append(String(format: "%.2f s, %.0f B/s", seconds(duration), rate))
        }
        print("| \(writeLength) B | \(cells[0]) | \(cells[1]) |")
    }
} catch {
    print("bluetooth-throughput: \(error)")
    exit(1)
}
#else
import Foundation

FileHandle.standardError.write(
    Data("bluetooth-throughput was built without the package trait Tools: build it with --enable-all-traits\n".utf8))
exit(2)
#endif
