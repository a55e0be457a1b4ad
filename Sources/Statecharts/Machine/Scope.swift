/// What an action or a guard can see and do during a step.
///
/// An action receives its scope `inout`: it reads the event, changes the context, raises and
/// schedules events, and reads and changes state data. A guard receives it `borrowing`: it can
/// read everything but change nothing.
///
/// ```swift
/// On(.collect) { scope in
///     guard case .collect(let points) = scope.event else { return }
///     scope.context.score += points
///     if scope.context.score >= 100 { scope.raise(.levelUp) }
/// }
/// ```
///
/// A scope exists only while its action or guard runs, so it cannot be copied or kept.
public struct Scope<State, Event, Context>: ~Copyable {
    @usableFromInline let contextPointer: UnsafeMutablePointer<Context>
    @usableFromInline let signal: UnsafePointer<Signal<Event>>?
    /// The machine, a `StateMachine<State, Event, Context>`; only ``operations`` read it, so that a
    /// scope needs no conformance of the chart's types (they may be isolated to the main actor).
    @usableFromInline let machine: UnsafeMutableRawPointer
    @usableFromInline unowned(unsafe) let operations: ScopeOperations<State, Event, Context>

    @inlinable
    init(
        context: UnsafeMutablePointer<Context>, signal: UnsafePointer<Signal<Event>>?,
        machine: UnsafeMutableRawPointer, operations: ScopeOperations<State, Event, Context>
    ) {
        contextPointer = context
        self.signal = signal
        self.machine = machine
        self.operations = operations
    }

    // MARK: - Reading

    /// The machine's context (its extended state). Actions may change it; guards only read it.
    @inlinable
    public var context: Context {
        _read { yield contextPointer.pointee }
        _modify { yield &contextPointer.pointee }
    }

    /// The event being processed, when it is of your event type; `nil` while the machine starts
    /// and for the events the machine raises (`done.state.*`, `error.execution`, timeouts).
    @inlinable
    public var event: Event? { signal?.pointee.event }

    /// The SCXML name of the event being processed; `nil` while the machine starts and for
    /// eventless transitions.
    public var eventName: String? {
        guard let signal else { return nil }
        return operations.eventName(machine, signal)
    }

    /// For a completion (``OnDone``) transition: the ``DoneData`` of the final state that
    /// completed the state.
    public var doneData: (any Sendable)? {
        signal?.pointee.doneData
    }

    /// For a transition on `error.execution`: what the failed action or guard threw.
    public var error: (any Error)? {
        signal?.pointee.error
    }

    /// For a transition on `error.execution` or `error.communication`: the failing element, where
    /// it is written and why.
    public var failure: ExecutionFailure? {
        signal?.pointee.failure
    }

    /// The machine's time.
    public var now: Duration { .nanoseconds(operations.now(machine)) }

    /// How many timers the machine has pending: state timeouts and delayed events it sent itself.
    /// A runtime that bounds them (an SCXML session's `pendingTimers` limit) reads it before it
    /// sends another.
    public var pendingTimerCount: Int { operations.pendingTimers(machine) }

    /// Whether `state` is active (SCXML's `In()` predicate).
    public func isActive(_ state: State) -> Bool { operations.isActive(machine, state) }

    /// The data that the active state `state` holds, if it is active and holds a `Value`.
    public func data<Value>(of state: State, as type: Value.Type = Value.self) -> Value? {
        operations.readData(machine, state) as? Value
    }

    // MARK: - Acting

    /// Raises an internal event: it is processed in this macrostep, after the current microstep,
    /// before any external event (SCXML `<raise>`).
    @inlinable
    public mutating func raise(_ event: Event) {
        operations.raise(machine, event)
    }

