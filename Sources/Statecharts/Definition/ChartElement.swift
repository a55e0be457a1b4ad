/// An action: code run on entry, on exit or when a transition is taken.
///
/// It receives the ``Scope`` of the step, through which it reads the event, changes the context
/// and raises or schedules events. An error it throws does not stop the machine: as SCXML
/// specifies, the machine raises the internal event `error.execution` and goes on.
public typealias StatechartAction<State: Hashable, Event: StatechartEvent, Context> =
    @Sendable (inout Scope<State, Event, Context>) throws -> Void
where Event.Kind: Hashable

/// A guard: a condition a transition needs to be taken.
///
/// It reads the ``Scope`` of the step but cannot change it. A guard that throws counts as false,
/// and the machine raises `error.execution`.
public typealias StatechartGuard<State: Hashable, Event: StatechartEvent, Context> =
    @Sendable (borrowing Scope<State, Event, Context>) throws -> Bool
where Event.Kind: Hashable

/// One part of a chart's definition: a state, a transition, an action, and so on.
///
/// The builder elements (``StateNode``, ``On``, ``OnEntry`` and the others) each produce elements.
/// To build a chart from data rather than from code, as the SCXML reader does, make elements with
/// the static functions here and pass them to the ``Statechart`` initialiser that takes `elements:`.
public struct ChartElement<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    typealias Action = StatechartAction<State, Event, Context>
    typealias Guard = StatechartGuard<State, Event, Context>

    enum Content {
        case node(NodeDefinition<State, Event, Context>)
        case transition(TransitionDefinition<State, Event, Context>)
        case start(Action)
        case entry(Action, declared: DeclaredTimerAction<Event>? = nil)
        case exit(Action, declared: DeclaredTimerAction<Event>? = nil)
        case initial(targets: [State], action: Action?, location: SourcePosition?)
        case stateData(StateDataDefinition<State, Event, Context>)
        case doneData(@Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable)
        case invoke(InvocationDefinition<State, Event, Context>)
    }

    let content: Content

    init(_ content: Content) { self.content = content }
}

/// The kinds of state a chart can hold.
public enum StateKind: String, Hashable, Sendable, Codable {
    /// A state that is atomic without children and compound with them (SCXML `<state>`).
    case state
    /// A state whose children are all active together (SCXML `<parallel>`).
    case parallel
    /// A state that completes its parent (SCXML `<final>`).
    case final
    /// A pseudo-state that restores its parent's last configuration (SCXML `<history>`).
    case history
}

/// What fires a transition.
public enum TransitionTrigger<Kind: Hashable>: Hashable {
    /// Events matched by kind or by SCXML descriptor, in the order written.
    case events([EventPattern<Kind>])
    /// No event: the transition is taken as soon as its guard holds.
    case eventless
    /// Its source state has been active for this long without a break.
    case after(Duration)
    /// Its source state has completed (`done.state.ID`).
    case done
}

/// One event pattern of a transition.
public enum EventPattern<Kind: Hashable>: Hashable {
    /// Exactly this kind.
    case kind(Kind)
    /// Every event whose name the SCXML descriptor matches.
    case descriptor(EventDescriptor)
}

struct NodeDefinition<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    var id: State
    var kind: StateKind
    var historyType: HistoryType = .shallow
    var initial: [State] = []
    var elements: [ChartElement<State, Event, Context>] = []
    var location: SourcePosition?
}

struct TransitionDefinition<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    var trigger: TransitionTrigger<Event.Kind>
    var targets: [State]
    var type: TransitionType
    var condition: StatechartGuard<State, Event, Context>?
    var action: StatechartAction<State, Event, Context>?
    var location: SourcePosition?
}

@usableFromInline
struct StateDataDefinition<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline var make: @Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable
    @usableFromInline var typeName: String
    /// How the value goes into a ``MachineArchive``: set when its type is `Codable`.
    var codec: StateDataCodec?
}

extension ChartElement {
    /// A state (SCXML `<state>`, `<parallel>` or `<final>`) with its contents.
    ///
    /// - Parameters:
    ///   - id: The state's identity: unique in the chart.
    ///   - kind: ``StateKind/state``, ``StateKind/parallel`` or ``StateKind/final``; use
    ///     ``history(_:type:defaultTargets:action:location:)`` for history states.
    ///   - initial: For a compound state, the child (or, across parallel regions, the descendants)
    ///     entered by default. Empty means the first child in document order.
    ///   - elements: The children, transitions, actions and data of the state, in document order.
    ///   - location: Where the state was written, for diagnostics.
    public static func state(
        _ id: State, kind: StateKind = .state, initial: [State] = [],
        elements: [ChartElement] = [], location: SourcePosition? = nil
    ) -> ChartElement {
        ChartElement(
            .node(NodeDefinition(id: id, kind: kind, initial: initial, elements: elements, location: location)))
    }

    /// A history pseudo-state (SCXML `<history>`).
    ///
    /// - Parameters:
    ///   - id: The history state's identity, unique in the chart; transitions target it.
    ///   - type: ``HistoryType/shallow`` (the default) or ``HistoryType/deep``.
    ///   - defaultTargets: Where a transition to this history goes while the parent has no recorded
    ///     history. Empty means the parent's initial state.
    ///   - action: Run when the default is taken (SCXML: the content of the history's transition).
    ///   - location: Where the history state was written, for diagnostics.
    public static func history(
        _ id: State, type: HistoryType = .shallow, defaultTargets: [State] = [],
        action: StatechartAction<State, Event, Context>? = nil, location: SourcePosition? = nil
    ) -> ChartElement {
        var elements: [ChartElement] = []
        if !defaultTargets.isEmpty || action != nil {
            elements.append(
                .transition(
                    .eventless, targets: defaultTargets, type: .external, guard: nil, action: action, location: location
                ))
        }
        return ChartElement(
            .node(NodeDefinition(id: id, kind: .history, historyType: type, elements: elements, location: location)))
    }

