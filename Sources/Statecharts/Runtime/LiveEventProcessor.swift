/// An event I/O processor for live machines: how the members of a ``StatechartSystem`` send events
/// to parties outside the system, such as an HTTP endpoint (SCXML 1.0, section 6.2).
///
/// Give processors to the system (``StatechartSystem/init(processors:)``). A member's
/// `scope.send(event, to: target, type: T)` then goes to the processor one of whose ``types`` is
/// `T`, as a ``ProcessorMessage``; a send with a `type` no processor of the system has, or from a
/// machine that is not a member of a system, is `error.communication` in the sender.
///
/// The system hands one sender's messages to a processor one at a time, in the order they were
/// sent: ``deliver(_:)`` for the next starts when the one before has returned. A delivery that
/// throws gives the sender `error.communication`, with the error's description as the reason, in
/// order with the events that arrive for it.
///
/// ```swift
/// nonisolated final class ReadingsOutbox: LiveEventProcessor {
///     let types = ["readings"]
///     let (messages, continuation) = AsyncStream.makeStream(of: ProcessorMessage.self)
///
///     func deliver(_ message: ProcessorMessage) async throws {
///         guard message.target == "upload-queue" else { throw OutboxError.unknownQueue(message.target) }
///         continuation.yield(message)
///     }
/// }
/// let system = StatechartSystem(processors: [ReadingsOutbox()])
/// ```
///
/// The module StatechartsHTTP's `BasicHTTPEventProcessor` is one: it POSTs a typed machine's events
/// as SCXML's Basic HTTP processor does.
public protocol LiveEventProcessor: AnyObject, Sendable {
    /// The `type` values that name the processor; the first is its URI.
    var types: [String] { get }

    /// Delivers one message. Returns once it is delivered; throws when it cannot be: the sender
    /// then gets `error.communication` with the error's description.
    func deliver(_ message: ProcessorMessage) async throws
}

/// An event a member of a ``StatechartSystem`` sends through a ``LiveEventProcessor``.
///
/// `Sendable` on purpose, though ``event`` is `Any`: a machine joins a system only with events of
/// a `Sendable` type, and the message is made of nothing else.
public struct ProcessorMessage: @unchecked Sendable {
    /// The event, a value of the sending machine's event type: `message.event as? MyEvent`.
    public let event: Any
    /// The name of the event's kind (``StatechartEvent/name(of:)``): what a processor that speaks
    /// SCXML's formats sends as the event's name.
    public let name: String
    /// Where it goes, in the processor's terms (for the Basic HTTP processor, a URL).
    public let target: String
    /// The `type` it was sent with: one of the processor's ``LiveEventProcessor/types``.
    public let type: String
    /// The id the sending machine joined the system under.
    public let sender: String
    /// The identifier the send was given (`scope.send(_:to:type:after:id:)`), if any.
    public let sendID: String?

    /// A message from its parts: what a test of a processor hands it.
    public init(
        event: some Sendable, name: String, target: String, type: String, sender: String, sendID: String? = nil
    ) {
        self.init(
            boxed: SystemEvent(value: event), name: name, target: target, type: type, sender: sender, sendID: sendID)
    }

    /// A message of an event a member sent, boxed.
    @usableFromInline
    init(boxed event: SystemEvent, name: String, target: String, type: String, sender: String, sendID: String?) {
        self.event = event.value
        self.name = name
        self.target = target
        self.type = type
        self.sender = sender
        self.sendID = sendID
    }
}

/// The messages one member sends through one processor, handed to it one at a time in the order
/// they were sent, by a task that runs while some wait. A delivery that throws is reported back to
/// the member through its mailbox.
final class ProcessorOutbox: Sendable {
    private struct Item {
        var message: ProcessorMessage
        /// The sender's `OutgoingEvent`, boxed, for its `error.communication`.
        var outgoing: SystemEvent
    }

    private struct Contents {
        var items: [Item] = []
        var head = 0
        var reading = false
    }

    private let processor: any LiveEventProcessor
    private let sender: SystemMailbox
    private let contents = Locked(Contents())

    init(processor: any LiveEventProcessor, sender: SystemMailbox) {
        self.processor = processor
        self.sender = sender
    }

    /// Queues `message`; `outgoing` is what the sender gets back in `error.communication` if it
    /// cannot be delivered.
    func post(_ message: ProcessorMessage, outgoing: SystemEvent) {
        let startReader = contents.withLock { contents in
            contents.items.append(Item(message: message, outgoing: outgoing))
            defer { contents.reading = true }
            return !contents.reading
        }
        if startReader { Task { await self.read() } }
    }

    private func read() async {
        while let item = next() {
            do {
                try await processor.deliver(item.message)
            } catch {
                sender.postUndelivered(item.outgoing, reason: "\(error)")
            }
        }
    }

    private func next() -> Item? {
        contents.withLock { contents in
            guard contents.head < contents.items.count else {
                contents.items.removeAll(keepingCapacity: true)
                contents.head = 0
                contents.reading = false
                return nil
            }
            defer { contents.head += 1 }
            return contents.items[contents.head]
        }
    }
}
