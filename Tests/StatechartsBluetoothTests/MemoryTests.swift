import Foundation
import Statecharts
import StatechartsBluetooth
import Testing

/// The paired peripheral and what the app notes per device, kept in a file across launches.
@Suite("Peripheral memory", .timeLimit(.minutes(3)))
struct MemoryTests {
    typealias Rig = ConnectionRig

    static func temporaryFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("app/peripherals.json")
    }

    @Test func thePairedDeviceAndItsDataSurviveARelaunch() async throws {
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        let first = try await Rig.make(memory: FilePeripheralMemory(fileURL: file))
        await first.pairAndWaitUntilReady()
        #expect(await first.states == [.ready])
        first.memory.setValue(Data("calibrated 0.3".utf8), forKey: "calibration", of: Rig.deviceID)

        // A new launch: a new process reads the file, and the system knows the device.
        let memory = FilePeripheralMemory(fileURL: file)
        #expect(memory.lastError == nil)
        #expect(memory.pairedPeripheral == Rig.deviceID)
        #expect(memory.value(forKey: ConnectionContext.nameKey, of: Rig.deviceID) == Data("Thermometer".utf8))
        #expect(memory.value(forKey: "calibration", of: Rig.deviceID) == Data("calibrated 0.3".utf8))
        let second = try await Rig.make(device: Rig.defaultDevice(), memory: memory)
        #expect(await second.states == [.connecting], "the remembered device, with no scan")
        await second.advance(by: .milliseconds(250))
        #expect(await second.states == [.ready])

        #expect(await second.connection.unpair())
        let third = FilePeripheralMemory(fileURL: file)
        #expect(third.pairedPeripheral == nil)
        #expect(third.contents == RememberedPeripherals(), "unpairing forgets the device's data too")
    }

    @Test func unpairingWhileBluetoothIsOffForgetsTheRememberedDevicesData() async throws {
        let memory = InMemoryPeripheralMemory(Rig.deviceID)
        memory.setValue(Data("kitchen".utf8), forKey: "room", of: Rig.deviceID)
        let rig = try await Rig.make(power: .poweredOff, memory: memory)
        #expect(await rig.states == [.waitingForPower])
        #expect(await rig.connection.unpair())
        #expect(memory.pairedPeripheral == nil)
        #expect(memory.value(forKey: "room", of: Rig.deviceID) == nil)
    }

    @Test func aDamagedFileIsSetAsideAndPairingStartsAnew() throws {
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: file)
        let memory = FilePeripheralMemory(fileURL: file)
        #expect(memory.pairedPeripheral == nil)
        #expect(memory.lastError?.contains("set aside") == true)
        #expect(FileManager.default.fileExists(atPath: file.path + ".unreadable"))
        memory.pairedPeripheral = Rig.deviceID
        #expect(FilePeripheralMemory(fileURL: file).pairedPeripheral == Rig.deviceID)
    }

    @Test func aFileThatCannotBeWrittenKeepsTheValueAndSaysWhy() throws {
        let file = try Self.temporaryFile()
        let root = file.deletingLastPathComponent().deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        // The file's folder is a file: nothing can be written under it.
        try Data().write(to: file.deletingLastPathComponent())
        let memory = FilePeripheralMemory(fileURL: file)
        memory.pairedPeripheral = Rig.deviceID
        #expect(memory.pairedPeripheral == Rig.deviceID)
        #expect(memory.lastError?.contains("could not be written") == true)
    }

    @Test func theDefaultFolderIsApplicationSupportOrXDG() {
        let home = ["HOME": "/home/ada"]
        #if canImport(Darwin)
        #expect(FilePeripheralMemory.applicationSupportFolder().path.hasSuffix("Application Support"))
        #else
        #expect(
            FilePeripheralMemory.applicationSupportFolder(
                environment: home.merging(["XDG_DATA_HOME": "/data/ada"]) { $1 }
            )
            .path == "/data/ada")
        #expect(
            FilePeripheralMemory.applicationSupportFolder(
                environment: home.merging(["XDG_DATA_HOME": "relative"]) { $1 }
            )
            .path == "/home/ada/.local/share",
            "a relative XDG_DATA_HOME is ignored, as the specification says")
        #expect(FilePeripheralMemory.applicationSupportFolder(environment: home).path == "/home/ada/.local/share")
        #endif
        let named = FilePeripheralMemory(application: "com.example.thermometer-\(UUID().uuidString)")
        #expect(named.fileURL.deletingLastPathComponent().lastPathComponent.hasPrefix("com.example.thermometer"))
        #expect(named.fileURL.lastPathComponent == "peripherals.json")
        #expect(
            !FileManager.default.fileExists(atPath: named.fileURL.path), "nothing is written until something changes")
    }
}
