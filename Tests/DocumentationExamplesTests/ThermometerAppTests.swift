import Foundation
import Observation
import Statecharts
import StatechartsBluetooth
import Testing

#if !canImport(CoreBluetooth)
// On Linux, the adapter compiled against the stand-in of CoreBluetooth.
import CoreBluetoothAdapterStandIn
#endif

// The app of the article "Building the app", as it shows it: the connection made at launch, the
// view model, and (where SwiftUI exists) the app and its view. The tests drive the model on a
// simulated central, and read the article's Info.plist keys as a property list.

/// The thermometer's service and characteristics, and how to pair: the user picks from a list.
let thermometerConfiguration = ConnectionConfiguration(
    service: "FFE0", writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2",
    scanFilter: ScanFilter(namePrefix: "Thermometer"))

/// The connection over CoreBluetooth, with state restoration; the paired thermometer is
/// remembered in the application-support folder (`FilePeripheralMemory`).
func makeThermometerConnection() -> BluetoothConnection {
    let central = CoreBluetoothCentral(restorationIdentifier: "com.example.thermometer.central")
    do {
        return try BluetoothConnection(central: central, configuration: thermometerConfiguration)
    } catch {
        // Only an invalid chart throws, and the kit's chart is checked by its tests.
        fatalError("the connection's chart is invalid: \(error)")
    }
}

/// What the app shows of the thermometer, on the main actor, for SwiftUI.
@MainActor
@Observable
final class ThermometerModel {
    /// The state the connection is in: the chart's active leaf.
    private(set) var link: ConnectionState = .waitingForPower
    /// The thermometers found while browsing, strongest signal first.
    private(set) var nearby: [NearbyPeripheral] = []
    /// The last temperature read, as the thermometer wrote it.
    private(set) var temperature: String?

    @ObservationIgnored let connection: BluetoothConnection
    @ObservationIgnored private var following: Task<Void, Never>?

    init(connection: BluetoothConnection) {
        self.connection = connection
    }

    /// Starts the connection, once, and follows its snapshots until the model is released.
    func start() async {
        guard following == nil else { return }
        do {
            try await connection.start()
        } catch {
            return  // started already
        }
        let snapshots = await connection.snapshots()
        following = Task { [weak self] in
            for await snapshot in snapshots {
                guard let self else { return }  // the model is gone
                show(snapshot)
            }
        }
    }

    private func show(_ snapshot: BluetoothConnection.Snapshot) {
        let leaf = snapshot.activeStates.last ?? .waitingForPower
        if link != leaf { link = leaf }
        let found = snapshot.context.nearby.sorted { $0.rssi > $1.rssi }
        if nearby != found { nearby = found }
    }

    /// Looks for thermometers, until the user picks one or stops.
    func browse() async { await connection.browse() }

    /// Pairs with the thermometer the user picked.
    func pick(_ thermometer: NearbyPeripheral) async { await connection.pair(with: thermometer.id) }

    /// Asks the thermometer for its temperature.
    func readTemperature() async {
        do {
            let answer = try await connection.messenger.request(Data(#"{"get": "temperature"}"#.utf8))
            temperature = String(decoding: answer, as: UTF8.self)
        } catch {
            temperature = nil
        }
    }

    /// Forgets the thermometer, to pair with another.
    func unpair() async { await connection.unpair() }
}

#if canImport(SwiftUI)
import SwiftUI

@main
struct ThermometerApp: App {
    @State private var model = ThermometerModel(connection: makeThermometerConnection())

    var body: some Scene {
        WindowGroup {
            ThermometerView(model: model)
                .task { await model.start() }
        }
    }
}

struct ThermometerView: View {
    let model: ThermometerModel

    var body: some View {
        NavigationStack {
            List {
                Section("Link") {
                    Text(String(describing: model.link))
                }
                switch model.link {
                case .idle:
                    Button("Find thermometers") { Task { await model.browse() } }
                case .browsing, .scanning:
                    Section("Nearby") {
                        ForEach(model.nearby) { thermometer in
                            Button("\(thermometer.name ?? "Thermometer") (\(thermometer.rssi) dBm)") {
                                Task { await model.pick(thermometer) }
                            }
                        }
                    }
                case .ready:
                    Section("Temperature") {
                        Text(model.temperature ?? "not read yet")
                        Button("Read") { Task { await model.readTemperature() } }
                        Button("Forget this thermometer", role: .destructive) { Task { await model.unpair() } }
                    }
                default:
                    ProgressView()
                }
            }
            .navigationTitle("Thermometer")
        }
    }
}
#endif

@Suite("The article's thermometer app", .timeLimit(.minutes(1)))
struct ThermometerAppTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Waits for `condition` on the main actor, at most 5 s in 10 ms steps.
    @MainActor
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        return condition()
    }

