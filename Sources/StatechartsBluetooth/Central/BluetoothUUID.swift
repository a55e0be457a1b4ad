/// A service, characteristic or descriptor UUID (`CBUUID`), as its text: `"180D"` or a full UUID.
public struct BluetoothUUID: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The UUID's text, upper-cased, in its shortest form: a UUID on the Bluetooth base UUID
    /// (`0000XXXX-0000-1000-8000-00805F9B34FB`) is kept as its 16- or 32-bit part, as `CBUUID`
    /// gives it, so that both forms name the same attribute.
    public var text: String

    /// A UUID from its text.
    public init(_ text: String) {
        let upper = text.uppercased()
        let base = "-0000-1000-8000-00805F9B34FB"
        if upper.count == 36 && upper.hasSuffix(base) {
            let prefix = upper.prefix(8)
            self.text = String(prefix.hasPrefix("0000") ? prefix.dropFirst(4) : prefix)
        } else {
            self.text = upper
        }
    }

    /// A UUID from a literal.
    public init(stringLiteral text: String) { self.init(text) }

    /// The UUID's text.
    public var description: String { text }

    /// The Client Characteristic Configuration descriptor (0x2902), which turns a characteristic's
    /// notifications on and off.
    public static let clientCharacteristicConfiguration: BluetoothUUID = "2902"
}
