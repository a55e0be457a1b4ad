import Statecharts

import struct Foundation.Data

/// Messages of any size over a ready connection: one characteristic written, one notified.
///
/// A message is split into chunks that fit the connection's write length (``MessageChunker``)
/// and written in order: with response, one at a time, each confirmed before the next; without
/// response, as fast as the central takes them, pausing while
/// ``BluetoothCentral/canSendWriteWithoutResponse(to:)`` is false until the central reports
/// ``CentralEvent/readyToSendWriteWithoutResponse(_:)``. The other side's notifications are
/// put back together (``MessageReassembler``). A message is delivered whole or not at all: when
/// the link goes down part-way, ``send(_:)`` throws ``MessagingError/disconnected`` and what was
/// received of an incoming message is reported on ``inbox`` as failed.
///
/// The messenger of a ``BluetoothConnection`` is connected while the connection is
/// ``ConnectionState/ready``.
public final class Messenger: Sendable {
    /// A message from the peripheral.
    public struct Message: Hashable, Sendable {
        /// The peripheral's id for it; a request is answered with ``Messenger/respond(to:with:)``.
        public var id: UInt16
        /// Whether the peripheral waits for an answer.
        public var isRequest: Bool
        /// The message.
        public var payload: Data

        /// A message.
        public init(id: UInt16, isRequest: Bool, payload: Data) {
            self.id = id
            self.isRequest = isRequest
            self.payload = payload
        }
    }

    /// What arrives from the peripheral.
    public enum Inbound: Hashable, Sendable {
        /// A whole message.
        case message(Message)
        /// A message that cannot be completed, and is dropped (`messageID` is `nil` when even its
        /// id was unreadable).
        case failed(messageID: UInt16?, MessagingError)
    }

    /// Messages from the peripheral, and the ones that failed on the way.
    public let inbox: AsyncStream<Inbound>
    /// The largest message sent or accepted.
    public let maximumMessageLength: Int
    /// How long ``request(_:timeout:)`` waits by default.
    public let replyTimeout: Duration

    private let inboxContinuation: AsyncStream<Inbound>.Continuation
    private let state: Locked<MessengerState>
    private let clock: KitClock

    /// A messenger, not connected.
    ///
    /// - Parameters:
    ///   - maximumMessageLength: The largest message sent or accepted.
    ///   - replyTimeout: How long a request waits for its answer by default.
    ///   - clock: The clock reply timeouts are measured on.
    public init<C: Clock>(maximumMessageLength: Int, replyTimeout: Duration, clock: C) where C.Duration == Duration {
        self.maximumMessageLength = maximumMessageLength
        self.replyTimeout = replyTimeout
        (inbox, inboxContinuation) = AsyncStream.makeStream()
        state = Locked(MessengerState(reassembler: MessageReassembler(maximumMessageLength: maximumMessageLength)))
        self.clock = KitClock(clock)
    }

    deinit {
        // Reply timeouts asleep on a manual clock would keep it, and themselves, alive.
        state.withLock { state in
            for request in state.pendingRequests.values { request.timer?.cancel() }
        }
        inboxContinuation.finish()
    }

    /// Whether a link is up.
    public var isConnected: Bool { state.withLock { $0.link != nil } }

    /// How many requests wait for an answer.
    public var pendingRequestCount: Int { state.withLock { $0.pendingRequests.count } }

    // MARK: - Sending

    /// Sends a message and returns once every chunk of it was written.
    ///
    /// - Throws: ``MessagingError/notConnected``, ``MessagingError/tooLarge(size:limit:)``,
    ///   ``MessagingError/disconnected`` when the link goes down part-way, or
    ///   ``MessagingError/writeFailed(_:)``.
    public func send(_ message: Data) async throws(MessagingError) {
        try await write(message, kind: .message, replyTo: nil).get()
    }

