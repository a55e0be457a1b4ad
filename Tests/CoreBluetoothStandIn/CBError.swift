#if !canImport(CoreBluetooth)
import Foundation

/// https://developer.apple.com/documentation/corebluetooth/cberror-swift.struct
public struct CBError: Error, Hashable, Sendable {
    /// https://developer.apple.com/documentation/corebluetooth/cberror-swift.struct/code
    public enum Code: Int, Sendable {
        case unknown = 0
        case invalidParameters = 1
        case invalidHandle = 2
        case notConnected = 3
        case outOfSpace = 4
        case operationCancelled = 5
        case connectionTimeout = 6
        case peripheralDisconnected = 7
        case uuidNotAllowed = 8
        case alreadyAdvertising = 9
        case connectionFailed = 10
        case connectionLimitReached = 11
        case unkownDevice = 12
        case operationNotSupported = 13
        case peerRemovedPairingInformation = 14
        case encryptionTimedOut = 15
        case tooManyLEPairedDevices = 16
    }

    /// The error's code.
    public let code: Code

    /// An error with `code`, as `_BridgedStoredNSError` types are made.
    public init(_ code: Code, userInfo: [String: Any] = [:]) { self.code = code }
}

/// https://developer.apple.com/documentation/corebluetooth/cbatterror-swift.struct
public struct CBATTError: Error, Hashable, Sendable {
    /// https://developer.apple.com/documentation/corebluetooth/cbatterror-swift.struct/code
    public enum Code: Int, Sendable {
        case success = 0
        case invalidHandle = 1
        case readNotPermitted = 2
        case writeNotPermitted = 3
        case invalidPdu = 4
        case insufficientAuthentication = 5
        case requestNotSupported = 6
        case invalidOffset = 7
        case insufficientAuthorization = 8
        case prepareQueueFull = 9
        case attributeNotFound = 10
        case attributeNotLong = 11
        case insufficientEncryptionKeySize = 12
        case invalidAttributeValueLength = 13
        case unlikelyError = 14
        case insufficientEncryption = 15
        case unsupportedGroupType = 16
        case insufficientResources = 17
    }

    /// The error's code.
    public let code: Code

    /// An error with `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) { self.code = code }
}
#endif
