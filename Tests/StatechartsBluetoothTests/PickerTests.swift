import Foundation
import Statecharts
import StatechartsBluetooth
import Testing

/// Choosing a device: the nearby list, its filter and aging, the user's pick, and the pairing policies.
@Suite("Choosing a device", .timeLimit(.minutes(3)))
struct PickerTests {
    typealias Rig = ConnectionRig

    static func device(
        _ name: String, rssi: Int, advertisingDelay: Duration = .milliseconds(500), manufacturerData: Data? = nil,
        isConnectable: Bool = true, knownToSystem: Bool = true
    ) -> SimulatedPeripheral {
        let device = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: name, services: [Rig.service: [Rig.write, Rig.notify]],
            advertisement: Advertisement(
                localName: name, manufacturerData: manufacturerData, serviceUUIDs: [Rig.service], txPowerLevel: 0,
                isConnectable: isConnectable),
            rssi: rssi, knownToSystem: knownToSystem)
        device.advertisingDelay = advertisingDelay
        return device
    }

    @Test func browsingListsNearbyDevicesBySignalAgesOutSilentOnesAndPairsWithThePick() async throws {
        let a = Self.device("Thermo A", rssi: -70)
        let b = Self.device("Thermo B", rssi: -50)
        let c = Self.device("Scale", rssi: -40)
        let rig = try await Rig.make(device: a, others: [b, c])
        #expect(await rig.connection.browse())
        #expect(await rig.states == [.browsing])
        #expect(rig.central.isScanning)
        await rig.advance(by: .milliseconds(600))
        var nearby = await rig.connection.nearby
        #expect(nearby.map(\.id) == [c.id, b.id, a.id], "strongest first")
        #expect(nearby.first?.name == "Scale")
        #expect(nearby.first?.advertisement.txPowerLevel == 0)

        b.rssi = -80
        await rig.advance(by: .seconds(1))
        #expect(await rig.connection.nearby.map(\.id) == [c.id, a.id, b.id], "the order follows the signal")

        rig.central.moveOutOfRange(c.id)
        await rig.advance(by: .seconds(3))
        #expect(await rig.connection.nearby.contains { $0.id == c.id }, "still listed 3 s after it was last heard")
        await rig.advance(by: .seconds(3))
        nearby = await rig.connection.nearby
        #expect(nearby.map(\.id) == [a.id, b.id], "gone once silent for the nearby timeout")
        #expect(await rig.states == [.browsing], "browsing has no timeout")

        #expect(await rig.connection.pair(with: a.id))
        #expect(await rig.states == [.connecting])
        #expect(!rig.central.isScanning, "the scan ends with the pick")
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
        #expect(rig.memory.pairedPeripheral == a.id)
        #expect(rig.memory.value(forKey: ConnectionContext.nameKey, of: a.id) == Data("Thermo A".utf8))
    }

    @Test func theFilterKeepsOnlyTheDevicesItDescribes() async throws {
        let apple = Data([0x4C, 0x00, 0x02, 0x15])
        let a = Self.device("Thermo A", rssi: -60, manufacturerData: apple)
        let weak = Self.device("Thermo B", rssi: -90, manufacturerData: apple)
        let named = Self.device("Scale", rssi: -60, manufacturerData: apple)
        let maker = Self.device("Thermo D", rssi: -60, manufacturerData: Data([0x59, 0x00, 0x02, 0x15]))
        let closed = Self.device("Thermo E", rssi: -60, manufacturerData: apple, isConnectable: false)
        var configuration = Rig.configuration
        configuration.scanFilter = ScanFilter(
            namePrefix: "Thermo", minimumRSSI: -75, manufacturerID: 0x004C, manufacturerDataPrefix: Data([0x02]))
        let rig = try await Rig.make(device: a, others: [weak, named, maker, closed], configuration: configuration)
        await rig.connection.browse()
        await rig.advance(by: .seconds(2))
        #expect(await rig.connection.nearby.map(\.id) == [a.id])

        let filter = configuration.scanFilter
        let advertisement = Advertisement(localName: "Thermo", manufacturerData: apple, isConnectable: true)
        #expect(filter.accepts(advertisement, rssi: -75))
        #expect(!filter.accepts(advertisement, rssi: 127), "127 means the signal was not measured")
        #expect(!filter.accepts(Advertisement(localName: "Thermo", manufacturerData: Data([0x4C])), rssi: -50))
        #expect(ScanFilter(services: ["180D"]).accepts(Advertisement(overflowServiceUUIDs: ["180D"]), rssi: -50))
        #expect(!ScanFilter(services: ["180D"]).accepts(Advertisement(serviceUUIDs: ["FFE0"]), rssi: -50))
    }

    @Test func firstFoundPairsWithTheFirstDeviceHeard() async throws {
        let near = Self.device("Near", rssi: -40, advertisingDelay: .milliseconds(500))
        let early = Self.device("Early", rssi: -80, advertisingDelay: .milliseconds(300))
        let rig = try await Rig.make(device: near, others: [early])
        await rig.connection.pair()
        await rig.advance(by: .milliseconds(300))
        #expect(await rig.states == [.connecting])
        #expect(await rig.context.peripheral == early.id)
    }

    @Test func strongestSignalListensThenPairsWithTheNearest() async throws {
        let near = Self.device("Near", rssi: -40, advertisingDelay: .milliseconds(500))
        let early = Self.device("Early", rssi: -80, advertisingDelay: .milliseconds(300))
        var configuration = Rig.configuration
        configuration.pairingPolicy = .strongestSignal(listening: .seconds(1))
        let rig = try await Rig.make(device: near, others: [early], configuration: configuration)
        await rig.connection.pair()
        await rig.advance(by: .milliseconds(990))
        #expect(await rig.states == [.scanning], "still listening")
        #expect(await rig.connection.nearby.count == 2)
        await rig.advance(by: .milliseconds(10))
        #expect(await rig.states == [.connecting])
        #expect(await rig.context.peripheral == near.id)
    }

    @Test func strongestSignalTakesTheFirstHeardAfterAQuietWindow() async throws {
        let late = Self.device("Late", rssi: -70, advertisingDelay: .milliseconds(1_500))
        var configuration = Rig.configuration
        configuration.pairingPolicy = .strongestSignal(listening: .seconds(1))
        let rig = try await Rig.make(device: late, configuration: configuration)
        await rig.connection.pair()
        await rig.advance(by: .milliseconds(1_490))
        #expect(await rig.states == [.scanning])
        await rig.advance(by: .milliseconds(10))
        #expect(await rig.states == [.connecting])
    }

    @Test func aScanThatFindsNothingStopsAtItsTimeoutAndTheAppCanStopIt() async throws {
        let rig = try await Rig.make(device: Self.device("Away", rssi: -60))
        rig.central.moveOutOfRange(rig.device.id)
        await rig.connection.pair()
        await rig.advance(by: .seconds(10))
        #expect(await rig.states == [.idle])
        #expect(await rig.context.failure == .scanTimedOut)
        #expect(!rig.central.isScanning)

        await rig.connection.browse()
        #expect(rig.central.isScanning)
        await rig.advance(by: .seconds(30))
        #expect(await rig.states == [.browsing])
        #expect(await rig.connection.stopSearching())
        #expect(await rig.states == [.idle])
        #expect(!rig.central.isScanning)
        #expect(!(await rig.connection.pair(with: rig.device.id)), "a pick is taken only while searching")
    }

    @Test func aScanForTheRememberedDeviceIgnoresOthers() async throws {
        let remembered = Self.device("Mine", rssi: -80, advertisingDelay: .milliseconds(700), knownToSystem: false)
        let stranger = Self.device("Other", rssi: -30, advertisingDelay: .milliseconds(300))
        let rig = try await Rig.make(remembered: remembered.id, device: remembered, others: [stranger])
        #expect(await rig.states == [.scanning])
        await rig.advance(by: .milliseconds(500))
        #expect(await rig.states == [.scanning], "another device is not taken for the remembered one")
        await rig.advance(by: .milliseconds(200))
        #expect(await rig.states == [.connecting])
        #expect(await rig.context.peripheral == remembered.id)
    }
}