    /// Sends a request and returns the peripheral's answer.
    ///
    /// Requests may overlap; each answer is matched to its request by id, in whatever order the
    /// answers come.
    ///
    /// - Parameters:
    ///   - message: The request.
    ///   - timeout: How long to wait for the answer once the request is sent; ``replyTimeout``
    ///     by default.
    /// - Throws: What ``send(_:)`` throws, ``MessagingError/timedOut(requestID:)``,
    ///   ``MessagingError/disconnected`` when the link goes down before the answer is whole, or
    ///   ``MessagingError/cancelled`` when the calling task is cancelled.
    public func request(_ message: Data, timeout: Duration? = nil) async throws(MessagingError) -> Data {
        let timeout = timeout ?? replyTimeout
        // The request's id, once it has one, for a cancellation to name.
        let requestID = Locked<UInt16?>(nil)
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, MessagingError>, Never>) in
                self.start(message, timeout: timeout, continuation: continuation, requestID: requestID)
            }
        } onCancel: {
            if let id = requestID.withLock({ $0 }) { self.finishRequest(id, with: .failure(.cancelled)) }
        }.get()
    }

    /// Registers a request, writes it and arms its timeout.
    private func start(
        _ message: Data, timeout: Duration, continuation: CheckedContinuation<Result<Data, MessagingError>, Never>,
        requestID: Locked<UInt16?>
    ) {
        let allocated: Result<UInt16, MessagingError> = state.withLock { state in
            guard state.link != nil else { return .failure(.notConnected) }
            return Result { () throws(MessagingError) in try state.allocateRequestID() }.map { id in
                state.pendingRequests[id] = PendingRequest(continuation: continuation)
                return id
            }
        }
        guard case .success(let id) = allocated else {
            if case .failure(let error) = allocated { continuation.resume(returning: .failure(error)) }
            return
        }
        requestID.withLock { $0 = id }
        // Cancelled before the id was known: the handler could not name it.
        if Task.isCancelled {
            finishRequest(id, with: .failure(.cancelled))
            return
        }
        Task {
            if case .failure(let error) = await self.write(message, kind: .request, id: id, replyTo: nil) {
                self.finishRequest(id, with: .failure(error))
                return
            }
            // Weak, so that a messenger released while a timeout waits on its clock is freed.
            let wait = self.clock.deadline(timeout)
            let timer = Task { [weak self] in
                guard (try? await wait()) != nil, let self else { return }
                self.finishRequest(id, with: .failure(.timedOut(requestID: id)))
            }
            let stillWaiting = self.state.withLock { state in
                guard state.pendingRequests[id] != nil else { return false }
                state.pendingRequests[id]?.timer = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
        }
    }

    /// Answers a request from the peripheral.
    ///
    /// - Throws: What ``send(_:)`` throws.
    public func respond(to request: Message, with answer: Data) async throws(MessagingError) {
        try await write(answer, kind: .response, replyTo: request.id).get()
    }

    private func write(
        _ message: Data, kind: MessageFrame.Kind, id: UInt16? = nil, replyTo: UInt16?
    ) async -> Result<Void, MessagingError> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, MessagingError>, Never>) in
            let queued: Result<Bool, MessagingError> = state.withLock { state in
                guard let link = state.link else { return .failure(.notConnected) }
                let id = id ?? state.allocateMessageID()
                return Result { () throws(MessagingError) in
                    try link.chunker.chunks(of: message, kind: kind, id: id, replyTo: replyTo)
                }.map { chunks in
                    state.outgoing.append(OutgoingMessage(id: id, chunks: chunks, completion: continuation))
                    return state.requestPump()
                }
            }
            switch queued {
            case .success(let mustPump): if mustPump { pump() }
            case .failure(let error): continuation.resume(returning: .failure(error))
            }
        }
    }

    /// Writes what can be written now. One caller pumps at a time; a caller that finds another
    /// pumping leaves a wake-up for it, so no chance to write is lost.
    private func pump() {
        while true {
            let (link, hasChunk): (Link?, Bool) = state.withLock { state in
                state.wake = false
                return (state.link, state.hasChunkToWrite)
            }
            if let link, hasChunk {
                switch link.type {
                case .withResponse:
                    if let write = state.withLock({ $0.takeConfirmedChunk() }) { write.perform() }
                case .withoutResponse:
                    // Only the pump writes, so what the central says stays true until it writes.
                    while link.central.canSendWriteWithoutResponse(to: link.peripheral),
                        let (write, finished) = state.withLock({ $0.takeUnconfirmedChunk() })
                    {
                        write.perform()
                        finished?.completion?.resume(returning: .success(()))
                    }
                }
            }
            let again = state.withLock { state in
                if state.wake { return true }
                state.pumping = false
                return false
            }
            if !again { return }
        }
    }

    // MARK: - What the connection tells it

    /// The link is up: messages can be written to `characteristic`, with writes of `type` as
    /// long as the central allows.
    func linkUp(
        central: any BluetoothCentral, peripheral: PeripheralID, characteristic: CharacteristicID, type: WriteType
    ) {
        let length = central.maximumWriteValueLength(for: peripheral, type: type)
        let chunker: MessageChunker
        do {
            chunker = try MessageChunker(chunkLength: length, maximumMessageLength: maximumMessageLength)
        } catch {
            inboxContinuation.yield(.failed(messageID: nil, error))
            return
        }
        state.withLock { state in
            state.link = Link(
                central: central, peripheral: peripheral, characteristic: characteristic, type: type, chunker: chunker)
        }
    }

    /// How the messenger writes on the link, while one is up.
    public var writeType: WriteType? { state.withLock { $0.link?.type } }

    /// The link went down: every message part-way fails.
    func linkDown() {
        let (outgoing, requests, partial) = state.withLock { state in
            state.link = nil
            state.writeInFlight = false
            state.wake = false
            let outgoing = state.outgoing
            state.outgoing.removeAll()
            let requests = state.pendingRequests
            state.pendingRequests.removeAll()
            return (outgoing, requests, state.reassembler.reset())
        }
        for message in outgoing { message.completion?.resume(returning: .failure(.disconnected)) }
        for (_, request) in requests {
            request.timer?.cancel()
            request.continuation.resume(returning: .failure(.disconnected))
        }
        for id in partial { inboxContinuation.yield(.failed(messageID: id, .disconnected)) }
    }

    /// `peripheral` takes writes without response again.
    func peripheralIsReady(_ peripheral: PeripheralID) {
        let mustPump = state.withLock { state in
            state.link?.peripheral == peripheral && state.link?.type == .withoutResponse ? state.requestPump() : false
        }
        if mustPump { pump() }
    }

    /// A write with response to `peripheral` finished.
    func didWrite(error: BluetoothError?, from peripheral: PeripheralID) {
        let (finished, mustPump): (OutgoingMessage?, Bool) = state.withLock { state in
            guard state.link?.peripheral == peripheral, state.link?.type == .withResponse, state.writeInFlight else {
                return (nil, false)
            }
            state.writeInFlight = false
            guard !state.outgoing.isEmpty else { return (nil, state.requestPump()) }
            if let error {
                let failed = state.outgoing.removeFirst()
                // Tell the peripheral to drop what it has of the message.
                if failed.chunks.count > 1 {
                    state.outgoing.insert(
                        OutgoingMessage(id: failed.id, chunks: [MessageChunker.abort(id: failed.id)], completion: nil),
                        at: 0)
                }
                var message = failed
                message.error = .writeFailed(error.description)
                return (message, state.requestPump())
            }
            if state.outgoing[0].sent == state.outgoing[0].chunks.count {
                return (state.outgoing.removeFirst(), state.requestPump())
            }
            return (nil, state.requestPump())
        }
        if let finished {
            finished.completion?.resume(returning: finished.error.map { .failure($0) } ?? .success(()))
        }
        if mustPump { pump() }
    }

    /// A chunk arrived from `peripheral`; one from a peripheral the messenger is not linked to
    /// is dropped.
    func didReceive(_ chunk: Data, from peripheral: PeripheralID) {
        let outcomes = state.withLock { state in
            state.link?.peripheral == peripheral ? state.reassembler.receive(chunk) : []
        }
        for outcome in outcomes {
            switch outcome {
            case .message(let message):
                switch message.kind {
                case .response:
                    finishRequest(message.replyTo ?? 0, with: .success(message.payload))
                case .request, .message, .abort:
                    inboxContinuation.yield(
                        .message(Message(id: message.id, isRequest: message.kind == .request, payload: message.payload))
                    )
                }
            case .failed(let id, let error):
                inboxContinuation.yield(.failed(messageID: id, error))
            }
        }
    }

    private func finishRequest(_ id: UInt16, with result: Result<Data, MessagingError>) {
        guard let request = state.withLock({ $0.pendingRequests.removeValue(forKey: id) }) else { return }
        request.timer?.cancel()
        request.continuation.resume(returning: result)
    }
}

