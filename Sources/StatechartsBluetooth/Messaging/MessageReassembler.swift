import struct Foundation.Data

/// Puts messages back together from their chunks, several at a time.
///
/// A message is delivered whole or not at all: a gap in its sequence numbers, an abort from the
/// sender, or ``reset()`` (the connection went down) drops what was gathered of it, and says so.
public struct MessageReassembler: Sendable {
    /// A message put back together.
    public struct Message: Hashable, Sendable {
        /// What the message is for.
        public var kind: MessageFrame.Kind
        /// The sender's id for it.
        public var id: UInt16
        /// For a response, the request it answers.
        public var replyTo: UInt16?
        /// The message.
        public var payload: Data
    }

    /// What a chunk completed or broke.
    public enum Outcome: Hashable, Sendable {
        /// The chunk completed a message.
        case message(Message)
        /// The chunk showed that message `id` cannot be completed, and what was gathered of it is
        /// dropped; `id` is `nil` when the chunk itself is unreadable.
        case failed(id: UInt16?, MessagingError)
    }

    private struct Partial: Sendable {
        var kind: MessageFrame.Kind
        var replyTo: UInt16?
        var expectedLength: Int
        var nextSequence: UInt32
        var payload: Data
    }

    /// The largest message accepted.
    public let maximumMessageLength: Int
    private var partials: [UInt16: Partial] = [:]
    /// Messages dropped part-way, whose later chunks are ignored quietly until the id is reused.
    private var dropped: Set<UInt16> = []

    /// A reassembler that refuses messages over `maximumMessageLength` bytes.
    public init(maximumMessageLength: Int) {
        self.maximumMessageLength = maximumMessageLength
    }

    /// How many messages are part-way.
    public var pendingCount: Int { partials.count }

    /// Takes one chunk and returns what it completed or broke: nothing while its message is
    /// part-way.
    public mutating func receive(_ bytes: Data) -> [Outcome] {
        let frame: MessageFrame
        do {
            frame = try MessageFrame(decoding: bytes)
        } catch {
            return [.failed(id: nil, error)]
        }
        let id = frame.messageID
        if frame.kind == .abort {
            return partials.removeValue(forKey: id) == nil ? [] : [.failed(id: id, .abortedBySender(messageID: id))]
        }
        guard frame.sequence == 0 else { return continuing(id: id, with: frame).map { [$0] } ?? [] }
        // A new message: one left part-way under the same id lost its end.
        var outcomes: [Outcome] = []
        if let lost = partials.removeValue(forKey: id) {
            outcomes.append(.failed(id: id, .lostChunk(messageID: id, expected: lost.nextSequence, received: 0)))
        }
        let announced = Int(frame.totalLength ?? 0)
        guard announced <= maximumMessageLength else {
            dropped.insert(id)
            return outcomes + [.failed(id: id, .tooLarge(size: announced, limit: maximumMessageLength))]
        }
        dropped.remove(id)
        var payload = Data()
        payload.reserveCapacity(min(announced, 1 << 20))
        payload.append(frame.payload)
        let partial = Partial(
            kind: frame.kind, replyTo: frame.replyTo, expectedLength: announced, nextSequence: 1, payload: payload)
        if let outcome = finish(partial, id: id, isLast: frame.isLast) { outcomes.append(outcome) }
        return outcomes
    }

    private mutating func continuing(id: UInt16, with frame: MessageFrame) -> Outcome? {
        guard var partial = partials.removeValue(forKey: id) else {
            // The rest of a message refused or failed already says nothing new.
            if dropped.contains(id) { return nil }
            dropped.insert(id)
            return .failed(id: id, .lostChunk(messageID: id, expected: 0, received: frame.sequence))
        }
        guard frame.sequence == partial.nextSequence else {
            dropped.insert(id)
            return .failed(id: id, .lostChunk(messageID: id, expected: partial.nextSequence, received: frame.sequence))
        }
        let received = partial.payload.count + frame.payload.count
        guard received <= partial.expectedLength else {
            dropped.insert(id)
            return .failed(
                id: id, .lengthMismatch(messageID: id, announced: partial.expectedLength, received: received))
        }
        partial.payload.append(frame.payload)
        partial.nextSequence += 1
        return finish(partial, id: id, isLast: frame.isLast)
    }

    private mutating func finish(_ partial: Partial, id: UInt16, isLast: Bool) -> Outcome? {
        guard isLast else {
            partials[id] = partial
            return nil
        }
        guard partial.payload.count == partial.expectedLength else {
            return .failed(
                id: id,
                .lengthMismatch(messageID: id, announced: partial.expectedLength, received: partial.payload.count))
        }
        return .message(Message(kind: partial.kind, id: id, replyTo: partial.replyTo, payload: partial.payload))
    }

    /// Drops every message part-way (the connection went down) and returns their ids.
    public mutating func reset() -> [UInt16] {
        defer {
            partials.removeAll()
            dropped.removeAll()
        }
        return partials.keys.sorted()
    }
}
