/// Why a message could not be sent, received or answered.
public enum MessagingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no ready connection to send on.
    case notConnected
    /// The connection went down before the whole message was written or read: nothing of it is
    /// delivered.
    case disconnected
    /// The message is larger than the limit.
    case tooLarge(size: Int, limit: Int)
    /// The connection's write length cannot hold a chunk's headers and a byte of payload.
    case chunkLengthTooSmall(length: Int, minimum: Int)
    /// No answer to a request came within its timeout.
    case timedOut(requestID: UInt16)
    /// A write to the peripheral failed.
    case writeFailed(String)
    /// A chunk of the message went missing: the chunk expected, and the one that arrived.
    case lostChunk(messageID: UInt16, expected: UInt32, received: UInt32)
    /// The sender gave the message up part-way.
    case abortedBySender(messageID: UInt16)
    /// Bytes that are not a chunk of this format.
    case malformedChunk(String)
    /// The message's chunks do not add up to the length it announced.
    case lengthMismatch(messageID: UInt16, announced: Int, received: Int)
    /// Too many requests are waiting for answers: every id is in use.
    case tooManyRequests
    /// The task waiting for an answer was cancelled.
    case cancelled

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case .notConnected: "not connected"
        case .disconnected: "the connection went down mid-message"
        case .tooLarge(let size, let limit): "a message of \(size) bytes is over the limit of \(limit) bytes"
        case .chunkLengthTooSmall(let length, let minimum):
            "a write length of \(length) bytes is under the \(minimum) bytes a chunk needs"
        case .timedOut(let id): "no answer to request \(id) in time"
        case .writeFailed(let reason): "a write failed: \(reason)"
        case .lostChunk(let id, let expected, let received):
            "message \(id) lost chunk \(expected) (chunk \(received) came next)"
        case .abortedBySender(let id): "the sender gave message \(id) up"
        case .malformedChunk(let reason): "malformed chunk: \(reason)"
        case .lengthMismatch(let id, let announced, let received):
            "message \(id) announced \(announced) bytes and carried \(received)"
        case .tooManyRequests: "every request id is waiting for an answer"
        case .cancelled: "the request was cancelled"
        }
    }
}
