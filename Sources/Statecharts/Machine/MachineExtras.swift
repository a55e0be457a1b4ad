/// The parts of a machine's state that most machines need rarely or never: event queues, timers,
/// recorded history and state data. A machine allocates them on first use, so that an idle machine
/// of a simple chart stays a few words.
///
/// A ``StateMachine`` is a value: copies share an instance of this class until one of them
/// changes it, which first makes a private copy (copy on write). It is therefore never mutated
/// while shared, which is why it can be marked `@unchecked Sendable`, and it is only mutated
/// inside the owning machine's `mutating` methods, whose exclusive access the compiler checks
/// statically, which is why its properties skip the dynamic exclusivity checks of class
/// properties (`@exclusivity(unchecked)`).
@usableFromInline
final class MachineExtras<Event>: @unchecked Sendable {
    /// Pending timers, earliest first.
    @exclusivity(unchecked) @usableFromInline var timers = TimerQueue<Event>()
    @exclusivity(unchecked) @usableFromInline var nextSerial: UInt64 = 0
    /// Queued events, state data, done data and invocations: made on first use
    /// (``StateMachine/mutableAnnex()``), so that a machine with only timers stays small.
    @exclusivity(unchecked) @usableFromInline var annex: MachineAnnex<Event>?
    /// The recorded history: empty until a history state first records, then one value per
    /// history slot. Kept here rather than in the annex, so that a machine whose only extra state
    /// is its history still takes quick steps (they need no annex).
    @exclusivity(unchecked) @usableFromInline var history: HistoryValues = []
    /// Whether the machine stops before its next external event while effects wait
    /// (``StateMachine/pausesAtEffects``). Kept here rather than in the annex, so that a machine
    /// that pauses at effects (every SCXML session's) still takes quick steps while none wait.
    @exclusivity(unchecked) @usableFromInline var pausesAtEffects = false
    /// This machine's own events for the chart's delayed sends written as data, in the chart's
    /// order (``ChartStorage/declaredSends``), when its runtime gave it some
    /// (``StateMachine/prepareDeclaredSends(timerLimit:rewrite:)``); `nil` for the chart's.
    @exclusivity(unchecked) @usableFromInline var declaredEvents: ContiguousArray<Event>?
    /// With ``declaredEvents``: the most timers the machine may have pending once a state's
    /// delayed sends written as data armed theirs.
    @exclusivity(unchecked) @usableFromInline var declaredSendTimerLimit = Int.max

    @inlinable
    init() {}

    @inlinable
    func copy() -> MachineExtras {
        let copy = MachineExtras()
        copy.timers = timers
        copy.nextSerial = nextSerial
        copy.annex = annex?.copy()
        copy.history = history
        copy.pausesAtEffects = pausesAtEffects
        copy.declaredEvents = declaredEvents
        copy.declaredSendTimerLimit = declaredSendTimerLimit
        return copy
    }

    @inlinable
    var hasInternalEvents: Bool { annex?.hasInternalEvents == true }

    @inlinable
    var hasExternalEvents: Bool { annex?.hasExternalEvents == true }

    @inlinable
    func dequeueInternal() -> Signal<Event>? { annex?.dequeueInternal() }

    @inlinable
    func dequeueExternal() -> Signal<Event>? { annex?.dequeueExternal() }

    /// Drops every queued event.
    @inlinable
    func dropQueuedEvents() { annex?.dropQueuedEvents() }

    /// Adds a timer.
    @inlinable
    func insert(_ timer: PendingTimer<Event>) {
        timers.insert(timer)
    }

    /// Whether invocations are running.
    @inlinable
    var hasLiveInvocations: Bool { annex?.liveInvocations.isEmpty == false }

    /// Whether states with invocations were entered since the machine was last stable.
    @inlinable
    var hasStatesToInvoke: Bool { annex?.statesToInvoke.isEmpty == false }

    /// Whether effects (invocations started or cancelled, events sent out, logs) wait for a runtime.
    @inlinable
    var hasEffects: Bool { annex?.effects.isEmpty == false }
}

