import Clocks
import Foundation
import Statecharts
import StatechartsBluetooth
import Testing

/// Writes without response, paced by the central's flow control, on a link with air time.
@Suite("Fast writes", .timeLimit(.minutes(3)))
struct FastWriteTests {
    typealias Rig = ConnectionRig

    static func timedDevice(writeLength: Int = 185, properties: CharacteristicProperties? = nil) -> SimulatedPeripheral
    {
        SimulatedPeripheral(
            id: Rig.deviceID, name: "Thermometer", services: [Rig.service: [Rig.write, Rig.notify]],
            properties: properties.map { [CharacteristicID(service: Rig.service, uuid: Rig.write): $0] } ?? [:],
            writeLength: writeLength, linkTiming: LinkTiming())
    }

    /// Sends a request and runs the clock one connection interval at a time until the answer is
    /// whole; returns the answer and the simulated time it took.
    static func exchange(_ message: Data, on rig: Rig) async throws -> (Data, Duration) {
        let start = rig.clock.now
        let messenger = rig.connection.messenger
        let answer = Task { try await messenger.request(message) }
        let done = Locked(false)
        let watcher = Task {
            _ = await answer.result
            done.withLock { $0 = true }
        }
        for _ in 0..<100_000 where !done.withLock({ $0 }) {
            await rig.settle()
            if done.withLock({ $0 }) { break }
            await rig.clock.advance(by: .milliseconds(30))
        }
        await watcher.value
        return (try await answer.value, start.duration(to: rig.clock.now))
    }

    @Test func writesWithoutResponseFollowTheCentralsFlowControlAndNothingIsDropped() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID, device: Self.timedDevice())
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
        #expect(rig.connection.messenger.writeType == .withoutResponse)
        let message = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let (answer, fast) = try await Self.exchange(message, on: rig)
        #expect(answer == message)
        let chunks = try MessageChunker(chunkLength: 185, maximumMessageLength: 1 << 20).chunks(
            of: message, kind: .request, id: 1)
        #expect(rig.device.writesReceived.withoutResponse == chunks.count)
        #expect(rig.device.writesReceived.withResponse == 0)
        #expect(rig.device.droppedWrites == 0, "the messenger waited whenever the central's buffer was full")

        var configuration = Rig.configuration
        configuration.writePreference = .withResponse
        let slow = try await Rig.make(
            remembered: Rig.deviceID, device: Self.timedDevice(), configuration: configuration)
        await slow.advance(by: .milliseconds(250))
        #expect(slow.connection.messenger.writeType == .withResponse)
        let (slowAnswer, confirmed) = try await Self.exchange(message, on: slow)
        #expect(slowAnswer == message)
        #expect(slow.device.writesReceived.withResponse == chunks.count)
        // Each confirmed write takes two connection events; six unconfirmed ones share one.
        #expect(confirmed > fast * 4, "with response \(confirmed), without \(fast)")
    }

    @Test func theCentralDropsAWriteWithoutResponseWhileItsBufferIsFullAndSaysWhenItHasRoom() async throws {
        let clock = TestClock()
        let device = Self.timedDevice()
        device.linkTiming = LinkTiming(writeWithoutResponseBuffer: 2)
        let central = SimulatedCentral(clock: clock, peripherals: [device])
        var events = central.events().makeAsyncIterator()
        #expect(await events.next() == .stateChanged(.poweredOn))
        central.connect(device.id)
        await advance(clock, until: central, hasReported: 2)
        #expect(await events.next() == .connected(device.id))
        let characteristic = CharacteristicID(service: Rig.service, uuid: Rig.write)
        for _ in 0..<3 {
            central.writeValue(Data([1, 2, 3]), to: characteristic, of: device.id, type: .withoutResponse)
        }
        #expect(device.droppedWrites == 1)
        #expect(!central.canSendWriteWithoutResponse(to: device.id))
        await advance(clock, until: central, hasReported: 3)
        #expect(await events.next() == .readyToSendWriteWithoutResponse(device.id))
        #expect(central.canSendWriteWithoutResponse(to: device.id))
        #expect(device.writesReceived.withoutResponse == 2)
    }

    @Test func theWriteTypeFollowsTheCharacteristicsPropertiesAndThePreference() async throws {
        let confirmedOnly = try await Rig.make(
            remembered: Rig.deviceID, device: Self.timedDevice(properties: [.write]))
        await confirmedOnly.advance(by: .milliseconds(250))
        #expect(await confirmedOnly.states == [.ready])
        #expect(confirmedOnly.connection.messenger.writeType == .withResponse)

        var configuration = Rig.configuration
        configuration.writePreference = .withoutResponse
        let refused = try await Rig.make(
            remembered: Rig.deviceID, device: Self.timedDevice(properties: [.write]), configuration: configuration)
        await refused.advance(by: .milliseconds(250))
        #expect(await refused.states == [.disconnected])
        #expect(await refused.context.failure == .discoveryFailed("FFE1 cannot be written without response"))

        configuration.writePreference = .withResponse
        let unconfirmedOnly = try await Rig.make(
            remembered: Rig.deviceID, device: Self.timedDevice(properties: [.writeWithoutResponse]),
            configuration: configuration)
        await unconfirmedOnly.advance(by: .milliseconds(250))
        #expect(await unconfirmedOnly.context.failure == .discoveryFailed("FFE1 cannot be written"))
    }

    @Test func aNotifyCharacteristicThatCannotNotifyFailsDiscovery() async throws {
        let device = SimulatedPeripheral(
            id: Rig.deviceID, name: "Thermometer", services: [Rig.service: [Rig.write, Rig.notify]],
            properties: [CharacteristicID(service: Rig.service, uuid: Rig.notify): [.read]])
        let rig = try await Rig.make(remembered: Rig.deviceID, device: device)
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.disconnected])
        #expect(await rig.context.failure == .discoveryFailed("FFE2 neither notifies nor indicates"))
    }
}
