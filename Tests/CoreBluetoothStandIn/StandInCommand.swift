#if !canImport(CoreBluetooth)
import Foundation

/// A command the adapter gave the stand-in: what tests check and answer. Not Apple's.
package enum StandInCommand {
    case scan([CBUUID]?, options: [String: Any]?)
    case stopScan
    case connect(CBPeripheral)
    case cancelConnection(CBPeripheral)
    case discoverServices(CBPeripheral, [CBUUID]?)
    case discoverCharacteristics(CBPeripheral, [CBUUID]?, CBService)
    case discoverDescriptors(CBPeripheral, CBCharacteristic)
    case readValue(CBPeripheral, CBCharacteristic)
    case writeValue(CBPeripheral, Data, CBCharacteristic, CBCharacteristicWriteType)
    case setNotifyValue(CBPeripheral, Bool, CBCharacteristic)
    case readRSSI(CBPeripheral)

    /// The command in a line, for tests to compare: `connect`, `write FFE0/FFE1 withoutResponse 20`.
    package var summary: String {
        switch self {
        case .scan(let services, let options):
            let list = services?.map(\.uuidString).joined(separator: ",") ?? "any"
            let duplicates = (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? Bool) ?? false
            return "scan \(list) duplicates=\(duplicates)"
        case .stopScan: return "stopScan"
        case .connect: return "connect"
        case .cancelConnection: return "cancel"
        case .discoverServices(_, let services):
            return "discoverServices \(services?.map(\.uuidString).joined(separator: ",") ?? "all")"
        case .discoverCharacteristics(_, let uuids, let service):
            return
                "discoverCharacteristics \(service.uuid.uuidString) \(uuids?.map(\.uuidString).joined(separator: ",") ?? "all")"
        case .discoverDescriptors(_, let characteristic): return "discoverDescriptors \(characteristic.path)"
        case .readValue(_, let characteristic): return "read \(characteristic.path)"
        case .writeValue(_, let data, let characteristic, let type):
            return
                "write \(characteristic.path) \(type == .withResponse ? "withResponse" : "withoutResponse") \(data.count)"
        case .setNotifyValue(_, let enabled, let characteristic): return "notify \(characteristic.path) \(enabled)"
        case .readRSSI: return "readRSSI"
        }
    }
}

extension CBCharacteristic {
    /// `service/characteristic`.
    var path: String { "\(service?.uuid.uuidString ?? "?")/\(uuid.uuidString)" }
}
#endif