    @Test("the model follows the connection: idle, the thermometers nearby, ready, a temperature")
    @MainActor
    func pickAndRead() async throws {
        let kitchen = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Thermometer kitchen", services: ["FFE0": ["FFE1", "FFE2"]], rssi: -48,
            respond: { _ in .init(Data(#"{"temperature": 21.5}"#.utf8)) })
        let garden = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Thermometer garden", services: ["FFE0": ["FFE1", "FFE2"]], rssi: -81)
        let scale = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Scale", services: ["FFE0": ["FFE1", "FFE2"]], rssi: -40)
        let central = SimulatedCentral(clock: ContinuousClock(), peripherals: [kitchen, garden, scale])
        let connection = try BluetoothConnection(
            central: central, configuration: thermometerConfiguration, memory: InMemoryPeripheralMemory())
        let model = ThermometerModel(connection: connection)

        await model.start()
        await model.start()  // a second call does nothing
        #expect(try await eventually { model.link == .idle })

        await model.browse()
        #expect(try await eventually { model.nearby.count == 2 })
        #expect(model.link == .browsing)
        #expect(model.nearby.map(\.name) == ["Thermometer kitchen", "Thermometer garden"], "strongest first; no scale")

        await model.pick(model.nearby[0])
        #expect(try await eventually { model.link == .ready })
        await model.readTemperature()
        #expect(model.temperature == #"{"temperature": 21.5}"#)

        await model.unpair()
        #expect(try await eventually { model.link == .idle })
    }

    @Test("the model tells SwiftUI of a change of link, and not of snapshots that leave it as it was")
    @MainActor
    func observation() async throws {
        let thermometer = SimulatedPeripheral(
            id: PeripheralID(UUID()), name: "Thermometer", services: ["FFE0": ["FFE1", "FFE2"]])
        let central = SimulatedCentral(clock: ContinuousClock(), peripherals: [thermometer])
        let connection = try BluetoothConnection(
            central: central, configuration: thermometerConfiguration, memory: InMemoryPeripheralMemory())
        let model = ThermometerModel(connection: connection)
        let changes = Locked(0)
        func trackLink() {
            withObservationTracking {
                _ = model.link
            } onChange: {
                changes.withLock { $0 += 1 }
            }
        }
        trackLink()
        await model.start()
        #expect(try await eventually { model.link == .idle })
        #expect(changes.withLock { $0 } == 1)

        trackLink()
        await model.browse()
        #expect(try await eventually { model.nearby.count == 1 })
        #expect(changes.withLock { $0 } == 2, "idle to browsing")

        // While browsing, each advertisement is a snapshot with the thermometer seen again: the
        // model rewrites nearby, and leaves link, which a view of the link's state reads, alone.
        trackLink()
        let seen = model.nearby.first?.lastSeen
        #expect(try await eventually { model.nearby.first?.lastSeen != seen })
        #expect(model.link == .browsing)
        #expect(changes.withLock { $0 } == 2, "snapshots that leave link as it was do not tell a view of it")
    }

    @Test("the central the app makes at launch is CoreBluetooth's, with a restoration identifier")
    func theAppsConnection() {
        let connection = makeThermometerConnection()
        #expect(connection.central is CoreBluetoothCentral)
        #expect(connection.configuration.service == "FFE0")
    }

    @Test("the article's Info.plist keys are a property list with the usage description and the background mode")
    func infoPlist() throws {
        let article = try String(
            contentsOf: Self.root.appending(
                path: "Sources/StatechartsBluetooth/StatechartsBluetooth.docc/BuildingTheApp.md"),
            encoding: .utf8)
        let keys = try #require(
            article.components(separatedBy: "```xml\n").dropFirst().first?.components(separatedBy: "```").first)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \(keys)</dict>
            </plist>
            """
        let parsed = try PropertyListSerialization.propertyList(from: Data(plist.utf8), format: nil)
        let dictionary = try #require(parsed as? [String: Any])
        #expect((dictionary["NSBluetoothAlwaysUsageDescription"] as? String)?.isEmpty == false)
        #expect(dictionary["UIBackgroundModes"] as? [String] == ["bluetooth-central"])
    }
}
