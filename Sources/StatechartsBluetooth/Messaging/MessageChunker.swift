import struct Foundation.Data

/// Splits messages into chunks that fit a connection's write length.
public struct MessageChunker: Sendable {
    /// The most bytes one write or notification carries.
    public let chunkLength: Int
    /// The largest message accepted.
    public let maximumMessageLength: Int

    /// A chunker for writes of `chunkLength` bytes.
    ///
    /// - Throws: ``MessagingError/chunkLengthTooSmall(length:minimum:)`` when a chunk of that
    ///   length cannot hold its headers and a byte of payload.
    public init(chunkLength: Int, maximumMessageLength: Int) throws(MessagingError) {
        guard chunkLength >= MessageFrame.minimumChunkLength else {
            throw .chunkLengthTooSmall(length: chunkLength, minimum: MessageFrame.minimumChunkLength)
        }
        self.chunkLength = chunkLength
        self.maximumMessageLength = maximumMessageLength
    }

    /// The chunks of one message, in order, encoded.
    ///
    /// An empty message is one chunk with no payload.
    ///
    /// - Throws: ``MessagingError/tooLarge(size:limit:)`` over ``maximumMessageLength``.
    public func chunks(
        of message: Data, kind: MessageFrame.Kind, id: UInt16, replyTo: UInt16? = nil
    ) throws(MessagingError) -> [Data] {
        guard message.count <= maximumMessageLength else {
            throw .tooLarge(size: message.count, limit: maximumMessageLength)
        }
        var chunks: [Data] = []
        var offset = message.startIndex
        var sequence: UInt32 = 0
        repeat {
            let header = MessageFrame.headerLength + (sequence == 0 ? MessageFrame.firstChunkExtra(for: kind) : 0)
            let end = min(message.endIndex, offset + (chunkLength - header))
            let frame = MessageFrame(
                kind: kind, messageID: id, sequence: sequence, isLast: end == message.endIndex,
                totalLength: sequence == 0 ? UInt32(message.count) : nil, replyTo: sequence == 0 ? replyTo : nil,
                payload: message[offset..<end])
            chunks.append(frame.encoded)
            offset = end
            sequence += 1
        } while offset < message.endIndex
        return chunks
    }

    /// The single chunk that tells the receiver to drop message `id`.
    public static func abort(id: UInt16) -> Data {
        MessageFrame(kind: .abort, messageID: id, sequence: 1, isLast: true, payload: Data()).encoded
    }
}