    /// Sends an event to the machine itself, through the external queue (SCXML `<send>`).
    ///
    /// Without a delay, the event is processed after the current macrostep completes. With a delay,
    /// it is processed when the machine's time reaches the deadline, even if the state that sent it
    /// has been exited, unless it is cancelled first with ``cancel(id:)``.
    ///
    /// - Parameters:
    ///   - event: The event to send.
    ///   - delay: How long to wait; zero or more.
    ///   - id: An identifier to cancel the delayed event by.
    @inlinable
    public mutating func send(_ event: Event, after delay: Duration = .zero, id: String? = nil) {
        operations.send(machine, event, delay.clampedNanoseconds, id)
    }

    /// The index of `event`'s kind in the machine's chart (-1 for a kind the chart does not
    /// know), for ``send(_:kind:after:id:)``: a runtime that sends the same event again finds it
    /// once.
    @inlinable
    package func kindIndex(of event: Event) -> Int32 {
        operations.kindIndex(machine, event)
    }

    /// ``send(_:after:id:)`` for an event whose kind index in this machine's chart is `kind`
    /// (``kindIndex(of:)``).
    @inlinable
    package mutating func send(_ event: Event, kind: Int32, after delay: Duration, id: String?) {
        operations.sendKind(machine, event, kind, delay.clampedNanoseconds, id)
    }

    /// Sends an event outside the machine: to another machine, a parent session, a service
    /// (SCXML `<send>` with a `target`).
    ///
    /// The event leaves the machine as a ``MachineEffect/send(_:)`` after the step, and the runtime
    /// delivers it: an SCXML session routes `#_parent`, `#_INVOKEID`, `#_scxml_SESSIONID` and its
    /// event I/O processors' targets. A runtime that cannot deliver it reports `error.communication`
    /// back to the machine, with an ``ExecutionFailure`` that says why.
    ///
    /// - Parameters:
    ///   - event: The event to send.
    ///   - target: Where it goes, in the terms of `type`.
    ///   - type: Which event I/O processor delivers it; `nil` for the runtime's default.
    ///   - delay: How long the runtime waits before delivering it; zero or more.
    ///   - id: An identifier to cancel it by while it waits (``cancel(id:)``).
    ///   - file: The file the sending code is written in, for diagnostics; filled in by the compiler.
    ///   - line: The line it is written on.
    ///   - column: The column it is written at.
    public mutating func send(
        _ event: Event, to target: String, type: String? = nil, after delay: Duration = .zero, id: String? = nil,
        file: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        send(
            OutgoingEvent(
                event, target: target, type: type, delay: delay, id: id,
                location: SourcePosition(file: file, line: line, column: column)))
    }

    /// Sends an event outside the machine (see ``send(_:to:type:after:id:file:line:column:)``).
    public mutating func send(_ outgoing: OutgoingEvent<Event>) {
        operations.sendOut(machine, outgoing)
    }

    /// Raises the platform event `error.communication` on the internal queue, as an SCXML session
    /// does for a `<send>` whose target has a valid form but cannot be reached: it is processed in
    /// this macrostep, before any external event, and ``failure`` gives the element `send`, where it
    /// is written and `reason`. The action goes on.
    ///
    /// A chart that runs alone and knows that a target cannot be reached (a generated chart has no
    /// parent and no other sessions) reports it with this; a runtime that fails to deliver an event
    /// sent out reports it with ``StateMachine/reportUndelivered(_:reason:)`` instead.
    ///
    /// - Parameters:
    ///   - reason: Why the event cannot be delivered.
    ///   - location: Where the sending element is written.
    public mutating func raiseCommunicationError(_ reason: String, at location: SourcePosition? = nil) {
        operations.raiseCommunicationError(machine, ExecutionFailure(.send, location: location, reason: reason))
    }

    /// Cancels the delayed events sent with this identifier that have not been delivered yet
    /// (SCXML `<cancel>`): the machine's own, and, when the machine has sent events outside with a
    /// delay, those too (a ``MachineEffect/cancelSend(id:)`` for the runtime). Does nothing if
    /// there are none.
    public mutating func cancel(id: String) {
        operations.cancel(machine, id)
    }

