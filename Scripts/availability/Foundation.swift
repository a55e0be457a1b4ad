// A stand-in for the part of Foundation the core library uses (StateDataCodec), with Apple's
// signatures and availability: what Scripts/availability.sh type-checks the core against for
// Apple targets, where the real Foundation is not on this machine. Declarations only.

/// `Data`, as far as the core uses it.
@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
public struct Data: Sendable, Collection {
    public init<S: Sequence>(_ elements: S) where S.Element == UInt8 { fatalError() }
    public var startIndex: Int { fatalError() }
    public var endIndex: Int { fatalError() }
    public subscript(position: Int) -> UInt8 { fatalError() }
    public func index(after index: Int) -> Int { fatalError() }
}

/// `JSONEncoder`, as far as the core uses it.
@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
open class JSONEncoder {
    /// `JSONEncoder.OutputFormatting`.
    public struct OutputFormatting: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        @available(macOS 10.13, iOS 11.0, watchOS 4.0, tvOS 11.0, *)
        public static let sortedKeys = OutputFormatting(rawValue: 2)
    }
    open var outputFormatting: OutputFormatting
    public init() { fatalError() }
    open func encode<T: Encodable>(_ value: T) throws -> Data { fatalError() }
}

/// `JSONDecoder`, as far as the core uses it.
@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
open class JSONDecoder {
    public init() { fatalError() }
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { fatalError() }
}
