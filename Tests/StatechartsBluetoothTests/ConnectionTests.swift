import Foundation
import Statecharts
import StatechartsBluetooth
import StatechartsTesting
import Testing

/// Each path of the connection chart, and each fault, on a test clock.
@Suite("The Bluetooth LE connection", .timeLimit(.minutes(3)))
struct ConnectionTests {
    typealias Rig = ConnectionRig

    @Test func withNothingPairedItWaitsForPairThenScansConnectsAndDiscovers() async throws {
        let rig = try await Rig.make()
        #expect(await rig.states == [.idle])
        #expect(await rig.connection.pair())
        #expect(await rig.states == [.scanning])
        await rig.advance(by: .milliseconds(499))
        #expect(await rig.states == [.scanning], "the device advertises after 500 ms")
        await rig.advance(by: .milliseconds(1))
        #expect(await rig.states == [.connecting])
        await rig.advance(by: .milliseconds(100))
        #expect(await rig.states == [.discoveringServices])
        await rig.advance(by: .milliseconds(50))
        #expect(await rig.states == [.discoveringCharacteristics])
        await rig.advance(by: .milliseconds(50))
        #expect(await rig.states == [.discoveringDescriptors])
        await rig.advance(by: .milliseconds(50))
        #expect(await rig.states == [.ready])
        #expect(rig.memory.pairedPeripheral == Rig.deviceID, "the paired device is remembered")
        #expect(rig.connection.messenger.isConnected)
        #expect(await rig.context.failure == nil)
    }

    @Test func scanningGivesUpAfterTenSecondsAndStopsTheScan() async throws {
        let rig = try await Rig.make()
        rig.central.moveOutOfRange(Rig.deviceID)
        await rig.connection.pair()
        await rig.advance(by: .milliseconds(9_999))
        #expect(await rig.states == [.scanning])
        await rig.advance(by: .milliseconds(1))
        #expect(await rig.states == [.idle])
        #expect(await rig.context.failure == .scanTimedOut)
        rig.central.bringIntoRange(Rig.deviceID)
        await rig.advance(by: .seconds(5))
        #expect(await rig.states == [.idle], "the scan was stopped: nothing is discovered")
    }

