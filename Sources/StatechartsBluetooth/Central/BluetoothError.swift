/// An error a central reports, with CoreBluetooth's codes: `CBError.Code`, or for a request the
/// peripheral refused, `CBATTError.Code` in ``attribute``.
public struct BluetoothError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// What went wrong (`CBError.Code`).
    public enum Code: Int, Hashable, Sendable, Codable {
        /// An unknown error: on a disconnect, most often the device going out of range.
        case unknown = 0
        /// The parameters were invalid.
        case invalidParameters = 1
        /// The handle was invalid.
        case invalidHandle = 2
        /// The peripheral is not connected.
        case notConnected = 3
        /// The device is out of space.
        case outOfSpace = 4
        /// The operation was cancelled.
        case operationCancelled = 5
        /// The connection timed out: the device went out of range.
        case connectionTimeout = 6
        /// The peripheral disconnected.
        case peripheralDisconnected = 7
        /// The UUID is not allowed.
        case uuidNotAllowed = 8
        /// The peripheral is already advertising.
        case alreadyAdvertising = 9
        /// The connection failed.
        case connectionFailed = 10
        /// The device reached its connection limit.
        case connectionLimitReached = 11
        /// The device is unknown.
        case unknownDevice = 12
        /// The operation is not supported.
        case operationNotSupported = 13
        /// The peer removed its pairing information.
        case peerRemovedPairingInformation = 14
        /// The encryption timed out.
        case encryptionTimedOut = 15
        /// Too many LE-paired devices.
        case tooManyLEPairedDevices = 16
    }

    /// Why the peripheral refused a request (`CBATTError.Code`).
    public enum AttributeCode: Int, Hashable, Sendable, Codable {
        /// Success (not an error; CoreBluetooth has the code).
        case success = 0
        /// The attribute handle was invalid.
        case invalidHandle = 1
        /// The attribute may not be read.
        case readNotPermitted = 2
        /// The attribute may not be written.
        case writeNotPermitted = 3
        /// The request was malformed.
        case invalidPdu = 4
        /// The link must be authenticated (paired) first.
        case insufficientAuthentication = 5
        /// The peripheral does not support the request.
        case requestNotSupported = 6
        /// The offset was past the value's end.
        case invalidOffset = 7
        /// The central is not authorised.
        case insufficientAuthorization = 8
        /// Too many writes were prepared.
        case prepareQueueFull = 9
        /// No attribute was found.
        case attributeNotFound = 10
        /// The attribute cannot be read or written with a long request.
        case attributeNotLong = 11
        /// The encryption key is too short.
        case insufficientEncryptionKeySize = 12
        /// The value's length was invalid.
        case invalidAttributeValueLength = 13
        /// The request failed for an unlikely reason.
        case unlikelyError = 14
        /// The link must be encrypted first.
        case insufficientEncryption = 15
        /// The group type is not supported.
        case unsupportedGroupType = 16
        /// The peripheral lacks the resources.
        case insufficientResources = 17
    }

    /// What went wrong; ``Code/unknown`` when the peripheral refused a request (see ``attribute``).
    public var code: Code
    /// Why the peripheral refused a request, when it did.
    public var attribute: AttributeCode?

    /// An error with a code.
    public init(_ code: Code) {
        self.code = code
        attribute = nil
    }

    /// A request the peripheral refused.
    public init(attribute: AttributeCode) {
        code = .unknown
        self.attribute = attribute
    }

    /// Whether a disconnect with this error means the device went out of range and may come
    /// back, so that connecting again (with no timeout) is the right answer.
    public var meansOutOfRange: Bool {
        guard attribute == nil else { return false }
        switch code {
        case .unknown, .connectionTimeout, .peripheralDisconnected, .connectionFailed: return true
        default: return false
        }
    }

    /// The code's name.
    public var description: String {
        if let attribute { return "attribute error \(attribute) (\(attribute.rawValue))" }
        return "\(code) (\(code.rawValue))"
    }
}
