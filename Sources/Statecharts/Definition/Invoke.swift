/// Asynchronous work that belongs to the enclosing state: SCXML's `<invoke>`, in Swift terms.
///
/// The work starts when the step that entered the state is complete (if the state is still
/// active then) and is cancelled when the state is exited. The event it returns is sent to the
/// machine; an error it throws becomes the event `onError` makes, or else the platform event
/// `error.execution`, whose ``Scope/error`` is the error. A result that arrives after the state
/// was exited is dropped: a cancelled invocation never delivers anything.
///
/// ```swift
/// StateNode(.connecting) {
///     Invoke("connect") { context in
///         try await radio.connect(to: context.peripheral)
///         return .connected
///     } onError: { error in
///         .failed(error.localizedDescription)
///     }
///     On(.connected, to: .ready)
/// }
/// ```
///
/// A ``StateMachine`` only records which invocations start and stop, as effects
/// (``StateMachine/takeEffects()``); a runtime such as ``StatechartActor`` or
/// ``IsolatedStatechart`` runs them as tasks.
public struct Invoke<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// Work that runs while the enclosing state is active.
    ///
    /// - Parameters:
    ///   - id: A name for logs and observers; unique names are not required.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - work: Runs with the context as it was when the work started. It should check for
    ///     cancellation (`try Task.checkCancellation()`, or call cancellable APIs) so that exiting
    ///     the state stops it. The event it returns, if any, is sent to the machine.
    ///   - onError: Turns an error the work throws into an event; `nil` (the default) sends
    ///     `error.execution`. Return `nil` to ignore the error.
    public init(
        _ id: String? = nil, file: String = #fileID, line: Int = #line, column: Int = #column,
        _ work: @escaping @Sendable (Context) async throws -> Event?,
        onError: (@Sendable (any Error) -> Event?)? = nil
    ) {
        element = .invoke(
            id: id, work: work, onError: onError, location: SourcePosition(file: file, line: line, column: column))
    }

    /// Work that the runtime provides under `name`, such as the `DurableActivity` a durable fleet
    /// registers under that name; the chart holds only the name.
    ///
    /// A runtime that has no work of that name delivers `error.execution` when the state is
    /// entered: ``StatechartActor`` and ``IsolatedStatechart`` run only work written in the chart.
    ///
    /// - Parameters:
    ///   - name: The name the runtime finds the work under (``InvocationStart/name``).
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    public init(_ name: String, file: String = #fileID, line: Int = #line, column: Int = #column) {
        element = ChartElement(
            .invoke(
                InvocationDefinition(
                    id: name, work: nil, onError: nil, describe: nil, beforeExternalEvent: nil,
                    location: SourcePosition(file: file, line: line, column: column))))
    }
}

/// Code a chart runs, inside the machine, for one running invocation before each external event
/// (see ``ChartElement/invoke(id:work:onError:beforeExternalEvent:location:)``).
public typealias InvocationHook<State: Hashable, Event: StatechartEvent, Context> =
    @Sendable (inout Scope<State, Event, Context>, InvocationID) throws -> Void
where Event.Kind: Hashable

/// Code a chart runs, inside the machine, when a described invocation starts: it returns the
/// description a runtime starts the invocation from (see
/// ``ChartElement/invoke(id:describedBy:beforeExternalEvent:location:)``).
public typealias InvocationDescriber<State: Hashable, Event: StatechartEvent, Context> =
    @Sendable (inout Scope<State, Event, Context>, InvocationID) throws -> any Sendable
where Event.Kind: Hashable

/// One ``Invoke`` of a chart.
@usableFromInline
struct InvocationDefinition<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline var id: String?
    /// The work a live runtime runs; `nil` for an invocation the chart only describes.
    @usableFromInline var work: (@Sendable (Context) async throws -> Event?)?
    @usableFromInline var onError: (@Sendable (any Error) -> Event?)?
    /// Makes the description of a described invocation, inside the machine, when it starts.
    @usableFromInline var describe: InvocationDescriber<State, Event, Context>?
    @usableFromInline var beforeExternalEvent: InvocationHook<State, Event, Context>?
    @usableFromInline var location: SourcePosition?
    /// Whether the work runs another chart as a child machine (``Invoke/init(_:chart:file:line:column:context:onDone:)``),
    /// which a live runtime connects to its parent.
    @usableFromInline var startsChildMachine = false
}

extension ChartElement {
    /// Asynchronous work of the enclosing state (see ``Invoke``).
    ///
    /// - Parameters:
    ///   - id: A name for logs and observers.
    ///   - work: Runs while the state is active; the event it returns is sent to the machine.
    ///   - onError: Turns an error the work throws into an event; `nil` sends `error.execution`.
    ///   - beforeExternalEvent: Runs while the invocation is running, for each external event
    ///     (sent or timed), after the event is bound and before transitions are selected for it;
    ///     ``Scope/event`` is the event. An error it throws raises `error.execution`.
    ///   - location: Where the invocation was written, for diagnostics.
    public static func invoke(
        id: String? = nil, work: @escaping @Sendable (Context) async throws -> Event?,
        onError: (@Sendable (any Error) -> Event?)? = nil,
        beforeExternalEvent: InvocationHook<State, Event, Context>? = nil, location: SourcePosition? = nil
    ) -> ChartElement {
        ChartElement(
            .invoke(
                InvocationDefinition(
                    id: id, work: work, onError: onError, describe: nil, beforeExternalEvent: beforeExternalEvent,
                    location: location)))
    }

    /// An invocation the chart describes rather than runs: what to start is worked out inside the
    /// machine when the state has been entered, and a runtime that understands the description
    /// starts it (an SCXML session starts a child session for `<invoke>` this way).
    ///
    /// The description leaves the machine in ``MachineEffect/startInvocation(_:)`` as
    /// ``InvocationStart/descriptor``. A runtime that does not understand it delivers
    /// `error.execution` with an ``ExecutionFailure`` that says so and where the invocation is
    /// written: ``StatechartActor`` and ``IsolatedStatechart`` run work, not descriptions.
    ///
    /// - Parameters:
    ///   - id: A name for logs and observers.
    ///   - describe: Runs inside the machine when the invocation starts, at the end of the step that
    ///     entered its state: it can read and change the context and raise events, which the machine
    ///     processes before it takes the next external event, and returns the description. If it
    ///     throws, the invocation does not start and the machine raises `error.execution`.
    ///   - beforeExternalEvent: Runs while the invocation is running, for each external event
    ///     (sent or timed), after the event is bound and before transitions are selected for it;
    ///     ``Scope/event`` is the event. SCXML's `<finalize>` and `autoforward` are made of it.
    ///     An error it throws raises `error.execution`.
    ///   - location: Where the invocation was written, for diagnostics.
    public static func invoke(
        id: String? = nil, describedBy describe: @escaping InvocationDescriber<State, Event, Context>,
        beforeExternalEvent: InvocationHook<State, Event, Context>? = nil, location: SourcePosition? = nil
    ) -> ChartElement {
        ChartElement(
            .invoke(
                InvocationDefinition(
                    id: id, work: nil, onError: nil, describe: describe, beforeExternalEvent: beforeExternalEvent,
                    location: location)))
    }
}

extension Invoke: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension InvocationDefinition: Sendable
where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
