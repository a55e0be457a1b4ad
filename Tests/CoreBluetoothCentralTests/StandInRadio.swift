#if !canImport(CoreBluetooth)
import CoreBluetoothStandIn
import Dispatch
import Foundation
import StatechartsBluetooth

/// A value handed across the stand-in's queue: the stand-in's objects, like CoreBluetooth's,
/// are not `Sendable`, and are touched on that queue only.
struct OnQueue<Value>: @unchecked Sendable {
    let value: Value
}

/// One device the radio plays: what it advertises, its GATT table, and an app on it that
/// answers requests with their own bytes.
final class StandInDevice {
    let peripheral: CBPeripheral
    var advertisement: [String: Any]
    var rssi: Int
    /// Services, each with its characteristics and their properties, in order.
    var table: [(service: String, characteristics: [(uuid: String, properties: CBCharacteristicProperties)])]
    var values: [String: Data] = [:]
    /// Errors the next connection attempts fail with.
    var connectionFailures: [CBError] = []
    /// How many writes without response the central takes before it must wait.
    var writeWithoutResponseBudget = 3
    var budgetLeft = 3
    var reassembler = MessageReassembler(maximumMessageLength: 1 << 20)
    var received: [Data] = []
    var writes: (withResponse: Int, withoutResponse: Int) = (0, 0)
    var dropped = 0
    /// Whether it is in range: a connection request waits for it, with no timeout.
    var inRange = true
    var connectionRequested = false

    init(
        peripheral: CBPeripheral, advertisement: [String: Any], rssi: Int,
        table: [(service: String, characteristics: [(uuid: String, properties: CBCharacteristicProperties)])]
    ) {
        self.peripheral = peripheral
        self.advertisement = advertisement
        self.rssi = rssi
        self.table = table
    }

    /// The characteristic notifications are on for.
    var notifying: CBCharacteristic? {
        peripheral.services?.lazy.compactMap { $0.characteristics?.first(where: \.isNotifying) }.first
    }
}

/// Plays the system and the devices around a stand-in `CBCentralManager`: each command the
/// adapter gives is answered later on the manager's queue through the delegates, as
/// CoreBluetooth answers.
final class StandInRadio: @unchecked Sendable {
    let manager: CBCentralManager
    private(set) var devices: [StandInDevice] = []

    init(manager: CBCentralManager) {
        self.manager = manager
        manager.onCommand = { [unowned self] command in self.handle(command) }
    }

    /// Runs `work` on the manager's queue after what is queued already.
    func later(_ work: @escaping () -> Void) {
        let box = OnQueue(value: work)
        manager.queue.async { box.value() }
    }

    /// Runs `work` on the manager's queue and waits for it.
    func now<T>(_ work: () -> T) -> T {
        withoutActuallyEscaping(work) { work in
            let box = OnQueue(value: work)
            return manager.queue.sync { OnQueue(value: box.value()) }.value
        }
    }