    /// Writes a message: it leaves the machine as a ``MachineEffect/log(_:)``, and a live
    /// runtime passes it to its inspection hook (SCXML `<log>`).
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - label: A label for it.
    ///   - file: The file the writing code is written in; filled in by the compiler.
    ///   - line: The line it is written on.
    ///   - column: The column it is written at.
    public mutating func log(
        _ message: String, label: String? = nil, file: String = #fileID, line: Int = #line, column: Int = #column
    ) {
        log(
            MachineLog(label: label, message: message, location: SourcePosition(file: file, line: line, column: column))
        )
    }

    /// Writes a log record (see ``log(_:label:file:line:column:)``).
    public mutating func log(_ record: MachineLog) {
        operations.log(machine, record)
    }

    /// Changes the data that the active state `state` holds, and returns what `body` returns;
    /// `nil`, without calling `body`, when the state is not active or holds no `Value`.
    @discardableResult
    public mutating func updateData<Value: Sendable, Result>(
        of state: State, as type: Value.Type = Value.self, _ body: (inout Value) throws -> Result
    ) rethrows -> Result? {
        try withoutActuallyEscaping(body) { body in
            var result: Result?
            try operations.updateData(machine, state) { slot in
                guard var value = slot as? Value else { return }
                slot = nil
                defer { slot = value }
                result = try body(&value)
            }
            return result
        }
    }
}

/// What a ``Scope`` asks of its machine, made once per chart where the chart's types and their
/// conformances are known.
///
/// A scope is made inside an action or guard, a `@Sendable` closure with no isolation; when the
/// chart's types were declared in a module whose default isolation is the main actor, their
/// conformances (`Hashable`, ``StatechartEvent``) are isolated to it and cannot be named there.
/// The scope therefore names none: it calls these functions, which the chart made, specialised for
/// its types, where they were known. (The machine stays in the isolation domain that made it, since
/// such a chart is not `Sendable`.)
@usableFromInline
final class ScopeOperations<State, Event, Context>: @unchecked Sendable {
    @usableFromInline let raise: (UnsafeMutableRawPointer, Event) -> Void
    @usableFromInline let send: (UnsafeMutableRawPointer, Event, Int64, String?) -> Void
    @usableFromInline let sendKind: (UnsafeMutableRawPointer, Event, Int32, Int64, String?) -> Void
    @usableFromInline let kindIndex: (UnsafeMutableRawPointer, Event) -> Int32
    @usableFromInline let cancel: (UnsafeMutableRawPointer, String) -> Void
    @usableFromInline let sendOut: (UnsafeMutableRawPointer, OutgoingEvent<Event>) -> Void
    @usableFromInline let raiseCommunicationError: (UnsafeMutableRawPointer, ExecutionFailure) -> Void
    @usableFromInline let log: (UnsafeMutableRawPointer, MachineLog) -> Void
    @usableFromInline let isActive: (UnsafeMutableRawPointer, State) -> Bool
    @usableFromInline let now: (UnsafeMutableRawPointer) -> Int64
    @usableFromInline let pendingTimers: (UnsafeMutableRawPointer) -> Int
    @usableFromInline let eventName: (UnsafeMutableRawPointer, UnsafePointer<Signal<Event>>) -> String
    @usableFromInline let readData: (UnsafeMutableRawPointer, State) -> (any Sendable)?
    @usableFromInline let updateData:
        (UnsafeMutableRawPointer, State, (inout (any Sendable)?) throws -> Void) throws -> Void

