/// A running instance of a ``Statechart``: its configuration, context, queues and timers.
///
/// ```swift
/// var machine = StateMachine(chart: playerChart, context: PlayerContext())
/// try machine.start()
/// try machine.send(.play)
/// machine.isActive(.playing)     // true
/// try machine.advance(by: .seconds(30))   // time passes: timeouts fire
/// ```
///
/// A machine is a value: it holds its own configuration, context, queues and timers, and shares
/// only the immutable chart with other machines. Each call (``start()``, ``send(_:)``,
/// ``advance(by:)``) runs the W3C SCXML algorithm to completion before it returns: the event's
/// transitions, then eventless transitions and internal events, then events sent to the external
/// queue and timers that fell due, until the machine is stable.
///
/// A machine never reads a clock. It has its own time, ``now``, which starts at zero and moves
/// only when you (or a runtime driving it on a real clock) call ``advance(by:)`` or
/// ``advance(to:)``: a timing test is deterministic and instant.
public struct StateMachine<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let chart: ChartStorage<State, Event, Context>
    /// The active states (SCXML's configuration; the root is implied).
    @usableFromInline var active: StateSet
    /// The machine's time, in nanoseconds.
    @usableFromInline var time: Int64 = 0
    @usableFromInline var extras: MachineExtras<Event>?
    /// The microstep limit, status, policy for unhandled events and a live runtime's flags, in one
    /// word (see ``PackedMachineFields``).
    @usableFromInline var packed: PackedMachineFields
    /// For a machine inside a live runtime (``IsolatedStatechart``, ``StatechartActor``): the clock
    /// its time follows. Never set on a machine handed out or archived.
    ///
    /// Not a counted reference: the live runtime that sets it holds the clock (``LiveMachine``'s
    /// `clock`) for as long as the machine is inside it, and clears it on every copy it hands out.
    /// So copying a machine retains and releases one reference fewer (Evolution/0003, "Making a
    /// machine").
    @usableFromInline unowned(unsafe) var liveClock: LiveClock?
    @usableFromInline var storedContext: Context
    /// The machine's context: the extended state that actions change.
    public var context: Context {
        _read { yield storedContext }
    }

    /// A machine of `chart`, not started yet.
    ///
    /// - Parameters:
    ///   - chart: The chart it runs.
    ///   - context: Its initial context.
    ///   - unhandledEvents: What to do with an event that no transition handles.
    @inlinable
    public init(
        chart: borrowing Statechart<State, Event, Context>, context: Context,
        unhandledEvents: UnhandledEventPolicy = .ignore
    ) {
        // The chart is borrowed and its storage read once: the machine's reference is then the
        // only retain (a chart passed owned was retained for the call and released after it).
        let storage = chart.storage
        active = StateSet(capacity: storage.layout.stateCount)
        packed = PackedMachineFields(limit: Int32(clamping: storage.microstepLimit), unhandledEvents: unhandledEvents)
        self.chart = storage
        storedContext = context
    }

    /// Whether the machine has started, is running or has finished.
    @inlinable
    public var status: MachineStatus { packed.status }

    /// What the machine does with an event that no transition handles; ``UnhandledEventPolicy/ignore``
    /// unless you choose otherwise.
    @inlinable
    public var unhandledEvents: UnhandledEventPolicy {
        get { packed.unhandledEvents }
        set { packed.unhandledEvents = newValue }
    }

    /// For a machine inside a live runtime: whether ``time`` may be behind the runtime's clock, which
    /// the machine then reads (through ``liveClock``) the first time a step needs the time.
    @inlinable
    var timeIsStale: Bool {
        get { packed.timeIsStale }
        set { packed.timeIsStale = newValue }
    }

    /// For a machine inside a live runtime: the runtime's own flags (see ``LiveMachine``).
    @inlinable
    var liveFlags: UInt8 {
        get { packed.liveFlags }
        set { packed.liveFlags = newValue }
    }

    /// The chart this machine runs.
    public var statechart: Statechart<State, Event, Context> { Statechart(storage: chart) }

    /// The most microsteps one call may take before it stops with
    /// ``MachineError/microstepLimitExceeded(limit:configuration:)``. It starts as the chart's.
    public var microstepLimit: Int {
        get { Int(packed.limit) }
        set { packed.limit = Int32(clamping: max(newValue, 1)) }
    }

    // MARK: - Configuration

    /// Whether `state` is active.
    ///
    /// - Complexity: O(1) expected: one hash of `state`.
    public func isActive(_ state: State) -> Bool {
        guard let index = chart.stateIndices[state] else { return false }
        return active.contains(Int(index))
    }

    /// The active atomic states, in document order.
    public var activeStates: [State] {
        var result: [State] = []
        active.forEachAscending { index in
            if chart.layout.kinds[index].isAtomic, let state = chart.states[index] { result.append(state) }
        }
        return result
    }

    /// Every active state (compound and parallel ones included), in document order.
    public var configuration: [State] {
        var result: [State] = []
        active.forEachAscending { index in
            if let state = chart.states[index] { result.append(state) }
        }
        return result
    }

    /// The machine's time: zero at creation, moved by ``advance(by:)`` and ``advance(to:)``.
    public var now: Duration { .nanoseconds(time) }

    /// The machine's time in nanoseconds, first brought to its live clock's when a runtime marked
    /// it stale: what arming a timer and ``Scope/now`` read.
    @inlinable
    mutating func currentTime() -> Int64 {
        if timeIsStale { synchroniseTime() }
        return time
    }

    /// Reads the live clock once for this step.
    @usableFromInline
    mutating func synchroniseTime() {
        timeIsStale = false
        if let liveClock { time = max(time, liveClock.elapsed) }
    }

    /// When the next timer falls due, if any is pending: a runtime sleeps until then. Inlinable:
    /// a runtime asks after every step (an SCXML session's asking, unspecialised, looked up
    /// generic metadata three times each).
    @inlinable
    public var nextDeadline: Duration? {
        guard let deadline = extras?.timers.nextDeadline else { return nil }
        return .nanoseconds(deadline)
    }

    /// Whether a timer falls due by `instant` (its deadline is at or before it), as comparing
    /// ``nextDeadline`` with it tells: the first deadline's nanoseconds are multiplied out to
    /// attoseconds and compared with the instant's 128 bits, without a division.
    @inlinable
    package func hasTimerDue(by instant: Duration) -> Bool {
        guard let first = extras?.timers.nextDeadline else { return false }
        let deadline = first.multipliedFullWidth(by: 1_000_000_000)
        return (deadline.high, deadline.low) <= (instant._high, instant._low)
    }

    /// The number of pending timers: state timeouts and delayed events.
    @inlinable
    public var pendingTimerCount: Int { extras?.timers.count ?? 0 }

    /// How many timers the machine has armed since it started or was restored from an archive: it
    /// grows by one with each timeout or delayed event armed. With ``pendingTimerCount`` it tells,
    /// without listing them, whether the pending timers changed between two moments: they did
    /// not when both numbers are the same (a timer that fires or is cancelled lowers the count; a
    /// timer armed raises this number).
    public var armedTimerCount: UInt64 { extras?.nextSerial ?? 0 }

    /// The done data of the top-level final state the machine finished in, if it had any.
    public var result: (any Sendable)? { extras?.annex?.result }

    /// The data that the active state `state` holds, if it is active and holds a `Value`.
    public func data<Value>(of state: State, as type: Value.Type = Value.self) -> Value? {
        dataSlotValue(of: state) as? Value
    }

    /// What the data slot of `state` holds; `nil` when it has none or is not active.
    @usableFromInline
    func dataSlotValue(of state: State) -> (any Sendable)? {
        guard let index = chart.stateIndices[state] else { return nil }
        let slot = Int(chart.layout.dataSlots[Int(index)])
        guard slot >= 0, let records = extras?.annex, slot < records.stateData.count else { return nil }
        return records.stateData[slot]
    }

    // MARK: - Internals used by scopes and steps

    @inlinable @inline(__always)
    func kindIndex(of event: Event) -> Int32 {
        // Reads `kindMap`'s fields in place: calling a method on it would copy it, retaining its
        // dictionaries on every event.
        unowned(unsafe) let storage = chart
        // A string kind (an SCXML event's name; never read by its discriminator, which a string
        // does not have): the chart's names without hashing them. The test of the type is decided
        // when the machine's code is specialised. The table is read without retaining it: the
        // chart holds it for the machine's life.
        if Event.Kind.self == String.self {
            let table = Unmanaged.passUnretained(storage.kindMap.nameTable)
            // First by the name's two words, read from a copy of the name that ends before the
            // lookup, so that nothing is retained: the event holds the name meanwhile.
            if let words = Self.nameWords(of: event),
                let index = table._withUnsafeGuaranteedRef({ $0.index(ofWords: words) })
            {
                return index
            }
            // Otherwise by its hash, without looking for its words again.
            let name = unsafeBitCast(event.kind, to: String.self)
            if let index = table._withUnsafeGuaranteedRef({ $0.hashedIndex(of: name) }) { return index }
            return storage.kindMap.slowIndex(of: event.kind)
        }
        // `discriminatorCount` is 0 unless the discriminator was verified to be the index, so
        // one comparison decides.
        let kind = event.kind
        let byte = EventKindMap<Event>.discriminator(of: kind)
        if byte < storage.kindMap.discriminatorCount { return Int32(truncatingIfNeeded: byte) }
        return storage.kindMap.slowIndex(of: kind)
    }

    /// The two words of the name of `event`, whose kind is a string (``NameIndexTable/words(of:)``).
    @inlinable
    @inline(__always)
    static func nameWords(of event: Event) -> (first: UInt64, second: UInt64)? {
        NameIndexTable.words(of: unsafeBitCast(event.kind, to: String.self))
    }

    /// The SCXML name of a queued event.
    @usableFromInline
    func name(of signal: Signal<Event>) -> String {
        if signal.kind >= 0 { return chart.layout.kindNames[Int(signal.kind)] }
        if let event = signal.event { return Event.name(of: event.kind) }
        return ""
    }

    /// The annex (queued events, state data, done data, invocations), created on first use and
    /// made unique before a change, with the extras that hold it.
    @inlinable
    mutating func mutableAnnex() -> MachineAnnex<Event> {
        let storage = mutableExtras()
        if let records = storage.annex { return records }
        let created = MachineAnnex<Event>(dataSlots: chart.tables.dataSlotCount)
        storage.annex = created
        return created
    }

    /// The extras, created or made unique first, with room for a value in every history slot.
    @inlinable
    mutating func mutableHistory() -> MachineExtras<Event> {
        let storage = mutableExtras()
        if storage.history.count < chart.tables.historySlotCount {
            storage.history = Array(repeating: [], count: chart.tables.historySlotCount)
        }
        return storage
    }

    /// The extras, created on first use and made unique before a change.
    @inlinable
    mutating func mutableExtras() -> MachineExtras<Event> {
        makeExtrasUnique()
        // The optional was set by makeExtrasUnique().
        return extras.unsafelyUnwrapped
    }

    /// Calls `body` with the extras, created or made unique first, without retaining them: the
    /// machine holds them for the whole call, and `body` cannot reach the machine to replace them.
    @inlinable @inline(__always)
    mutating func withUniqueExtras<Result>(_ body: (MachineExtras<Event>) -> Result) -> Result {
        makeExtrasUnique()
        return Unmanaged.passUnretained(extras.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
    }

    /// Creates the extras if there are none, and copies them if another machine shares them.
    @inlinable
    mutating func makeExtrasUnique() {
        if extras == nil {
            extras = MachineExtras<Event>()
        } else if !isKnownUniquelyReferenced(&extras) {
            extras = extras?.copy()
        }
    }

    /// Raises the user's `event` on the internal queue, with its kind found here.
    @inlinable
    mutating func enqueueInternal(_ event: Event) {
        enqueueInternal(.event(event, kind: kindIndex(of: event)))
    }

    @inlinable
    mutating func enqueueInternal(_ signal: Signal<Event>) {
        mutableAnnex().internalQueue.append(signal)
    }

    /// Calls `body` with the data slot of the active state `state`, made unique first; does nothing
    /// when the state is not active or has no data.
    @usableFromInline
    mutating func updateDataSlot(of state: State, _ body: (inout (any Sendable)?) throws -> Void) rethrows {
        guard let index = chart.stateIndices[state], active.contains(Int(index)) else { return }
        let slot = Int(chart.layout.dataSlots[Int(index)])
        guard slot >= 0, extras?.annex != nil else { return }
        let records = mutableAnnex()
        try body(&records.stateData[slot])
    }

    /// The user's values of a list of state indices.
    @usableFromInline
    func values(_ indices: [Int]) -> [State] {
        indices.compactMap { chart.states[$0] }
    }
}

extension StateMachine: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
