// A stand-in for the part of Foundation the core library uses (StateDataCodec), with Apple's
// signatures and availability: what Scripts/availability.sh type-checks the core against for
// Apple targets, where the real Foundation is not on this machine. Declarations only.

/// `Data`, as far as the core uses it.
@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
public struct Data: Sendable, Collection {
    /// Bytes from a sequence.
    public init<S: Sequence>(_ elements: S) where S.Element == UInt8 { fatalError() }
    /// The first byte's index.
    public var startIndex: Int { fatalError() }
    /// The index past the last byte.
    public var endIndex: Int { fatalError() }
    /// The byte at `position`.
    public subscript(position: Int) -> UInt8 { fatalError() }
    /// The index after `index`.
    public func index(after index: Int) -> Int { fatalError() }
}

/// `JSONEncoder`, as far as the core uses it.
@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
open class JSONEncoder {
    /// `JSONEncoder.OutputFormatting`.
    public struct OutputFormatting: OptionSet, Sendable {
        /// The options' bits.
        public let rawValue: UInt
        /// Options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Keys in lexicographic order.
        @available(macOS 10.13, iOS 11.0, watchOS 4.0, tvOS 11.0, *)
        public static let sortedKeys = OutputFormatting(rawValue: 2)
    }
    /// How the output is laid out.
    open var outputFormatting: OutputFormatting
    /// An encoder with the default options.
    public init() { fatalError() }
    /// The JSON of `value`.
    open func encode<T: Encodable>(_ value: T) throws -> Data { fatalError() }
}

/// `JSONDecoder`, as far as the core uses it.
@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
open class JSONDecoder {
    /// A decoder with the default options.
    public init() { fatalError() }
    /// A value of `type` from JSON.
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { fatalError() }
}
