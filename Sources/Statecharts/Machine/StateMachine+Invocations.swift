extension StateMachine {
    // MARK: - Invocations (the pure side)

    /// SCXML's `statesToInvoke` step, when the machine is stable: starts the invocations of the
    /// states entered since, that are still active.
    ///
    /// A described invocation's `describe` closure runs first; one that throws raises
    /// `error.execution` and the invocation does not start.
    @usableFromInline
    mutating func startInvocations() {
        let states = mutableAnnex().statesToInvoke
        mutableAnnex().statesToInvoke.removeAll(keepingCapacity: true)
        for state in states where active.contains(Int(state)) {
            let first = Int(chart.invocationOffsets[Int(state)])
            let end = Int(chart.invocationOffsets[Int(state) + 1])
            for definition in first..<end {
                let id = mutableAnnex().nextInvocation
                mutableAnnex().nextInvocation &+= 1
                var descriptor: (any Sendable)?
                if let describe = chart.invocations[definition].describe {
                    switch describeInvocation(describe, id: id) {
                    case .success(let described):
                        descriptor = described
                    case .failure(let error):
                        enqueueInternal(
                            .failure(
                                invocationFailure(error, definition: definition, state: Int(state)),
                                kind: chart.tables.errorExecutionKind))
                        continue
                    }
                }
                let invocation = LiveInvocation(id: id, state: state, definition: Int32(definition))
                mutableAnnex().liveInvocations.append(invocation)
                mutableAnnex().effects.append(.start(invocation, context: storedContext, descriptor: descriptor))
            }
        }
    }

    /// Runs a described invocation's `describe` closure.
    mutating func describeInvocation(
        _ describe: InvocationDescriber<State, Event, Context>, id: UInt64
    ) -> Result<any Sendable, any Error> {
        withScope(signal: nil) { scope in
            do {
                return .success(try describe(&scope, InvocationID(rawValue: id)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The facts of an invocation that failed: the ``Invoke`` element and where it is written.
    func invocationFailure(_ error: any Error, definition: Int, state: Int) -> ExecutionFailure {
        if let failure = error as? ExecutionFailure { return failure }
        return ExecutionFailure(
            .invoke, state: chart.stateNames[state], location: chart.invocations[definition].location,
            reason: ExecutionFailure.reason(for: error), error: error)
    }

    /// Runs the `beforeExternalEvent` hooks of the running invocations, oldest first, for the
    /// external event `signal`.
    @usableFromInline
    mutating func runExternalEventHooks(for signal: Signal<Event>) {
        guard let invocations = extras?.annex?.liveInvocations, !invocations.isEmpty else { return }
        withUnsafePointer(to: signal) { pointer in
            for invocation in invocations {
                let definition = Int(invocation.definition)
                guard let hook = chart.invocations[definition].beforeExternalEvent,
                    let error = runInvocationHook(hook, id: invocation.id, signal: pointer)
                else { continue }
                enqueueInternal(
                    .failure(
                        invocationFailure(error, definition: definition, state: Int(invocation.state)),
                        kind: chart.tables.errorExecutionKind))
            }
        }
    }

    /// Runs one invocation hook; returns what it threw.
    mutating func runInvocationHook(
        _ hook: InvocationHook<State, Event, Context>, id: UInt64, signal: UnsafePointer<Signal<Event>>?
    ) -> (any Error)? {
        withScope(signal: signal) { scope in
            do {
                try hook(&scope, InvocationID(rawValue: id))
                return nil
            } catch {
                return error
            }
        }
    }

    /// Cancels the invocations of a state being exited, and forgets it if it was waiting to start
    /// them.
    @usableFromInline
    mutating func cancelInvocations(of state: Int) {
        guard extras?.annex != nil else { return }
        let records = mutableAnnex()
        records.statesToInvoke.removeAll { Int($0) == state }
        for invocation in records.liveInvocations where Int(invocation.state) == state {
            records.effects.append(.cancel(invocation.id))
        }
        records.liveInvocations.removeAll { Int($0.state) == state }
    }

    // MARK: - Effects

    /// Records an effect for the runtime (see ``MachineEffect``).
    @usableFromInline
    mutating func recordEffect(_ effect: PendingEffect<Event>) {
        if case .send(let outgoing) = effect, outgoing.delay > .zero { mutableAnnex().hasSentDelayedEventsOut = true }
        mutableAnnex().effects.append(effect)
    }

    /// Cancels the delayed events sent with `id`: the machine's own timers, and, when the machine
    /// has sent events out with a delay, those too, through the runtime.
    ///
    /// Inlinable, so that it is specialised for the chart's types where the chart is built: a
    /// generic copy would look up the timers' type metadata on every cancel.
    @inlinable
    mutating func cancelSends(id: String) {
        cancelDelayedEvents(id: id)
        if extras?.annex?.hasSentDelayedEventsOut == true { mutableAnnex().effects.append(.cancelSend(id)) }
    }

    /// What the steps since the last call asked the runtime to do, in the order they asked: start
    /// and cancel invocations, send events out and cancel them, write logs (see ``MachineEffect``).
    ///
    /// A runtime calls this after each call that processes events and does what each effect says;
    /// what comes back comes back as events: ``deliver(_:from:)`` for an invocation's outcome,
    /// ``send(_:)`` for a reply, ``reportUndelivered(_:reason:)`` for an event that could not be
    /// sent. ``StatechartActor`` and ``IsolatedStatechart`` do this for you; call it yourself to run
    /// a bare machine's effects, for example step by step in a test.
    ///
    /// Inlinable: a runtime calls it after every step, and specialised for the chart's types it
    /// looks up no generic metadata.
    @inlinable
    public mutating func takeEffects() -> [MachineEffect<State, Event, Context>] {
        guard let pending = extras?.annex?.effects, !pending.isEmpty else { return [] }
        mutableAnnex().effects.removeAll()
        return pending.map { effect in
            switch effect {
            case .start(let invocation, let context, let descriptor):
                let definition = chart.invocations[Int(invocation.definition)]
                let state = chart.states[Int(invocation.state)]
                return .startInvocation(
                    InvocationStart(
                        id: InvocationID(rawValue: invocation.id), name: definition.id, state: state,
                        context: context as? Context ?? storedContext, descriptor: descriptor,
                        location: definition.location, work: definition.work, onError: definition.onError,
                        startsChildMachine: definition.startsChildMachine, definition: Int(invocation.definition)))
            case .cancel(let id):
                return .cancelInvocation(InvocationID(rawValue: id))
            case .send(let outgoing):
                return .send(outgoing)
            case .cancelSend(let id):
                return .cancelSend(id: id)
            case .log(let record):
                return .log(record)
            }
        }
    }

    /// Whether the machine stops after a macrostep that left effects, before it takes its next
    /// external event or due timer; `false` by default.
    ///
    /// For a runtime that is itself the external queue of the machines it runs, as an SCXML session
    /// is: the events the effects send (to this machine or to others) must be delivered before the
    /// next timer of the same instant fires. ``advance(to:)`` then returns early, at the instant of
    /// the timer whose step left the effects; the runtime takes the effects with ``takeEffects()``,
    /// delivers what they send, and calls ``advance(to:)`` again for the timers still due.
    public var pausesAtEffects: Bool {
        get { extras?.pausesAtEffects ?? false }
        set {
            guard newValue != pausesAtEffects else { return }
            mutableExtras().pausesAtEffects = newValue
        }
    }

    /// Whether the machine is paused: it pauses at effects, and effects wait.
    @inlinable
    var isPausedAtEffects: Bool {
        guard let extras, extras.pausesAtEffects, let annex = extras.annex else { return false }
        return !annex.effects.isEmpty
    }

    /// The invocations running now, oldest first.
    public var runningInvocations: [InvocationID] {
        extras?.annex?.liveInvocations.map { InvocationID(rawValue: $0.id) } ?? []
    }

    /// Whether the invocation with this identifier is running: it started and its state has not
    /// been exited since (nor has it reported an outcome).
    public func isRunning(_ invocation: InvocationID) -> Bool {
        extras?.annex?.liveInvocations.contains { $0.id == invocation.rawValue } ?? false
    }

    /// Reports how an invocation ended and processes the event it produced, to completion.
    ///
    /// An outcome for an invocation that is no longer running (its state was exited, or it
    /// already reported) is dropped: a cancelled invocation never delivers anything.
    ///
    /// - Returns: Whether the outcome was accepted (the invocation was running).
    /// - Throws: What ``send(_:)`` throws for the event, when the outcome is one.
    @discardableResult
    public mutating func deliver(
        _ outcome: InvocationOutcome<Event>, from id: InvocationID
    ) throws(MachineError<State, Event>) -> Bool {
        var observer = NoObserver<State, Event>()
        return try deliver(outcome, from: id, observer: &observer)
    }

    /// Reports how an invocation ended, reporting every step to `observer`.
    @discardableResult
    public mutating func deliver<Observer: MachineObserver>(
        _ outcome: InvocationOutcome<Event>, from id: InvocationID, observer: inout Observer
    ) throws(MachineError<State, Event>) -> Bool where Observer.State == State, Observer.Event == Event {
        guard status == .running,
            let position = extras?.annex?.liveInvocations.firstIndex(where: { $0.id == id.rawValue })
        else { return false }
        let invocation = mutableAnnex().liveInvocations.remove(at: position)
        switch outcome {
        case .event(let event):
            try send(event, observer: &observer)
        case .failure(let error):
            let failure = invocationFailure(
                error, definition: Int(invocation.definition), state: Int(invocation.state))
            try process(.failure(failure, kind: chart.tables.errorExecutionKind), observer: &observer)
        case .nothing:
            break
        }
        return true
    }

    /// Reports that an event the machine sent out (``MachineEffect/send(_:)``) could not be
    /// delivered, and processes the platform event `error.communication` that says so, to
    /// completion, as an external event. ``Scope/failure`` and ``ProcessedEvent/failure`` give the
    /// facts: the element `send`, where the event was sent from, and `reason`.
    ///
    /// - Returns: Whether a transition handled `error.communication`.
    /// - Throws: ``MachineError/notStarted`` or ``MachineError/finished(configuration:)`` when the
    ///   machine is not running; ``MachineError/microstepLimitExceeded(limit:configuration:)`` when
    ///   the step loops.
    @discardableResult
    public mutating func reportUndelivered(
        _ outgoing: OutgoingEvent<Event>, reason: String
    ) throws(MachineError<State, Event>) -> Bool {
        var observer = NoObserver<State, Event>()
        return try reportUndelivered(outgoing, reason: reason, observer: &observer)
    }

    /// Reports an event that could not be delivered, reporting every step to `observer`.
    @discardableResult
    public mutating func reportUndelivered<Observer: MachineObserver>(
        _ outgoing: OutgoingEvent<Event>, reason: String, observer: inout Observer
    ) throws(MachineError<State, Event>) -> Bool where Observer.State == State, Observer.Event == Event {
        switch status {
        case .running: break
        case .notStarted: throw .notStarted
        case .finished: throw .finished(configuration: activeStates)
        }
        let failure = ExecutionFailure(
            .send, location: outgoing.location,
            reason: "the event '\(outgoing.event)' could not be delivered to '\(outgoing.target)': \(reason)")
        return try process(.failure(failure, kind: chart.tables.errorCommunicationKind), observer: &observer)
    }

    /// Processes an event the machine raises itself as an external event, to completion.
    @discardableResult
    mutating func process<Observer: MachineObserver>(
        _ signal: Signal<Event>, observer: inout Observer
    ) throws(MachineError<State, Event>) -> Bool where Observer.State == State, Observer.Event == Event {
        announce(signal, origin: .external, observer: &observer)
        if extras?.annex?.liveInvocations.isEmpty == false { runExternalEventHooks(for: signal) }
        let handled = reactOrReport(to: signal, origin: .external, observer: &observer)
        try runToCompletion(microsteps: handled ? 1 : 0, observer: &observer)
        return handled
    }
}

/// Identifies one run of an ``Invoke``: each entry of its state starts a new one.
public struct InvocationID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A number unique within its machine.
    public let rawValue: UInt64

    /// An identifier with this number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// `invocation N`.
    public var description: String { "invocation \(rawValue)" }
}

/// An invocation to start: its work, with the context it runs on, or the chart's description of
/// what to start.
public struct InvocationStart<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    /// Identifies this run, for ``StateMachine/deliver(_:from:)``.
    public let id: InvocationID
    /// The name given to ``Invoke``, if any.
    public let name: String?
    /// The state the invocation belongs to.
    public let state: State?
    /// The context when the invocation started.
    public let context: Context
    /// For an invocation the chart describes rather than runs
    /// (``ChartElement/invoke(id:describedBy:beforeExternalEvent:location:)``): the description, for
    /// a runtime that knows how to start it (an SCXML session's child session, for one); `nil` for
    /// work.
    public let descriptor: (any Sendable)?
    /// Where the invocation is written.
    public let location: SourcePosition?
    let work: (@Sendable (Context) async throws -> Event?)?
    let onError: (@Sendable (any Error) -> Event?)?
    /// Whether the work runs a child machine, which a live runtime connects to its parent.
    @usableFromInline let startsChildMachine: Bool
    /// The place of its ``Invoke`` among the chart's, for a runtime that runs the work again in
    /// another process (``Statechart/invocationWork(at:of:named:)``); `nil` when not known.
    package let definition: Int?

    /// An invocation to start, from its parts: what ``StateMachine/takeEffects()`` makes.
    @usableFromInline
    init(
        id: InvocationID, name: String?, state: State?, context: Context, descriptor: (any Sendable)?,
        location: SourcePosition?, work: (@Sendable (Context) async throws -> Event?)?,
        onError: (@Sendable (any Error) -> Event?)?, startsChildMachine: Bool = false, definition: Int? = nil
    ) {
        self.startsChildMachine = startsChildMachine
        self.definition = definition
        self.id = id
        self.name = name
        self.state = state
        self.context = context
        self.descriptor = descriptor
        self.location = location
        self.work = work
        self.onError = onError
    }

    /// Whether the invocation has work to run (an ``Invoke``); `false` for a described one.
    public var hasWork: Bool { work != nil }

    /// Runs the work to its end and returns the outcome to deliver: the event it returned, the
    /// event `onError` made of its error, or the error itself. A described invocation has no work:
    /// its outcome is an ``ExecutionFailure`` that says a runtime that understands its description
    /// must start it.
    public func run() async -> InvocationOutcome<Event> {
        guard let work else {
            return .failure(
                ExecutionFailure(
                    .invoke, state: state.map { "\($0)" }, location: location,
                    reason:
                        "this invocation is described for a runtime that starts it (such as an SCXML session), and this runtime runs only work"
                ))
        }
        do {
            guard let event = try await work(context) else { return .nothing }
            return .event(event)
        } catch {
            guard let onError else { return .failure(error) }
            return onError(error).map { .event($0) } ?? .nothing
        }
    }
}

/// How an invocation ended.
public enum InvocationOutcome<Event: StatechartEvent> {
    /// It produced this event.
    case event(Event)
    /// It failed with this error, which the machine delivers as `error.execution`.
    case failure(any Error)
    /// It ended without an event.
    case nothing
}

extension InvocationStart: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension InvocationOutcome: Sendable where Event: Sendable {}