    @Test func aConnectionAttemptThatTakesTooLongIsCancelled() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        #expect(await rig.states == [.connecting])
        // Never connects (connectDelay keeps it pending) before the 5 s timeout.
        rig.device.connectDelay = .seconds(60)
        rig.central.setUnresponsive(Rig.deviceID, true)
        let second = try await Rig.make(remembered: Rig.deviceID, device: rig.device)
        await second.advance(by: .milliseconds(4_999))
        #expect(await second.states == [.connecting])
        await second.advance(by: .milliseconds(1))
        #expect(await second.states == [.disconnected])
        #expect(await second.context.failure == .connectTimedOut)
        // The attempt was cancelled: when the device answers again, nothing connects.
        second.central.setUnresponsive(Rig.deviceID, false)
        second.central.bringIntoRange(Rig.deviceID)
        await second.advance(by: .seconds(120))
        #expect(await second.states == [.disconnected])
        // The app asks again, and it works.
        second.device.connectDelay = .milliseconds(100)
        #expect(await second.connection.reconnect())
        await second.advance(by: .seconds(1))
        #expect(await second.states == [.ready])
    }

    @Test func aRememberedPeripheralIsReconnectedAtLaunchWithoutScanning() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        #expect(await rig.states == [.connecting], "retrieved by its stored identifier")
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
    }

    @Test func aPeripheralConnectedToTheSystemIsUsedWhenTheStoredOneIsUnknown() async throws {
        let device = Rig.defaultDevice(knownToSystem: false, connectedToSystem: true)
        let stale = PeripheralID(UUID())
        let rig = try await Rig.make(remembered: stale, device: device)
        #expect(await rig.states == [.connecting])
        #expect(await rig.context.peripheral == Rig.deviceID)
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
        #expect(rig.memory.pairedPeripheral == Rig.deviceID, "the memory now holds the device found")
    }

    @Test func aRememberedPeripheralTheSystemDoesNotKnowIsLookedFor() async throws {
        let device = Rig.defaultDevice(knownToSystem: false)
        let rig = try await Rig.make(remembered: Rig.deviceID, device: device)
        #expect(await rig.states == [.scanning])
        await rig.advance(by: .seconds(1))
        #expect(await rig.states == [.ready])
    }

    @Test func itWaitsForPowerAndConnectsWhenBluetoothIsTurnedOn() async throws {
        let rig = try await Rig.make(power: .poweredOff, remembered: Rig.deviceID)
        #expect(await rig.states == [.waitingForPower])
        await rig.advance(by: .seconds(30))
        #expect(await rig.states == [.waitingForPower])
        rig.central.powerOn()
        await rig.settle()
        #expect(await rig.states == [.connecting])
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
    }

    @Test func unauthorizedBluetoothIsReportedAsUnavailable() async throws {
        let rig = try await Rig.make(power: .unauthorized)
        #expect(await rig.states == [.waitingForPower])
        #expect(await rig.context.failure == .unavailable(.unauthorized))
        #expect(await rig.connection.pair() == false, "nothing to pair with while Bluetooth is unavailable")
    }

    @Test func outOfRangeItWaitsWithNoTimeoutAndReconnectsWhenTheDeviceReturns() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
        rig.central.moveOutOfRange(Rig.deviceID)
        await rig.settle()
        #expect(await rig.states == [.waitingForReturn])
        #expect(!rig.connection.messenger.isConnected)
        await rig.advance(by: .seconds(3_600))
        #expect(await rig.states == [.waitingForReturn], "an hour later it still waits")
        rig.central.bringIntoRange(Rig.deviceID)
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
    }

    @Test(
        "every error that means out of range leads to waiting for the device",
        arguments: [BluetoothError.Code.unknown, .connectionTimeout, .peripheralDisconnected, .connectionFailed])
    func outOfRangeErrors(code: BluetoothError.Code) async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        await rig.advance(by: .milliseconds(200))
        rig.central.dropConnection(Rig.deviceID, error: BluetoothError(code))
        await rig.settle()
        #expect(await rig.states == [.waitingForReturn])
    }

    @Test func anotherErrorLeavesItDisconnectedUntilTheAppReconnects() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        await rig.advance(by: .milliseconds(200))
        rig.central.dropConnection(Rig.deviceID, error: BluetoothError(.peerRemovedPairingInformation))
        await rig.settle()
        #expect(await rig.states == [.disconnected])
        #expect(await rig.context.failure == .disconnected(BluetoothError(.peerRemovedPairingInformation)))
        #expect(await rig.connection.reconnect())
        await rig.advance(by: .milliseconds(250))
        #expect(await rig.states == [.ready])
        #expect(await rig.context.failure == nil)
    }

    @Test func aDisconnectWithNoErrorIsTheAppsOwnDoing() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        await rig.advance(by: .milliseconds(200))
        #expect(await rig.connection.disconnect())
        await rig.settle()
        #expect(await rig.states == [.disconnected])
        #expect(await rig.context.failure == nil)
        #expect(rig.memory.pairedPeripheral == Rig.deviceID, "still paired")
    }

    @Test func aFailedConnectionIsReportedAndCanBeRetried() async throws {
        let rig = try await Rig.make()
        rig.central.failNextConnections(to: Rig.deviceID, with: [BluetoothError(.connectionLimitReached)])
        await rig.connection.pair()
        await rig.advance(by: .seconds(1))
        #expect(await rig.states == [.disconnected])
        #expect(await rig.context.failure == .connectFailed(BluetoothError(.connectionLimitReached)))
        await rig.connection.reconnect()
        await rig.advance(by: .seconds(1))
        #expect(await rig.states == [.ready])
    }

    @Test func unpairingForgetsThePeripheralAndItsStoredIdentifier() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        await rig.advance(by: .milliseconds(200))
        #expect(await rig.connection.unpair())
        await rig.settle()
        #expect(await rig.states == [.idle])
        #expect(rig.memory.pairedPeripheral == nil)
        #expect(await rig.context.peripheral == nil)
        #expect(!rig.connection.messenger.isConnected)
        // A relaunch finds nothing to reconnect to.
        let next = try await rig.relaunched()
        #expect(await next.states == [.idle])
    }

    @Test(
        "Bluetooth turned off at any point waits for power, then reconnects to the paired device",
        arguments: [0, 300, 550, 650, 2_000])
    func powerCycle(atMilliseconds moment: Int) async throws {
        let rig = try await Rig.make()
        await rig.connection.pair()
        await rig.advance(by: .milliseconds(moment))
        let before = await rig.states
        rig.central.powerOff()
        await rig.settle()
        #expect(await rig.states == [.waitingForPower], "off while \(before)")
        #expect(!rig.connection.messenger.isConnected)
        await rig.advance(by: .seconds(20))
        #expect(await rig.states == [.waitingForPower], "no timeout runs while off")
        rig.central.powerOn()
        await rig.advance(by: .seconds(1))
        // Paired before the power went off: it reconnects; otherwise it waits for pair() again.
        let expected: [ConnectionState] = rig.memory.pairedPeripheral == nil ? [.idle] : [.ready]
        #expect(await rig.states == expected, "off while \(before)")
    }

    @Test func slowDiscoveryWithinTheTimeoutSucceedsAndBeyondItDisconnects() async throws {
        let device = Rig.defaultDevice()
        device.discoveryDelay = .seconds(3)
        let rig = try await Rig.make(remembered: Rig.deviceID, device: device)
        await rig.advance(by: .milliseconds(100))
        #expect(await rig.states == [.discoveringServices])
        await rig.advance(by: .seconds(9))
        #expect(await rig.states == [.ready], "9 s of discovery (three steps) is within the 10 s timeout")

        device.discoveryDelay = .seconds(6)
        await rig.connection.disconnect()
        await rig.settle()
        await rig.connection.reconnect()
        await rig.advance(by: .milliseconds(100))
        await rig.advance(by: .seconds(10))
        #expect(await rig.states == [.disconnected])
        #expect(await rig.context.failure == .discoveryTimedOut)
    }

    @Test func aDeviceWithoutTheMessageCharacteristicsIsRefused() async throws {
        let device = Rig.defaultDevice(characteristics: [Rig.write])
        let rig = try await Rig.make(remembered: Rig.deviceID, device: device)
        await rig.advance(by: .seconds(1))
        #expect(await rig.states == [.disconnected])
        #expect(await rig.context.failure == .discoveryFailed("missing FFE2"))
        #expect(rig.memory.pairedPeripheral == Rig.deviceID, "the memory is unchanged")
    }

    @Test func aRelaunchRestoresTheConnectedPeripheralOnceBluetoothIsOn() async throws {
        let rig = try await Rig.make()
        await rig.pairAndWaitUntilReady()
        #expect(await rig.states == [.ready])
        // The system relaunches the app; the connection it kept is handed back before the radio's
        // state is known, and held until the radio is on.
        let relaunched = try await rig.relaunched(power: .unknown)
        #expect(await relaunched.states == [.waitingForPower])
        #expect(await relaunched.context.restored == [RestoredPeripheral(id: Rig.deviceID, isConnected: true)])
        relaunched.central.powerOn()
        await relaunched.settle()
        #expect(await relaunched.states == [.discoveringServices], "connected already: straight to discovery")
        await relaunched.advance(by: .milliseconds(150))
        #expect(await relaunched.states == [.ready])
        let answer = try await relaunched.connection.messenger.request(Data("after relaunch".utf8))
        #expect(answer == Data("after relaunch".utf8))
    }

    @Test func aRelaunchWhileWaitingForTheDeviceKeepsWaitingForIt() async throws {
        let rig = try await Rig.make(remembered: Rig.deviceID)
        await rig.advance(by: .milliseconds(250))
        rig.central.moveOutOfRange(Rig.deviceID)
        await rig.settle()
        #expect(await rig.states == [.waitingForReturn])
        let relaunched = try await rig.relaunched()
        #expect(await relaunched.states == [.waitingForReturn], "the pending attempt is restored")
        await relaunched.advance(by: .seconds(600))
        #expect(await relaunched.states == [.waitingForReturn], "with no timeout")
        relaunched.central.bringIntoRange(Rig.deviceID)
        await relaunched.advance(by: .milliseconds(250))
        #expect(await relaunched.states == [.ready])
    }

    @Test func theArticleShowsTheChartsPicture() throws {
        let article = try String(
            contentsOf: DemoTests.packageRoot.appending(
                path: "Sources/StatechartsBluetooth/StatechartsBluetooth.docc/StatechartsBluetooth.md"),
            encoding: .utf8)
        #expect(article.contains("](connection-chart.svg)"))
        let file = DemoTests.packageRoot.appending(
            path: "Sources/StatechartsBluetooth/StatechartsBluetooth.docc/Resources/connection-chart.svg")
        #expect(
            try CheckedInFile.isCurrent(try ConnectionChart.make(Rig.configuration).svg(), at: file),
            "connection-chart.svg is stale: run Scripts/pictures.sh")
    }

    @Test func theChartHasNoErrorsAndEveryStateIsReachable() throws {
        let chart = try ConnectionChart.make(Rig.configuration)
        #expect(chart.diagnostics().filter { $0.severity == .error } == [])
        #expect(Set(chart.reachableStates) == Set(ConnectionState.allCases))
    }
}