    /// A transition of the enclosing state.
    ///
    /// - Parameters:
    ///   - trigger: What fires it: events, nothing (eventless), a timeout or completion.
    ///   - targets: The states to go to; none for a targetless transition.
    ///   - type: ``TransitionType/external`` (the default) or ``TransitionType/internal``.
    ///   - condition: Must hold for the transition to be taken.
    ///   - action: Runs between the exit and the entry actions.
    ///   - location: Where the transition was written, for diagnostics.
    public static func transition(
        _ trigger: TransitionTrigger<Event.Kind>, targets: [State] = [], type: TransitionType = .external,
        guard condition: StatechartGuard<State, Event, Context>? = nil,
        action: StatechartAction<State, Event, Context>? = nil, location: SourcePosition? = nil
    ) -> ChartElement {
        ChartElement(
            .transition(
                TransitionDefinition(
                    trigger: trigger, targets: targets, type: type, condition: condition, action: action,
                    location: location)))
    }

    /// An entry action of the enclosing state (SCXML `<onentry>`). Several run in document order.
    public static func onEntry(_ action: @escaping StatechartAction<State, Event, Context>) -> ChartElement {
        ChartElement(.entry(action))
    }

    /// An action run once when the machine starts, before the initial states are entered; only at
    /// the top of the chart. SCXML documents use it to initialise their data model.
    public static func onStart(_ action: @escaping StatechartAction<State, Event, Context>) -> ChartElement {
        ChartElement(.start(action))
    }

    /// An exit action of the enclosing state (SCXML `<onexit>`). Several run in document order.
    public static func onExit(_ action: @escaping StatechartAction<State, Event, Context>) -> ChartElement {
        ChartElement(.exit(action))
    }

    /// An entry action of the enclosing state that sends `event` to the machine itself after
    /// `delay`, cancellable by `id` (SCXML `<send event="…" delay="…" id="…"/>` in `<onentry>`):
    /// what `onEntry { $0.send(event, after: delay, id: id) }` does, written as data, so that a
    /// step that enters the state can arm it as it arms the state's timeouts, without running a
    /// closure (see ``OnEntry/init(send:after:id:)``).
    @inlinable
    public static func onEntry(send event: Event, after delay: Duration, id: String? = nil) -> ChartElement
    where State: SendableMetatype, Event: Sendable {
        OnEntry(send: event, after: delay, id: id).element
    }

    /// An exit action of the enclosing state that cancels the delayed events sent with identifier
    /// `id` (SCXML `<cancel sendid="…"/>` in `<onexit>`): what `onExit { $0.cancel(id: id) }` does,
    /// written as data (see ``OnExit/init(cancel:)``).
    @inlinable
    public static func onExit(cancel id: String) -> ChartElement
    where State: SendableMetatype, Event: SendableMetatype {
        OnExit(cancel: id).element
    }

    /// The entry action `action`, which sends `event` after `delay` with identifier `id`, with
    /// what it does as data (``DeclaredTimerAction``) when the delay is more than zero.
    @usableFromInline
    package static func declaredEntry(
        _ action: @escaping StatechartAction<State, Event, Context>, send event: Event, after delay: Duration,
        id: String?
    ) -> ChartElement {
        let nanoseconds = delay.clampedNanoseconds
        return ChartElement(
            .entry(
                action,
                declared: nanoseconds > 0 ? .delayedSend(event: event, delay: nanoseconds, id: id) : nil))
    }

    /// The exit action `action`, which cancels the delayed events sent with identifier `id`, with
    /// what it does as data.
    @usableFromInline
    package static func declaredExit(
        _ action: @escaping StatechartAction<State, Event, Context>, cancel id: String
    )
        -> ChartElement
    {
        ChartElement(.exit(action, declared: .cancel(id: id)))
    }

    /// The initial transition of the enclosing compound state (SCXML `<initial>`), with an action
    /// run when the state is entered by default.
    public static func initial(
        _ targets: [State], action: StatechartAction<State, Event, Context>? = nil, location: SourcePosition? = nil
    ) -> ChartElement {
        ChartElement(.initial(targets: targets, action: action, location: location))
    }

    /// Data that the enclosing state holds while it is active: made on entry, before the entry
    /// actions run, and dropped on exit, after the exit actions.
    public static func stateData<Value: Sendable>(
        _ type: Value.Type = Value.self,
        _ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> Value
    ) -> ChartElement {
        ChartElement(.stateData(StateDataDefinition(make: make, typeName: "\(Value.self)")))
    }

    /// Data that the enclosing state holds while it is active, of a `Codable` type: it is saved in
    /// a ``MachineArchive`` with the rest of the machine.
    public static func stateData<Value: Sendable & Codable>(
        _ type: Value.Type = Value.self,
        _ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> Value
    ) -> ChartElement {
        ChartElement(
            .stateData(
                StateDataDefinition(
                    make: make, typeName: "\(Value.self)", codec: StateDataCodec(Value.self))))
    }

    /// The data of the `done.state` event sent when the enclosing final state is entered
    /// (SCXML `<donedata>`).
    public static func doneData(
        _ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable
    ) -> ChartElement {
        ChartElement(.doneData(make))
    }
}

extension ChartElement: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension ChartElement.Content: Sendable
where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension NodeDefinition: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension TransitionDefinition: Sendable
where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension StateDataDefinition: Sendable
where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension TransitionTrigger: Sendable where Kind: Sendable {}

extension EventPattern: Sendable where Kind: Sendable {}
