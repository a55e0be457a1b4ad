/// Something a step asks for that the pure machine does not do itself: the one channel through
/// which effects leave a ``StateMachine``.
///
/// A machine never starts work, talks to other machines or writes logs. It records what its steps
/// asked for, in order, and a runtime takes the records after each call that processes events
/// (``StateMachine/takeEffects()``) and routes each through an ``EffectRouter``, whose
/// ``EffectRouter/route(_:)`` is the one place a kind of effect is dispatched:
/// ``StatechartActor`` and ``IsolatedStatechart`` run invocations as tasks, deliver sends to their
/// parent, children and system, and report logs to their inspection hook; an SCXML session starts
/// child sessions and delivers events between sessions and over its event I/O processors. What comes back
/// comes back as events: ``StateMachine/deliver(_:from:)`` for an invocation's outcome, ``StateMachine/send(_:)``
/// for a reply, ``StateMachine/reportUndelivered(_:reason:)`` for an event that could not be sent.
///
/// A machine's own timers (state timeouts and events it sends itself with a delay) are part of its
/// state, not effects: they are archived with it and fire as its time advances.
public enum MachineEffect<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    /// Start this invocation: run its work, or, for an invocation a chart only describes (such as
    /// SCXML's `<invoke>`), start what its ``InvocationStart/descriptor`` describes.
    case startInvocation(InvocationStart<State, Event, Context>)
    /// Stop the invocation with this identifier: its state was exited. Whatever it reports later is
    /// dropped.
    case cancelInvocation(InvocationID)
    /// Deliver an event outside the machine (``Scope/send(_:to:type:after:id:file:line:column:)``).
    case send(OutgoingEvent<Event>)
    /// Drop the events sent outside with this identifier that have not been delivered yet
    /// (``Scope/cancel(id:)`` after a delayed ``send(_:)``).
    case cancelSend(id: String)
    /// Write a message (``Scope/log(_:label:file:line:column:)``).
    case log(MachineLog)
}

/// An event a machine sends to someone else: another machine, a parent session, a service.
public struct OutgoingEvent<Event> {
    /// The event.
    public var event: Event
    /// Where it goes, in the terms of ``type``: for SCXML's processor `#_parent`, `#_INVOKEID`,
    /// `#_scxml_SESSIONID`; for its HTTP processor a URL.
    public var target: String
    /// Which event I/O processor delivers it; `nil` for the runtime's default.
    public var type: String?
    /// How long to wait before delivering it.
    public var delay: Duration
    /// An identifier to cancel it by while it waits (``MachineEffect/cancelSend(id:)``).
    public var id: String?
    /// Where the sending element is written, for diagnostics.
    public var location: SourcePosition?

    /// An outgoing event from its parts.
    public init(
        _ event: Event, target: String, type: String? = nil, delay: Duration = .zero, id: String? = nil,
        location: SourcePosition? = nil
    ) {
        self.event = event
        self.target = target
        self.type = type
        self.delay = delay
        self.id = id
        self.location = location
    }
}

/// A message an action wrote (SCXML's `<log>`).
public struct MachineLog: Sendable, Hashable, CustomStringConvertible {
    /// A label, such as SCXML's `label` attribute.
    public var label: String?
    /// The message.
    public var message: String
    /// Where the writing element is written.
    public var location: SourcePosition?

    /// A log record from its parts.
    public init(label: String? = nil, message: String, location: SourcePosition? = nil) {
        self.label = label
        self.message = message
        self.location = location
    }

    /// `label: message`, or the message alone.
    public var description: String { label.map { "\($0): \(message)" } ?? message }
}

extension MachineEffect: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension OutgoingEvent {
    /// Whether `type` names SCXML's own event I/O processor, the default (SCXML 1.0, section C.1):
    /// a send with it goes where one without a type goes.
    package static func isSCXMLProcessor(_ type: String) -> Bool {
        type == "http://www.w3.org/TR/scxml/#SCXMLEventProcessor" || type == "scxml"
    }
}

extension OutgoingEvent: Sendable where Event: Sendable {}

extension OutgoingEvent: Equatable where Event: Equatable {}

extension OutgoingEvent: Hashable where Event: Hashable {}