/// The rest of a machine's extras, which a machine with only timers never needs: the internal queue
/// (events raised during the current macrostep, processed before the next external event), the
/// external queue (events sent during it, processed after it), the data of active states,
/// the done data it finished with and its invocations.
@usableFromInline
final class MachineAnnex<Event>: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var internalQueue: [Signal<Event>] = []
    @exclusivity(unchecked) @usableFromInline var externalQueue: [Signal<Event>] = []
    @exclusivity(unchecked) @usableFromInline var internalHead = 0
    @exclusivity(unchecked) @usableFromInline var externalHead = 0
    /// State data by slot.
    @exclusivity(unchecked) @usableFromInline var stateData: [(any Sendable)?]
    /// The done data of the top-level final state the machine finished in.
    @exclusivity(unchecked) @usableFromInline var result: (any Sendable)?
    /// States with invocations entered since the machine was last stable (SCXML's
    /// `statesToInvoke`), in entry order.
    @exclusivity(unchecked) @usableFromInline var statesToInvoke: [Int32] = []
    /// The invocations running now.
    @exclusivity(unchecked) @usableFromInline var liveInvocations: [LiveInvocation] = []
    /// Effects not yet taken by a runtime, in the order the steps asked for them.
    @exclusivity(unchecked) @usableFromInline var effects: [PendingEffect<Event>] = []
    /// Whether the machine has sent events outside with a delay, which a `cancel(id:)` must then
    /// also reach.
    @exclusivity(unchecked) @usableFromInline var hasSentDelayedEventsOut = false
    @exclusivity(unchecked) @usableFromInline var nextInvocation: UInt64 = 0

    @inlinable
    init(dataSlots: Int) {
        stateData = Array(repeating: nil, count: dataSlots)
    }

    @inlinable
    func copy() -> MachineAnnex {
        let copy = MachineAnnex(dataSlots: 0)
        copy.internalQueue = internalQueue
        copy.externalQueue = externalQueue
        copy.internalHead = internalHead
        copy.externalHead = externalHead
        copy.stateData = stateData
        copy.result = result
        copy.statesToInvoke = statesToInvoke
        copy.liveInvocations = liveInvocations
        copy.effects = effects
        copy.hasSentDelayedEventsOut = hasSentDelayedEventsOut
        copy.nextInvocation = nextInvocation
        return copy
    }

    @inlinable
    var hasInternalEvents: Bool { internalHead < internalQueue.count }

    @inlinable
    var hasExternalEvents: Bool { externalHead < externalQueue.count }

    @inlinable
    func dequeueInternal() -> Signal<Event>? {
        guard internalHead < internalQueue.count else { return nil }
        let signal = internalQueue[internalHead]
        internalHead += 1
        if internalHead == internalQueue.count {
            internalQueue.removeAll(keepingCapacity: true)
            internalHead = 0
        }
        return signal
    }

    @inlinable
    func dequeueExternal() -> Signal<Event>? {
        guard externalHead < externalQueue.count else { return nil }
        let signal = externalQueue[externalHead]
        externalHead += 1
        if externalHead == externalQueue.count {
            externalQueue.removeAll(keepingCapacity: true)
            externalHead = 0
        }
        return signal
    }

    @inlinable
    func dropQueuedEvents() {
        internalQueue.removeAll()
        internalHead = 0
        externalQueue.removeAll()
        externalHead = 0
    }
}

/// An invocation that is running: which state owns it and which ``Invoke`` it is.
@usableFromInline
struct LiveInvocation: Sendable {
    @usableFromInline var id: UInt64
    @usableFromInline var state: Int32
    @usableFromInline var definition: Int32

    @inlinable
    init(id: UInt64, state: Int32, definition: Int32) {
        self.id = id
        self.state = state
        self.definition = definition
    }
}

/// An effect a step asked for, waiting for a runtime (see ``MachineEffect``).
@usableFromInline
enum PendingEffect<Event>: @unchecked Sendable {
    /// The context as it was when the invocation started (a `Context`; the extras do not know
    /// its type), and what the chart's description of the invocation made, if it has one.
    case start(LiveInvocation, context: Any, descriptor: (any Sendable)?)
    case cancel(UInt64)
    case send(OutgoingEvent<Event>)
    case cancelSend(String)
    case log(MachineLog)
}
