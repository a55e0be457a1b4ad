import Clocks
import Foundation
import Statecharts
import StatechartsBluetooth
import Testing

/// A central's reports reach every subscriber, each on its own stream, starting from what the central knows.
@Suite("Events for many", .timeLimit(.minutes(3)))
struct CentralEventsTests {
    typealias Rig = ConnectionRig

    @Test func everySubscriberGetsEveryReportAndALateOneStartsFromTheStateNow() async throws {
        let clock = TestClock()
        let device = Rig.defaultDevice()
        let central = SimulatedCentral(clock: clock, peripherals: [device])
        let first = central.events().makeAsyncIterator()
        let second = central.events().makeAsyncIterator()
        #expect(central.subscriberCount == 2)
        central.connect(device.id)
        await advance(clock, until: central, hasReported: 2)
        central.powerOff()
        for iterator in [first, second] {
            var events = iterator
            #expect(await events.next() == .stateChanged(.poweredOn))
            #expect(await events.next() == .connected(device.id))
            #expect(await events.next() == .stateChanged(.poweredOff))
        }
        var late = central.events().makeAsyncIterator()
        #expect(await late.next() == .stateChanged(.poweredOff), "a new subscriber first hears the state now")
    }

    @Test func aConnectionAndTheAppListenSideBySide() async throws {
        let rig = try await Rig.make()
        var app = rig.central.events().makeAsyncIterator()
        #expect(await app.next() == .stateChanged(.poweredOn))
        await rig.pairAndWaitUntilReady()
        #expect(await rig.states == [.ready], "the connection's own stream is not drained by the app's")
        var heard: [CentralEvent] = []
        while let event = await app.next() {
            heard.append(event)
            if case .notificationStateChanged = event { break }
        }
        #expect(heard.contains(.connected(Rig.deviceID)))
        #expect(rig.central.subscriberCount == 2)
    }

    @Test func aRelaunchedCentralGivesTheRestorationFirstToEverySubscriber() async throws {
        let rig = try await Rig.make()
        await rig.pairAndWaitUntilReady()
        let relaunched = rig.central.relaunched(reporting: .unknown)
        for _ in 0..<2 {
            var events = relaunched.events().makeAsyncIterator()
            #expect(await events.next() == .willRestore([RestoredPeripheral(id: Rig.deviceID, isConnected: true)]))
            #expect(await events.next() == .stateChanged(.unknown))
        }
    }
}
