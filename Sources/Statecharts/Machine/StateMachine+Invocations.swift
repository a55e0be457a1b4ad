extension StateMachine {
    // MARK: - Invocations (the pure side)

    /// SCXML's `statesToInvoke` step, when the machine is stable: starts the invocations of the
    /// states entered since, that are still active.
    ///
    /// An invocation's `onStart` hook runs first; one that throws raises `error.execution` and
    /// the invocation does not start.
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
                if let onStart = chart.invocations[definition].onStart,
                    let error = runInvocationHook(onStart, id: id, signal: nil)
                {
                    enqueueInternal(.error(error, kind: chart.tables.errorExecutionKind))
                    continue
                }
                let invocation = LiveInvocation(id: id, state: state, definition: Int32(definition))
                mutableAnnex().liveInvocations.append(invocation)
                mutableAnnex().invocationOutbox.append(.start(invocation, context: storedContext))
            }
        }
    }

    /// Runs the `beforeExternalEvent` hooks of the running invocations, oldest first, for the
    /// external event `signal`.
    @usableFromInline
    mutating func runExternalEventHooks(for signal: Signal<Event>) {
        guard let invocations = extras?.annex?.liveInvocations, !invocations.isEmpty else { return }
        withUnsafePointer(to: signal) { pointer in
            for invocation in invocations {
                guard let hook = chart.invocations[Int(invocation.definition)].beforeExternalEvent,
                    let error = runInvocationHook(hook, id: invocation.id, signal: pointer)
                else { continue }
                enqueueInternal(.error(error, kind: chart.tables.errorExecutionKind))
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
            records.invocationOutbox.append(.cancel(invocation.id))
        }
        records.liveInvocations.removeAll { Int($0.state) == state }
    }

    // MARK: - For runtimes

    /// The invocations started and cancelled since the last call, in the order they happened.
    ///
    /// A runtime calls this after each call that processes events: it starts a task for each
    /// ``InvocationRequest/start(_:)`` and cancels the task of each
    /// ``InvocationRequest/cancel(_:)``, then reports each task's outcome with
    /// ``deliver(_:from:)``. ``StatechartActor`` and ``IsolatedStatechart`` do this for you; call it
    /// yourself to run a bare machine's invocations, for example step by step in a test.
    public mutating func takeInvocationRequests() -> [InvocationRequest<State, Event, Context>] {
        guard let outbox = extras?.annex?.invocationOutbox, !outbox.isEmpty else { return [] }
        mutableAnnex().invocationOutbox.removeAll()
        return outbox.map { effect in
            switch effect {
            case .start(let invocation, let context):
                let definition = chart.invocations[Int(invocation.definition)]
                let state = chart.states[Int(invocation.state)]
                return .start(
                    InvocationStart(
                        id: InvocationID(rawValue: invocation.id), name: definition.id, state: state,
                        context: context as? Context ?? storedContext, work: definition.work,
                        onError: definition.onError))
            case .cancel(let id):
                return .cancel(InvocationID(rawValue: id))
            }
        }
    }

    /// The invocations running now, oldest first.
    public var runningInvocations: [InvocationID] {
        extras?.annex?.liveInvocations.map { InvocationID(rawValue: $0.id) } ?? []
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
        mutableAnnex().liveInvocations.remove(at: position)
        switch outcome {
        case .event(let event):
            try send(event, observer: &observer)
        case .failure(let error):
            let signal = Signal<Event>.error(error, kind: chart.tables.errorExecutionKind)
            announce(signal, origin: .external, observer: &observer)
            let handled = reactOrReport(to: signal, origin: .external, observer: &observer)
            try runToCompletion(microsteps: handled ? 1 : 0, observer: &observer)
        case .nothing:
            break
        }
        return true
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

/// What a runtime must do about an invocation (see ``StateMachine/takeInvocationRequests()``).
public enum InvocationRequest<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    /// Start this work.
    case start(InvocationStart<State, Event, Context>)
    /// Cancel the work with this identifier; whatever it reports will be dropped.
    case cancel(InvocationID)
}

/// An invocation to start: its work, with the context it runs on.
public struct InvocationStart<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    /// Identifies this run, for ``StateMachine/deliver(_:from:)``.
    public let id: InvocationID
    /// The name given to ``Invoke``, if any.
    public let name: String?
    /// The state the invocation belongs to.
    public let state: State?
    /// The context when the invocation started.
    public let context: Context
    let work: @Sendable (Context) async throws -> Event?
    let onError: (@Sendable (any Error) -> Event?)?

    /// Runs the work to its end and returns the outcome to deliver: the event it returned, the
    /// event `onError` made of its error, or the error itself.
    public func run() async -> InvocationOutcome<Event> {
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

extension InvocationRequest: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension InvocationStart: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension InvocationOutcome: Sendable where Event: Sendable {}