    /// Adds a device; a thermometer with the message service by default.
    @discardableResult
    func addDevice(
        id: UUID = UUID(), name: String = "Thermometer", rssi: Int = -60,
        writeProperties: CBCharacteristicProperties = [.write, .writeWithoutResponse],
        advertisement: [String: Any]? = nil
    ) -> StandInDevice {
        now {
            let peripheral = CBPeripheral(identifier: id, name: name, manager: manager)
            peripheral.advertisedServices = [CBUUID(string: "FFE0")]
            let device = StandInDevice(
                peripheral: peripheral,
                advertisement: advertisement ?? [
                    CBAdvertisementDataLocalNameKey: name,
                    CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "FFE0")],
                    CBAdvertisementDataIsConnectable: NSNumber(value: true),
                ], rssi: rssi,
                table: [
                    ("FFE0", [("FFE1", writeProperties), ("FFE2", [.notify])]),
                    ("180F", [("2A19", [.read, .notify])]),
                ])
            device.values["180F/2A19"] = Data([87])
            devices.append(device)
            return device
        }
    }

    /// Reports a new radio state, as the system does.
    func setState(_ state: CBManagerState) {
        later { [manager] in
            manager.setState(state)
            manager.delegate?.centralManagerDidUpdateState(manager)
        }
    }

    /// Drops a connection with `error`, as the link layer does.
    func drop(_ device: StandInDevice, error: (any Error)?) {
        later { [manager] in
            device.peripheral.setState(.disconnected)
            manager.delegate?.centralManager(manager, didDisconnectPeripheral: device.peripheral, error: error)
        }
    }

    /// Takes a device out of range: its connection drops with `connectionTimeout`, and a
    /// request to connect waits for it.
    func moveOutOfRange(_ device: StandInDevice) {
        later { [manager] in
            device.inRange = false
            guard device.peripheral.state == .connected else { return }
            device.peripheral.setState(.disconnected)
            manager.delegate?.centralManager(
                manager, didDisconnectPeripheral: device.peripheral, error: CBError(.connectionTimeout))
        }
    }

    /// Brings a device back: a pending request connects.
    func bringIntoRange(_ device: StandInDevice) {
        later { [self] in
            device.inRange = true
            complete(device)
        }
    }

    /// Completes a pending connection request, if the device is in range.
    private func complete(_ device: StandInDevice) {
        let peripheral = device.peripheral
        guard device.connectionRequested, device.inRange else { return }
        device.connectionRequested = false
        if device.connectionFailures.isEmpty {
            peripheral.setState(.connected)
            device.budgetLeft = device.writeWithoutResponseBudget
            peripheral.setCanSendWriteWithoutResponse(true)
            manager.delegate?.centralManager(manager, didConnect: peripheral)
        } else {
            peripheral.setState(.disconnected)
            let error = device.connectionFailures.removeFirst()
            manager.delegate?.centralManager(manager, didFailToConnect: peripheral, error: error)
        }
    }

    /// The commands given so far, as lines.
    var commandLog: [String] { now { manager.commands.map(\.summary) } }

    private func device(_ peripheral: CBPeripheral) -> StandInDevice? {
        devices.first { $0.peripheral === peripheral }
    }

    // MARK: - Answering commands (on the queue)

    private func handle(_ command: StandInCommand) {
        switch command {
        case .scan(let services, _):
            for device in devices
            where services.map({ $0.contains { device.peripheral.advertisedServices.contains($0) } }) ?? true {
                later { [manager] in
                    guard manager.isScanning else { return }
                    manager.delegate?.centralManager(
                        manager, didDiscover: device.peripheral, advertisementData: device.advertisement,
                        rssi: NSNumber(value: device.rssi))
                }
            }
        case .stopScan: break
        case .connect(let peripheral):
            guard let device = device(peripheral) else { return }
            device.connectionRequested = true
            later { [self] in complete(device) }
        case .cancelConnection(let peripheral):
            device(peripheral)?.connectionRequested = false
            later { [manager] in
                guard peripheral.state != .disconnected else { return }
                peripheral.setState(.disconnected)
                manager.delegate?.centralManager(manager, didDisconnectPeripheral: peripheral, error: nil)
            }
        case .discoverServices(let peripheral, let uuids):
            guard let device = device(peripheral) else { return }
            later {
                let wanted = device.table.filter { entry in uuids?.contains(CBUUID(string: entry.service)) ?? true }
                let existing = peripheral.services ?? []
                let services = wanted.map { entry in
                    existing.first { $0.uuid == CBUUID(string: entry.service) }
                        ?? CBService(uuid: CBUUID(string: entry.service), peripheral: peripheral)
                }
                peripheral.setServices(existing + services.filter { new in !existing.contains { $0 === new } })
                peripheral.delegate?.peripheral(peripheral, didDiscoverServices: nil)
            }
        case .discoverCharacteristics(let peripheral, let uuids, let service):
            guard let device = device(peripheral) else { return }
            later {
                let entry = device.table.first { CBUUID(string: $0.service) == service.uuid }
                let characteristics = (entry?.characteristics ?? []).filter {
                    uuids?.contains(CBUUID(string: $0.uuid)) ?? true
                }.map { CBCharacteristic(uuid: CBUUID(string: $0.uuid), properties: $0.properties, service: service) }
                service.setCharacteristics(characteristics)
                peripheral.delegate?.peripheral(peripheral, didDiscoverCharacteristicsFor: service, error: nil)
            }
        case .discoverDescriptors(let peripheral, let characteristic):
            later {
                let notifies = !characteristic.properties.isDisjoint(with: [.notify, .indicate])
                characteristic.setDescriptors(
                    notifies ? [CBDescriptor(uuid: CBUUID(string: "2902"), characteristic: characteristic)] : [])
                peripheral.delegate?.peripheral(peripheral, didDiscoverDescriptorsFor: characteristic, error: nil)
            }
        case .readValue(let peripheral, let characteristic):
            guard let device = device(peripheral) else { return }
            later {
                guard characteristic.properties.contains(.read) else {
                    peripheral.delegate?.peripheral(
                        peripheral, didUpdateValueFor: characteristic, error: CBATTError(.readNotPermitted))
                    return
                }
                characteristic.setValue(device.values[characteristic.path])
                peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: characteristic, error: nil)
            }
        case .writeValue(let peripheral, let data, let characteristic, let type):
            guard let device = device(peripheral) else { return }
            if type == .withResponse {
                device.writes.withResponse += 1
                later { [self] in
                    guard characteristic.properties.contains(.write) else {
                        peripheral.delegate?.peripheral(
                            peripheral, didWriteValueFor: characteristic, error: CBATTError(.writeNotPermitted))
                        return
                    }
                    deliver(data, to: device)
                    peripheral.delegate?.peripheral(peripheral, didWriteValueFor: characteristic, error: nil)
                }
                return
            }
            guard peripheral.canSendWriteWithoutResponse else {
                device.dropped += 1
                return
            }
            device.writes.withoutResponse += 1
            device.budgetLeft -= 1
            later { [self] in deliver(data, to: device) }
            if device.budgetLeft == 0 {
                peripheral.setCanSendWriteWithoutResponse(false)
                later {
                    device.budgetLeft = device.writeWithoutResponseBudget
                    peripheral.setCanSendWriteWithoutResponse(true)
                    peripheral.delegate?.peripheralIsReady(toSendWriteWithoutResponse: peripheral)
                }
            }
        case .setNotifyValue(let peripheral, let enabled, let characteristic):
            later {
                characteristic.setNotifying(enabled)
                peripheral.delegate?.peripheral(
                    peripheral, didUpdateNotificationStateFor: characteristic, error: nil)
            }
        case .readRSSI(let peripheral):
            guard let device = device(peripheral) else { return }
            later { peripheral.delegate?.peripheral(peripheral, didReadRSSI: NSNumber(value: device.rssi), error: nil) }
        }
    }

    /// The device's app takes a chunk; a whole request is answered with its own bytes, in
    /// notifications of 20 bytes.
    private func deliver(_ chunk: Data, to device: StandInDevice) {
        for outcome in device.reassembler.receive(chunk) {
            guard case .message(let message) = outcome else { continue }
            device.received.append(message.payload)
            guard message.kind == .request, let notifying = device.notifying,
                let chunker = try? MessageChunker(chunkLength: 20, maximumMessageLength: 1 << 20),
                let answer = try? chunker.chunks(of: message.payload, kind: .response, id: 1, replyTo: message.id)
            else { continue }
            for piece in answer {
                later {
                    notifying.setValue(piece)
                    device.peripheral.delegate?.peripheral(
                        device.peripheral, didUpdateValueFor: notifying, error: nil)
                }
            }
        }
    }
}

extension CBCharacteristic {
    /// `service/characteristic`, as the radio's tables name it.
    var path: String { "\(service?.uuid.uuidString ?? "?")/\(uuid.uuidString)" }
}
#endif
