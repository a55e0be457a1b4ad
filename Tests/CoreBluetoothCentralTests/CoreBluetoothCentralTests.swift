#if !canImport(CoreBluetooth)
import CoreBluetoothStandIn
import Foundation
import Statecharts
import StatechartsBluetooth
import Testing

/// The CoreBluetooth adapter on the stand-in of the framework: every delegate call becomes
/// the kit's event, every command reaches CoreBluetooth as Apple documents it, and the
/// connection chart runs end to end through it, as it does on the simulator.
@Suite("CoreBluetoothCentral on the CoreBluetooth stand-in", .timeLimit(.minutes(1)))
struct CoreBluetoothCentralTests {
    static let service: BluetoothUUID = "FFE0"
    static let configuration = ConnectionConfiguration(
        service: service, writeCharacteristic: "FFE1", notifyCharacteristic: "FFE2", additionalServices: ["180F"],
        replyTimeout: .seconds(5))

    /// A central on the stand-in and the radio around it.
    static func make(restorationIdentifier: String? = nil) throws -> (CoreBluetoothCentral, StandInRadio) {
        let central = CoreBluetoothCentral(restorationIdentifier: restorationIdentifier)
        let manager = try #require(central.run { OnQueue(value: $0) }.value, "the central made its manager")
        return (central, StandInRadio(manager: manager))
    }

    /// A connection on the adapter, started, with Bluetooth on.
    static func connection(
        _ central: CoreBluetoothCentral, _ radio: StandInRadio,
        configuration: ConnectionConfiguration = configuration, memory: InMemoryPeripheralMemory = .init()
    ) async throws -> BluetoothConnection {
        let connection = try BluetoothConnection(central: central, configuration: configuration, memory: memory)
        try await connection.start()
        return connection
    }