    @usableFromInline
    init(
        raise: @escaping (UnsafeMutableRawPointer, Event) -> Void,
        send: @escaping (UnsafeMutableRawPointer, Event, Int64, String?) -> Void,
        sendKind: @escaping (UnsafeMutableRawPointer, Event, Int32, Int64, String?) -> Void,
        kindIndex: @escaping (UnsafeMutableRawPointer, Event) -> Int32,
        cancel: @escaping (UnsafeMutableRawPointer, String) -> Void,
        sendOut: @escaping (UnsafeMutableRawPointer, OutgoingEvent<Event>) -> Void,
        raiseCommunicationError: @escaping (UnsafeMutableRawPointer, ExecutionFailure) -> Void,
        log: @escaping (UnsafeMutableRawPointer, MachineLog) -> Void,
        isActive: @escaping (UnsafeMutableRawPointer, State) -> Bool,
        now: @escaping (UnsafeMutableRawPointer) -> Int64,
        pendingTimers: @escaping (UnsafeMutableRawPointer) -> Int,
        eventName: @escaping (UnsafeMutableRawPointer, UnsafePointer<Signal<Event>>) -> String,
        readData: @escaping (UnsafeMutableRawPointer, State) -> (any Sendable)?,
        updateData: @escaping (UnsafeMutableRawPointer, State, (inout (any Sendable)?) throws -> Void) throws -> Void
    ) {
        self.raise = raise
        self.send = send
        self.sendKind = sendKind
        self.kindIndex = kindIndex
        self.cancel = cancel
        self.sendOut = sendOut
        self.raiseCommunicationError = raiseCommunicationError
        self.log = log
        self.isActive = isActive
        self.now = now
        self.pendingTimers = pendingTimers
        self.eventName = eventName
        self.readData = readData
        self.updateData = updateData
    }
}

extension ScopeOperations where State: Hashable, Event: StatechartEvent, Event.Kind: Hashable {
    @usableFromInline typealias Machine = StateMachine<State, Event, Context>

    /// The operations of machines of a chart of these types. Inlined into the code that builds a
    /// chart, so that they are specialised for its types.
    @inlinable
    static func forMachines() -> ScopeOperations {
        ScopeOperations(
            // Each operation is one mutating call: a method called on `pointee` from here copies
            // the machine's references (retaining and releasing each) around the call.
            raise: { raw, event in
                raw.assumingMemoryBound(to: Machine.self).pointee.enqueueInternal(event)
            },
            send: { raw, event, delay, id in
                raw.assumingMemoryBound(to: Machine.self).pointee.schedule(event, after: delay, id: id)
            },
            sendKind: { raw, event, kind, delay, id in
                raw.assumingMemoryBound(to: Machine.self).pointee.schedule(event, kind: kind, after: delay, id: id)
            },
            kindIndex: { raw, event in
                raw.assumingMemoryBound(to: Machine.self).pointee.kindIndex(of: event)
            },
            cancel: { raw, id in
                raw.assumingMemoryBound(to: Machine.self).pointee.cancelSends(id: id)
            },
            sendOut: { raw, outgoing in
                raw.assumingMemoryBound(to: Machine.self).pointee.recordEffect(.send(outgoing))
            },
            raiseCommunicationError: { raw, failure in
                let machine = raw.assumingMemoryBound(to: Machine.self)
                machine.pointee.enqueueInternal(
                    .failure(failure, kind: machine.pointee.chart.tables.errorCommunicationKind))
            },
            log: { raw, record in
                raw.assumingMemoryBound(to: Machine.self).pointee.recordEffect(.log(record))
            },
            isActive: { raw, state in
                raw.assumingMemoryBound(to: Machine.self).pointee.isActive(state)
            },
            now: { raw in
                raw.assumingMemoryBound(to: Machine.self).pointee.currentTime()
            },
            pendingTimers: { raw in
                raw.assumingMemoryBound(to: Machine.self).pointee.extras?.timers.count ?? 0
            },
            eventName: { raw, signal in
                raw.assumingMemoryBound(to: Machine.self).pointee.name(of: signal.pointee)
            },
            readData: { raw, state in
                raw.assumingMemoryBound(to: Machine.self).pointee.dataSlotValue(of: state)
            },
            updateData: { raw, state, body in
                try raw.assumingMemoryBound(to: Machine.self).pointee.updateDataSlot(of: state, body)
            })
    }
}
