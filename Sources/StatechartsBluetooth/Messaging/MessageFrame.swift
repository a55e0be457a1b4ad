import struct Foundation.Data

/// One chunk of a message on the wire: what fits in one write or one notification.
///
/// Every chunk starts with a 7-byte header: flags (1 byte), the message id (2 bytes, big-endian)
/// and the chunk's sequence number within its message (4 bytes, big-endian). The first chunk of
/// a message then carries the message's total length (4 bytes) and, for a response, the id of
/// the request it answers (2 bytes). The rest is payload.
///
/// Sequence numbers let the receiver reassemble a message whose chunks arrive interleaved with
/// other messages' chunks, and notice a lost chunk; the total length lets it refuse a message
/// larger than it accepts before buffering it.
public struct MessageFrame: Hashable, Sendable {
    /// What a message is for.
    public enum Kind: UInt8, Hashable, Sendable, Codable {
        /// A message that expects no answer.
        case message = 0
        /// A request: the other side answers with a ``response``.
        case request = 1
        /// The answer to a request.
        case response = 2
        /// The sender gave the message up (a failed write): the receiver drops what it has of it.
        case abort = 3
    }

    /// The kind of the message this chunk belongs to.
    public var kind: Kind
    /// The message's id, chosen by its sender.
    public var messageID: UInt16
    /// The chunk's place in its message, from 0.
    public var sequence: UInt32
    /// Whether this is the last chunk of its message.
    public var isLast: Bool
    /// The message's total payload length: on the first chunk (`sequence == 0`) only.
    public var totalLength: UInt32?
    /// For a response, the id of the request it answers: on the first chunk only.
    public var replyTo: UInt16?
    /// The chunk's share of the message.
    public var payload: Data

    /// The size of every chunk's header.
    public static let headerLength = 7
    /// The extra header of a first chunk: total length, and for a response the request's id.
    public static func firstChunkExtra(for kind: Kind) -> Int { kind == .response ? 6 : 4 }
    /// The smallest chunk length the format works with: a first chunk's headers and one byte.
    public static let minimumChunkLength = headerLength + 6 + 1

    /// A chunk.
    public init(
        kind: Kind, messageID: UInt16, sequence: UInt32, isLast: Bool, totalLength: UInt32? = nil,
        replyTo: UInt16? = nil, payload: Data
    ) {
        self.kind = kind
        self.messageID = messageID
        self.sequence = sequence
        self.isLast = isLast
        self.totalLength = totalLength
        self.replyTo = replyTo
        self.payload = payload
    }

    private static let lastFlag: UInt8 = 0x80
    private static let kindMask: UInt8 = 0x03

    /// The chunk's bytes.
    public var encoded: Data {
        var bytes = Data()
        bytes.reserveCapacity(Self.headerLength + 6 + payload.count)
        bytes.append(kind.rawValue | (isLast ? Self.lastFlag : 0))
        bytes.appendBigEndian(messageID)
        bytes.appendBigEndian(sequence)
        if sequence == 0 {
            bytes.appendBigEndian(totalLength ?? UInt32(clamping: payload.count))
            if kind == .response { bytes.appendBigEndian(replyTo ?? 0) }
        }
        bytes.append(payload)
        return bytes
    }

    /// Reads a chunk.
    ///
    /// - Throws: ``MessagingError/malformedChunk(_:)`` when the bytes are too short for their
    ///   header, or the flags are not a known kind.
    public init(decoding bytes: Data) throws(MessagingError) {
        var reader = ByteReader(bytes)
        guard let flags = reader.byte(), let id = reader.uint16(), let sequence = reader.uint32() else {
            throw .malformedChunk(
                "a chunk of \(bytes.count) bytes is shorter than its \(Self.headerLength)-byte header")
        }
        guard flags & ~(Self.lastFlag | Self.kindMask) == 0, let kind = Kind(rawValue: flags & Self.kindMask) else {
            throw .malformedChunk("unknown flags 0x\(String(flags, radix: 16))")
        }
        self.kind = kind
        self.messageID = id
        self.sequence = sequence
        self.isLast = flags & Self.lastFlag != 0
        if sequence == 0 {
            guard let total = reader.uint32() else {
                throw .malformedChunk("the first chunk of message \(id) has no length")
            }
            totalLength = total
            if kind == .response {
                guard let request = reader.uint16() else {
                    throw .malformedChunk("the response \(id) does not name its request")
                }
                replyTo = request
            } else {
                replyTo = nil
            }
        } else {
            totalLength = nil
            replyTo = nil
        }
        payload = reader.rest()
    }
}

/// Reads big-endian integers from the front of some bytes.
private struct ByteReader {
    let bytes: Data
    var offset: Data.Index

    init(_ bytes: Data) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    mutating func byte() -> UInt8? {
        guard offset < bytes.endIndex else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() -> UInt16? {
        guard let high = byte(), let low = byte() else { return nil }
        return UInt16(high) << 8 | UInt16(low)
    }

    mutating func uint32() -> UInt32? {
        guard let high = uint16(), let low = uint16() else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    func rest() -> Data { Data(bytes[offset...]) }
}

extension Data {
    fileprivate mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
