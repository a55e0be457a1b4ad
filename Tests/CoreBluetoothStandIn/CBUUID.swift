// A stand-in for the part of Apple's CoreBluetooth that `CoreBluetoothCentral` uses, with the
// same type, method, property and delegate signatures as the SDK declares them, so that the
// adapter's one source file type-checks and runs in tests where CoreBluetooth is absent. Only
// the test target `CoreBluetoothCentralTests` builds it, and only where CoreBluetooth is absent.
// What tests use to play the radio is `package`, outside Apple's surface.

#if !canImport(CoreBluetooth)
import Foundation

/// https://developer.apple.com/documentation/corebluetooth/cbuuid
///
/// `init(string:)`, `uuidString` and equality by value: a 16- or 32-bit UUID equals its full
/// form on the Bluetooth base UUID, and `uuidString` gives the short form, as Apple's does.
open class CBUUID: NSObject, @unchecked Sendable {
    private let full: String

    /// https://developer.apple.com/documentation/corebluetooth/cbuuid/init(string:)
    public init(string theString: String) {
        let text = theString.uppercased()
        switch text.count {
        case 4: full = "0000" + text + Self.baseSuffix
        case 8: full = text + Self.baseSuffix
        default: full = text
        }
    }

    /// https://developer.apple.com/documentation/corebluetooth/cbuuid/init(nsuuid:)
    public convenience init(nsuuid theUUID: UUID) { self.init(string: theUUID.uuidString) }

    /// https://developer.apple.com/documentation/corebluetooth/cbuuid/uuidstring
    open var uuidString: String {
        guard full.hasSuffix(Self.baseSuffix) else { return full }
        let prefix = String(full.prefix(8))
        return prefix.hasPrefix("0000") ? String(prefix.dropFirst(4)) : prefix
    }

    private static let baseSuffix = "-0000-1000-8000-00805F9B34FB"

    open override func isEqual(_ object: Any?) -> Bool { (object as? CBUUID)?.full == full }

    open override var hash: Int { full.hashValue }

    open override var description: String { uuidString }
}
#endif
