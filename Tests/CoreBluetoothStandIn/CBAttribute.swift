#if !canImport(CoreBluetooth)
import Foundation

/// https://developer.apple.com/documentation/corebluetooth/cbattribute
open class CBAttribute: NSObject {
    /// https://developer.apple.com/documentation/corebluetooth/cbattribute/uuid
    open var uuid: CBUUID { storedUUID }
    let storedUUID: CBUUID

    init(uuid: CBUUID) {
        storedUUID = uuid
        super.init()
    }
}

/// https://developer.apple.com/documentation/corebluetooth/cbservice
open class CBService: CBAttribute {
    /// https://developer.apple.com/documentation/corebluetooth/cbservice/peripheral
    weak open var peripheral: CBPeripheral?
    /// https://developer.apple.com/documentation/corebluetooth/cbservice/isprimary
    open var isPrimary: Bool { true }
    /// https://developer.apple.com/documentation/corebluetooth/cbservice/characteristics
    open package(set) var characteristics: [CBCharacteristic]?

    /// A service the tests make.
    package init(uuid: CBUUID, peripheral: CBPeripheral) {
        self.peripheral = peripheral
        super.init(uuid: uuid)
    }

    package func setCharacteristics(_ characteristics: [CBCharacteristic]?) { self.characteristics = characteristics }
}

/// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties
public struct CBCharacteristicProperties: OptionSet, Sendable {
    /// The bits.
    public var rawValue: UInt
    /// Properties from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/broadcast
    public static let broadcast = CBCharacteristicProperties(rawValue: 0x01)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/read
    public static let read = CBCharacteristicProperties(rawValue: 0x02)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/writewithoutresponse
    public static let writeWithoutResponse = CBCharacteristicProperties(rawValue: 0x04)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/write
    public static let write = CBCharacteristicProperties(rawValue: 0x08)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/notify
    public static let notify = CBCharacteristicProperties(rawValue: 0x10)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/indicate
    public static let indicate = CBCharacteristicProperties(rawValue: 0x20)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/authenticatedsignedwrites
    public static let authenticatedSignedWrites = CBCharacteristicProperties(rawValue: 0x40)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/extendedproperties
    public static let extendedProperties = CBCharacteristicProperties(rawValue: 0x80)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/notifyencryptionrequired
    public static let notifyEncryptionRequired = CBCharacteristicProperties(rawValue: 0x100)
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristicproperties/indicateencryptionrequired
    public static let indicateEncryptionRequired = CBCharacteristicProperties(rawValue: 0x200)
}

/// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic
open class CBCharacteristic: CBAttribute {
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/service
    weak open var service: CBService?
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/properties
    open package(set) var properties: CBCharacteristicProperties
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/value
    open package(set) var value: Data?
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/descriptors
    open package(set) var descriptors: [CBDescriptor]?
    /// https://developer.apple.com/documentation/corebluetooth/cbcharacteristic/isnotifying
    open package(set) var isNotifying = false

    /// A characteristic the tests make.
    package init(uuid: CBUUID, properties: CBCharacteristicProperties, service: CBService) {
        self.properties = properties
        self.service = service
        super.init(uuid: uuid)
    }

    package func setValue(_ value: Data?) { self.value = value }
    package func setDescriptors(_ descriptors: [CBDescriptor]?) { self.descriptors = descriptors }
    package func setNotifying(_ notifying: Bool) { isNotifying = notifying }
}

/// https://developer.apple.com/documentation/corebluetooth/cbdescriptor
open class CBDescriptor: CBAttribute {
    /// https://developer.apple.com/documentation/corebluetooth/cbdescriptor/characteristic
    weak open var characteristic: CBCharacteristic?
    /// https://developer.apple.com/documentation/corebluetooth/cbdescriptor/value
    open var value: Any? { nil }

    /// A descriptor the tests make.
    package init(uuid: CBUUID, characteristic: CBCharacteristic) {
        self.characteristic = characteristic
        super.init(uuid: uuid)
    }
}
#endif