/// A write the messenger makes outside its lock.
struct PendingWrite {
    var central: any BluetoothCentral
    var peripheral: PeripheralID
    var characteristic: CharacteristicID
    var type: WriteType
    var chunk: Data

    func perform() { central.writeValue(chunk, to: characteristic, of: peripheral, type: type) }
}

struct Link {
    var central: any BluetoothCentral
    var peripheral: PeripheralID
    var characteristic: CharacteristicID
    var type: WriteType
    var chunker: MessageChunker
}

struct OutgoingMessage {
    var id: UInt16
    var chunks: [Data]
    var sent = 0
    var completion: CheckedContinuation<Result<Void, MessagingError>, Never>?
    var error: MessagingError?
}

struct PendingRequest {
    var continuation: CheckedContinuation<Result<Data, MessagingError>, Never>
    var timer: Task<Void, Never>?
}

struct MessengerState: ~Copyable {
    var link: Link?
    var reassembler: MessageReassembler
    var outgoing: [OutgoingMessage] = []
    /// Whether a write with response waits for its confirmation.
    var writeInFlight = false
    /// Whether a caller is writing what can be written.
    var pumping = false
    /// Whether something happened that may let more be written since the pump last looked.
    var wake = false
    var pendingRequests: [UInt16: PendingRequest] = [:]
    var lastMessageID: UInt16 = 0