    @Test func everySubscriberGetsTheRestorationThenTheStateFirst() async throws {
        let (central, radio) = try Self.make(restorationIdentifier: "com.example.thermometer")
        #expect(
            radio.now { radio.manager.options?[CBCentralManagerOptionRestoreIdentifierKey] as? String }
                == "com.example.thermometer")
        let device = radio.addDevice()
        radio.later {
            device.peripheral.setState(.connected)
            radio.manager.delegate?.centralManager(
                radio.manager, willRestoreState: [CBCentralManagerRestoredStatePeripheralsKey: [device.peripheral]])
        }
        radio.setState(.poweredOn)
        #expect(await eventually { central.state == .poweredOn })
        let id = PeripheralID(device.peripheral.identifier)
        for _ in 0..<2 {
            var events = central.events().makeAsyncIterator()
            #expect(await events.next() == .willRestore([RestoredPeripheral(id: id, isConnected: true)]))
            #expect(await events.next() == .stateChanged(.poweredOn))
        }
        radio.setState(.poweredOff)
        #expect(await eventually { central.state == .poweredOff })
        var late = central.events().makeAsyncIterator()
        _ = await late.next()
        #expect(await late.next() == .stateChanged(.poweredOff), "a late subscriber starts with the state now")
    }

    @Test func aScanPassesItsOptionsAndReportsTheWholeAdvertisement() async throws {
        let (central, radio) = try Self.make()
        let manufacturer = Data([0x4C, 0x00, 0x02, 0x15])
        let device = radio.addDevice(
            rssi: -42,
            advertisement: [
                CBAdvertisementDataLocalNameKey: "Thermometer 7",
                CBAdvertisementDataManufacturerDataKey: manufacturer,
                CBAdvertisementDataServiceDataKey: [CBUUID(string: "180F"): Data([90])],
                CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "0000FFE0-0000-1000-8000-00805F9B34FB")],
                CBAdvertisementDataOverflowServiceUUIDsKey: [CBUUID(string: "180A")],
                CBAdvertisementDataSolicitedServiceUUIDsKey: [CBUUID(string: "1805")],
                CBAdvertisementDataTxPowerLevelKey: NSNumber(value: 4),
                CBAdvertisementDataIsConnectable: NSNumber(value: true),
            ])
        radio.setState(.poweredOn)
        var events = central.events().makeAsyncIterator()
        _ = await events.next()
        central.scanForPeripherals(
            withServices: [Self.service], options: ScanOptions(allowDuplicates: true, solicitedServices: ["1805"]))
        let expected = Advertisement(
            localName: "Thermometer 7", manufacturerData: manufacturer, serviceData: ["180F": Data([90])],
            serviceUUIDs: ["FFE0"], overflowServiceUUIDs: ["180A"], solicitedServiceUUIDs: ["1805"], txPowerLevel: 4,
            isConnectable: true)
        var discovered: CentralEvent?
        while let event = await events.next() {
            if case .discovered = event {
                discovered = event
                break
            }
        }
        #expect(discovered == .discovered(PeripheralID(device.peripheral.identifier), expected, rssi: -42))
        #expect(expected.manufacturerID == 0x004C)
        #expect(radio.commandLog == ["scan FFE0 duplicates=true"])
        let solicited = radio.now {
            guard case .scan(_, let options) = radio.manager.commands.first else { return [String]() }
            return (options?[CBCentralManagerScanOptionSolicitedServiceUUIDsKey] as? [CBUUID])?.map(\.uuidString) ?? []
        }
        #expect(solicited == ["1805"])
        central.stopScan()
        #expect(await eventually { radio.commandLog.last == "stopScan" })
        #expect(radio.now { !radio.manager.isScanning })
    }

    @Test func theChartPairsDiscoversAndSendsWithoutResponseUnderFlowControl() async throws {
        let (central, radio) = try Self.make()
        let device = radio.addDevice()
        radio.setState(.poweredOn)
        let memory = InMemoryPeripheralMemory()
        let connection = try await Self.connection(central, radio, memory: memory)
        #expect(await eventually { await connection.snapshot.isActive(.idle) })
        #expect(await connection.pair())
        #expect(await eventually { await connection.snapshot.isActive(.ready) })
        let id = PeripheralID(device.peripheral.identifier)
        #expect(memory.pairedPeripheral == id)
        #expect(memory.value(forKey: ConnectionContext.nameKey, of: id) == Data("Thermometer".utf8))
        #expect(
            Array(radio.commandLog.prefix(8)) == [
                "scan FFE0 duplicates=true", "stopScan", "connect", "discoverServices FFE0,180F",
                "discoverCharacteristics FFE0 FFE1,FFE2", "discoverCharacteristics 180F all",
                "discoverDescriptors FFE0/FFE2", "notify FFE0/FFE2 true",
            ])
        #expect(connection.messenger.writeType == .withoutResponse, "the characteristic allows it")

        // 2,000 bytes in chunks of 182: the central takes three at a time, then waits for
        // peripheralIsReady; nothing is dropped.
        let request = Data((0..<2_000).map { UInt8($0 % 251) })
        let answer = try await connection.messenger.request(request)
        #expect(answer == request)
        let (writes, dropped) = radio.now { (device.writes, device.dropped) }
        #expect(writes.withoutResponse == 12 && writes.withResponse == 0)
        #expect(dropped == 0)

        #expect(try await connection.readValue(of: CharacteristicID(service: "180F", uuid: "2A19")) == Data([87]))
        #expect(try await connection.readRSSI() == -60)
        await #expect(throws: BluetoothError(attribute: .readNotPermitted)) {
            try await connection.readValue(of: Self.configuration.notifyCharacteristicID)
        }
        await #expect(throws: BluetoothError(attribute: .attributeNotFound)) {
            try await connection.readValue(of: CharacteristicID(service: "180F", uuid: "2A00"))
        }
    }

    @Test func aCharacteristicWithoutFastWritesIsWrittenWithResponse() async throws {
        let (central, radio) = try Self.make()
        let device = radio.addDevice(writeProperties: [.write])
        radio.setState(.poweredOn)
        let connection = try await Self.connection(central, radio)
        #expect(await eventually { await connection.snapshot.isActive(.idle) })
        await connection.pair()
        #expect(await eventually { await connection.snapshot.isActive(.ready) })
        #expect(connection.messenger.writeType == .withResponse)
        let answer = try await connection.messenger.request(Data(repeating: 7, count: 600))
        #expect(answer == Data(repeating: 7, count: 600))
        let writes = radio.now { device.writes }
        #expect(writes.withResponse == 2 && writes.withoutResponse == 0, "two writes of up to 512 bytes")
    }

    @Test func errorsAreMappedToTheKitsCodesAndDriveTheChart() async throws {
        #expect(CoreBluetoothCentral.bluetoothError(CBError(.connectionTimeout)) == BluetoothError(.connectionTimeout))
        #expect(
            CoreBluetoothCentral.bluetoothError(CBError(.peerRemovedPairingInformation))
                == BluetoothError(.peerRemovedPairingInformation))
        #expect(
            CoreBluetoothCentral.bluetoothError(CBATTError(.insufficientEncryption))
                == BluetoothError(attribute: .insufficientEncryption))
        #expect(CoreBluetoothCentral.bluetoothError(CocoaError(.fileNoSuchFile)) == BluetoothError(.unknown))
        #expect(CoreBluetoothCentral.bluetoothError(nil) == nil)

        let (central, radio) = try Self.make()
        let device = radio.addDevice()
        radio.now { device.connectionFailures = [CBError(.peerRemovedPairingInformation)] }
        radio.setState(.poweredOn)
        let connection = try await Self.connection(central, radio)
        #expect(await eventually { await connection.snapshot.isActive(.idle) })
        await connection.pair()
        #expect(await eventually { await connection.snapshot.isActive(.disconnected) })
        #expect(
            await connection.snapshot.context.failure == .connectFailed(BluetoothError(.peerRemovedPairingInformation)))
        await connection.reconnect()
        #expect(await eventually { await connection.snapshot.isActive(.ready) })
        radio.moveOutOfRange(device)
        #expect(await eventually { await connection.snapshot.isActive(.waitingForReturn) }, "out of range")
        #expect(await eventually { radio.commandLog.last == "connect" }, "asks again, with no timeout")
        radio.bringIntoRange(device)
        #expect(await eventually { await connection.snapshot.isActive(.ready) })
        radio.drop(device, error: CBError(.encryptionTimedOut))
        #expect(await eventually { await connection.snapshot.isActive(.disconnected) })
        #expect(await connection.snapshot.context.failure == .disconnected(BluetoothError(.encryptionTimedOut)))
    }

    @Test func aRestoredConnectionResumesWithoutConnectingAgain() async throws {
        let (central, radio) = try Self.make(restorationIdentifier: "com.example.thermometer")
        let device = radio.addDevice()
        radio.later {
            device.peripheral.setState(.connected)
            radio.manager.delegate?.centralManager(
                radio.manager, willRestoreState: [CBCentralManagerRestoredStatePeripheralsKey: [device.peripheral]])
        }
        let memory = InMemoryPeripheralMemory(PeripheralID(device.peripheral.identifier))
        let connection = try await Self.connection(central, radio, memory: memory)
        #expect(await eventually { await connection.snapshot.context.restored.count == 1 })
        #expect(await connection.snapshot.isActive(.waitingForPower), "held until Bluetooth is on")
        radio.setState(.poweredOn)
        #expect(await eventually { await connection.snapshot.isActive(.ready) })
        #expect(!radio.commandLog.contains("connect"), "the system kept the connection")
        #expect(try await connection.messenger.request(Data("again".utf8)) == Data("again".utf8))
    }

    @Test func commandsOnWhatIsNotThereAreAnsweredWithTheErrorsCoreBluetoothGives() async throws {
        let (central, radio) = try Self.make()
        let device = radio.addDevice()
        radio.setState(.poweredOn)
        #expect(await eventually { central.state == .poweredOn })
        var events = central.events().makeAsyncIterator()
        _ = await events.next()
        let stranger = PeripheralID(UUID())
        central.connect(stranger)
        #expect(await events.next() == .failedToConnect(stranger, BluetoothError(.unknownDevice)))
        let id = PeripheralID(device.peripheral.identifier)
        let characteristic = CharacteristicID(service: "FFE0", uuid: "FFE1")
        radio.now { radio.manager.knownPeripherals = [device.peripheral] }
        central.readValue(of: characteristic, of: id)
        #expect(
            await events.next()
                == .valueUpdated(id, characteristic: characteristic, value: nil, error: BluetoothError(.notConnected)))
        central.writeValue(Data([1]), to: characteristic, of: id, type: .withResponse)
        #expect(
            await events.next() == .wroteValue(id, characteristic: characteristic, error: BluetoothError(.notConnected))
        )
        central.readRSSI(of: id)
        #expect(await events.next() == .readRSSI(id, rssi: 0, error: BluetoothError(.notConnected)))
        central.connect(id)
        #expect(await events.next() == .connected(id))
        central.discoverCharacteristics(nil, of: "FFE0", of: id)
        #expect(
            await events.next()
                == .discoveredCharacteristics(id, service: "FFE0", [], BluetoothError(.invalidParameters)),
            "a service not discovered")
        central.setNotifyValue(true, for: characteristic, of: id)
        #expect(
            await events.next()
                == .notificationStateChanged(
                    id, characteristic: characteristic, enabled: false,
                    error: BluetoothError(attribute: .attributeNotFound)))
        central.discoverServices(nil, of: id)
        #expect(await events.next() == .discoveredServices(id, ["FFE0", "180F"], nil))
        central.discoverCharacteristics(nil, of: "FFE0", of: id)
        #expect(
            await events.next()
                == .discoveredCharacteristics(
                    id, service: "FFE0",
                    [
                        DiscoveredCharacteristic(uuid: "FFE1", properties: [.write, .writeWithoutResponse]),
                        DiscoveredCharacteristic(uuid: "FFE2", properties: [.notify]),
                    ], nil))
        central.writeValue(Data([1]), to: CharacteristicID(service: "FFE0", uuid: "FFE2"), of: id, type: .withResponse)
        #expect(
            await events.next()
                == .wroteValue(
                    id, characteristic: CharacteristicID(service: "FFE0", uuid: "FFE2"),
                    error: BluetoothError(attribute: .writeNotPermitted)))
        #expect(central.maximumWriteValueLength(for: id, type: .withResponse) == 512)
        #expect(central.maximumWriteValueLength(for: id, type: .withoutResponse) == 182)
        #expect(central.maximumWriteValueLength(for: stranger, type: .withoutResponse) == 20)
        #expect(central.canSendWriteWithoutResponse(to: id))
        #expect(!central.canSendWriteWithoutResponse(to: stranger))
        central.cancelPeripheralConnection(id)
        #expect(await events.next() == .disconnected(id, nil))
    }

    @Test func retrievingFindsWhatTheSystemKnowsAndConnected() async throws {
        let (central, radio) = try Self.make()
        let known = radio.addDevice()
        let held = radio.addDevice(name: "Held")
        radio.now {
            radio.manager.knownPeripherals = [known.peripheral]
            radio.manager.systemConnectedPeripherals = [held.peripheral]
        }
        let knownID = PeripheralID(known.peripheral.identifier)
        #expect(central.retrievePeripherals(withIdentifiers: [knownID, PeripheralID(UUID())]) == [knownID])
        #expect(
            central.retrieveConnectedPeripherals(withServices: ["FFE0"]) == [PeripheralID(held.peripheral.identifier)])
        #expect(central.retrieveConnectedPeripherals(withServices: ["180D"]) == [])
    }

    @Test func bothFormsOfAUUIDNameTheSameAttribute() {
        #expect(BluetoothUUID("0000ffe0-0000-1000-8000-00805f9b34fb") == "FFE0")
        #expect(BluetoothUUID("12345678-0000-1000-8000-00805F9B34FB") == "12345678")
        #expect(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E").text == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(CoreBluetoothCentral.uuid(CBUUID(string: "0000180F-0000-1000-8000-00805F9B34FB")) == "180F")
    }
}

/// Whether `condition` holds within five seconds of real time.
func eventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<5_000 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return await condition()
}
#endif