    init(reassembler: MessageReassembler) { self.reassembler = reassembler }

    mutating func allocateMessageID() -> UInt16 {
        lastMessageID &+= 1
        return lastMessageID
    }

    /// An id no waiting request uses.
    mutating func allocateRequestID() throws(MessagingError) -> UInt16 {
        guard pendingRequests.count < Int(UInt16.max) else { throw .tooManyRequests }
        repeat { lastMessageID &+= 1 } while pendingRequests[lastMessageID] != nil
        return lastMessageID
    }

    /// Notes that more may be written; returns whether the caller is to pump (no one else is).
    mutating func requestPump() -> Bool {
        wake = true
        guard !pumping else { return false }
        pumping = true
        return true
    }

    /// Whether a chunk waits to be written.
    var hasChunkToWrite: Bool { link != nil && !outgoing.isEmpty && outgoing[0].sent < outgoing[0].chunks.count }

    /// The next chunk to write with response, if none is in flight; marks it sent.
    mutating func takeConfirmedChunk() -> PendingWrite? {
        guard !writeInFlight, hasChunkToWrite, let link else { return nil }
        let chunk = outgoing[0].chunks[outgoing[0].sent]
        outgoing[0].sent += 1
        writeInFlight = true
        return PendingWrite(
            central: link.central, peripheral: link.peripheral, characteristic: link.characteristic,
            type: .withResponse,
            chunk: chunk)
    }

    /// The next chunk to write without response, and the message it finishes, if it is the last.
    mutating func takeUnconfirmedChunk() -> (PendingWrite, OutgoingMessage?)? {
        guard hasChunkToWrite, let link else { return nil }
        let chunk = outgoing[0].chunks[outgoing[0].sent]
        outgoing[0].sent += 1
        let write = PendingWrite(
            central: link.central, peripheral: link.peripheral, characteristic: link.characteristic,
            type: .withoutResponse, chunk: chunk)
        let finished = outgoing[0].sent == outgoing[0].chunks.count ? outgoing.removeFirst() : nil
        return (write, finished)
    }
}
