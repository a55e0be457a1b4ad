#if Store
/// Where durable machines keep their journal, snapshots and timers: SQLite for one process
/// (``SQLiteMachineStore``), PostgreSQL for workers in many processes (`PostgresMachineStore`).
///
/// A store holds text, not Swift values: events and snapshots arrive encoded as JSON, so that one
/// store serves machines of any chart. ``DurableMachines`` encodes, decodes and runs the machines;
/// a store keeps four tables (see <doc:MachinesThatOutliveTheProcess>):
///
/// - machines: one row per machine, with the snapshot it was last saved as, how far its journal is
///   applied, and the lock that makes one worker at a time its writer;
/// - the journal: every acknowledged event, pending until a worker applies it and numbered then,
///   and the passages of time that fired the machine's timers;
/// - timers: one row per pending timer of a machine, with the time it falls due;
/// - the outbox: the effects of applied steps not delivered yet, and the dead letters.
///
/// The protocol is what ``DurableMachines`` needs; a new store passes the same tests as the two
/// here (`StatechartsStoreTests` runs them on any store).
public protocol MachineStore: Sendable {
    /// Creates or updates the tables; safe to call from several processes at once.
    func prepare() async throws(StoreError)

    /// Journals `events` in one transaction and returns, for each, whether it was new.
    ///
    /// An event whose machine and identifier are already in the journal is a retry: it is not
    /// journaled again, and its admission is ``Admission/duplicate``. A machine named for the first
    /// time is created, at `events[i].acknowledgedAt`, with no journal.
    func enqueue(_ events: [IncomingEvent]) async throws(StoreError) -> [Admission]

    /// Journals, in one transaction, the events that `collect` returns, calling it once the store
    /// is ready to write them (it holds its writer, say): the events that senders queued while the
    /// store waited for its writer then go in this transaction, not in the next.
    ///
    /// The store calls `collect` at most once. When it throws before calling it, no event was
    /// taken; when it throws after, none of the events collected is journaled.
    ///
    /// - Returns: The admission of each event collected, in their order.
    func enqueue(collecting collect: @escaping @Sendable () -> [IncomingEvent]) async throws(StoreError) -> [Admission]

    /// Claims machines that have work (events pending in the journal, timers due at `request.now`),
    /// hands them to `apply`, and writes what it returns, so that no two workers both write the
    /// work of one machine: either all in one transaction that no other worker writes these
    /// machines in meanwhile (PostgreSQL, with its row locks), or with the claim and `apply`
    /// outside the transaction that writes, which checks each machine's applied sequence first and
    /// writes nothing of a machine another worker applied since the claim (SQLite, whose one
    /// writer then only writes).
    ///
    /// - Returns: What `apply` returned and was written (all of it, or without the machines that
    ///   another worker applied first), or an empty array when there was nothing to claim.
    func process(
        _ request: ClaimRequest, apply: @escaping @Sendable ([ClaimedMachine]) throws -> [MachineUpdate]
    ) async throws(StoreError) -> [MachineUpdate]

    /// The saved state of one machine: its row and the journal after its snapshot.
    func record(of machine: String) async throws(StoreError) -> MachineRecord?

    /// The whole journal of one machine that is still kept, in order: applied entries, then
    /// pending events.
    func journal(of machine: String) async throws(StoreError) -> [JournalEntry]

    /// How much work is waiting: events not applied yet, timers and effects due at `now`, and
    /// dead letters.
    func backlog(now: Int64) async throws(StoreError) -> Backlog

    /// Whether any event is journaled and not applied yet: what ``Backlog/pendingEvents`` says
    /// when it is not zero, without counting them, so that a caller waiting for a fleet to go
    /// idle can ask often without slowing the workers it waits for.
    func hasPendingEvents() async throws(StoreError) -> Bool

    /// Every machine's identifier, in order.
    func machineIDs() async throws(StoreError) -> [String]

    /// How many machines are in each configuration and status, the most numerous first.
    func census() async throws(StoreError) -> [MachineCensus]

    /// Claims outbox entries due at `request.now` that are not dead letters, soonest first, in
    /// one transaction: each one's ``OutboxEntry/attempts`` goes up by one and its
    /// ``OutboxEntry/dueAt`` moves to the end of its lease, so that no other worker claims it
    /// before then.
    ///
    /// - Returns: The entries as claimed (their attempt counted), or an empty array.
    func claimEffects(_ request: EffectClaimRequest) async throws(StoreError) -> [OutboxEntry]

    /// Records what came of attempts, in one transaction: a delivered entry is removed, a failed
    /// one is due again at its retry time or becomes a dead letter. An outcome for an attempt
    /// that is no longer the entry's latest changes it only when it is a delivery.
    func settleEffects(_ outcomes: [EffectOutcome]) async throws(StoreError)

    /// The outbox entries of one machine, pending and dead, in the order it asked for them.
    func outbox(of machine: String) async throws(StoreError) -> [OutboxEntry]

    /// Dead letters of every machine, oldest first, at most `limit`.
    func deadLetters(limit: Int) async throws(StoreError) -> [OutboxEntry]

    /// Makes the dead letter `key` due again at `time`, with its attempts counted from zero.
    ///
    /// - Returns: Whether there was such a dead letter.
    func retryDeadLetter(_ key: EffectKey, at time: Int64) async throws(StoreError) -> Bool

    /// Whether ``listen(_:)`` tells of the work that other processes' transactions give: without
    /// it, workers find that work by polling.
    var notifiesChanges: Bool { get }

    /// How many machines a worker's transaction claims at most when its fleet's
    /// ``DurableOptions/machinesPerBatch`` is `nil`: what suits this store's writes.
    ///
    /// A store with one writer at a time (SQLite) gains from large batches: each machine's row,
    /// timers and pages are written once for all the events of the machine a batch applies, and
    /// each transaction's commit is shared by more events. A store whose workers write at the
    /// same time (PostgreSQL) gains from smaller ones, which its workers claim without waiting for
    /// each other.
    var preferredMachinesPerBatch: Int { get }

    /// Calls `wake` each time a transaction of any process, this one included, commits events to
    /// apply or effects due, until the task is cancelled. A store that cannot
    /// (``notifiesChanges`` is `false`) returns at once.
    ///
    /// - Throws: ``StoreError`` when the store's connection fails; call it again to go on.
    func listen(_ wake: @escaping @Sendable (StoreChange) -> Void) async throws(StoreError)
}

extension MachineStore {
    /// `false`: workers poll.
    public var notifiesChanges: Bool { false }

    /// 256 machines.
    public var preferredMachinesPerBatch: Int { 256 }

    /// Whether ``backlog(now:)`` counts any pending event: a store that can answer without
    /// counting every pending event should.
    public func hasPendingEvents() async throws(StoreError) -> Bool {
        try await backlog(now: 0).pendingEvents > 0
    }

    /// Returns at once: this store does not notify.
    public func listen(_ wake: @escaping @Sendable (StoreChange) -> Void) async throws(StoreError) {}

    /// Collects the events at once, then journals them with ``enqueue(_:)``: for a store that has
    /// no writer to wait for, or whose waits are not worth collecting in.
    public func enqueue(
        collecting collect: @escaping @Sendable () -> [IncomingEvent]
    ) async throws(StoreError) -> [Admission] {
        try await enqueue(collect())
    }
}

/// What a store's notification (``MachineStore/listen(_:)``) says there is to do.
public enum StoreChange: String, Sendable, Hashable {
    /// Events were journaled: machines have work.
    case events
    /// Effects were written that are due now.
    case effects
}

/// An event on its way into the journal.
public struct IncomingEvent: Sendable, Hashable {
    /// The machine it is for.
    public var machine: String
    /// Its identifier, unique per machine: a retried send with the same identifier is recognized.
    public var eventID: String
    /// The event, encoded as JSON.
    public var payload: String
    /// When it was sent, in nanoseconds since 1970.
    public var acknowledgedAt: Int64
    /// What it is: an event (``JournalEntry/Kind/event``), or how an activity of the machine ended
    /// (``JournalEntry/Kind/outcome``).
    public var kind: JournalEntry.Kind

    /// An incoming event from its parts.
    public init(
        machine: String, eventID: String, payload: String, acknowledgedAt: Int64, kind: JournalEntry.Kind = .event
    ) {
        self.machine = machine
        self.eventID = eventID
        self.payload = payload
        self.acknowledgedAt = acknowledgedAt
        self.kind = kind
    }
}

/// What a store did with an event it was given.
public enum Admission: Sendable, Hashable {
    /// Journaled, at this position of the store's journal.
    case journaled(position: Int64)
    /// Already in the journal: a retry of an event that was journaled before.
    case duplicate
}

/// What a worker asks a store for in one transaction.
public struct ClaimRequest: Sendable {
    /// The time, in nanoseconds since 1970: timers due by then are claimed.
    public var now: Int64
    /// At most this many machines.
    public var machineLimit: Int
    /// At most this many pending events per machine.
    public var eventLimit: Int
    /// The journal position up to which the caller holds each machine in memory, if it does: a
    /// machine whose row says the same needs no replay. Ask once per claimed machine, in the
    /// transaction that applies it: the caller sets the machine aside for that transaction (a
    /// second question gets `nil`), so ask again in each attempt of a transaction that is retried.
    public var cachedSequence: @Sendable (String) -> Int64?
    /// Machines not to claim: those the caller found it cannot read back (their snapshot no
    /// longer decodes with its chart), so that they do not hold up the others.
    public var excluded: Set<String>

    /// A request from its parts.
    public init(
        now: Int64, machineLimit: Int, eventLimit: Int, excluded: Set<String> = [],
        cachedSequence: @escaping @Sendable (String) -> Int64?
    ) {
        self.now = now
        self.machineLimit = machineLimit
        self.eventLimit = eventLimit
        self.excluded = excluded
        self.cachedSequence = cachedSequence
    }
}

/// A machine a worker claimed for one batch of work: held for the transaction on PostgreSQL, checked
/// again when the batch is written on SQLite.
public struct ClaimedMachine: Sendable {
    /// Its row.
    public var record: MachineRow
    /// The journal after its snapshot, for a caller that does not hold the machine in memory at
    /// `record.appliedSequence`; `nil` when it does.
    public var replay: [JournalEntry]?
    /// Its events not applied yet, in the order they were journaled.
    public var pending: [PendingEvent]

    /// A claimed machine from its parts.
    public init(record: MachineRow, replay: [JournalEntry]?, pending: [PendingEvent]) {
        self.record = record
        self.replay = replay
        self.pending = pending
    }
}

/// One machine's row.
public struct MachineRow: Sendable, Hashable {
    /// The machine's identifier.
    public var id: String
    /// When it was created, in nanoseconds since 1970: its time 0.
    public var epoch: Int64
    /// The number of the last journal entry applied; 0 before the machine started.
    public var appliedSequence: Int64
    /// The number of the last journal entry in ``snapshot``; 0 without a snapshot.
    public var snapshotSequence: Int64
    /// The machine's archive (`MachineArchive` as JSON) at ``snapshotSequence``.
    public var snapshot: String?
    /// The active states after ``appliedSequence``, for people reading the table.
    public var configuration: String
    /// Whether it is running or finished, for people reading the table.
    public var status: String

    /// A row from its parts.
    public init(
        id: String, epoch: Int64, appliedSequence: Int64, snapshotSequence: Int64, snapshot: String?,
        configuration: String, status: String
    ) {
        self.id = id
        self.epoch = epoch
        self.appliedSequence = appliedSequence
        self.snapshotSequence = snapshotSequence
        self.snapshot = snapshot
        self.configuration = configuration
        self.status = status
    }
}

/// An acknowledged event that no worker has applied yet.
public struct PendingEvent: Sendable, Hashable {
    /// Its position in the store's journal.
    public var position: Int64
    /// Its identifier.
    public var eventID: String
    /// The event, as JSON.
    public var payload: String
    /// What it is: an event, or how an activity of the machine ended.
    public var kind: JournalEntry.Kind

    /// A pending event from its parts.
    public init(position: Int64, eventID: String, payload: String, kind: JournalEntry.Kind = .event) {
        self.position = position
        self.eventID = eventID
        self.payload = payload
        self.kind = kind
    }
}

/// One applied entry of a machine's journal: what replaying it does, at which time of the machine.
public struct JournalEntry: Sendable, Hashable {
    /// Its number in the machine's journal, from 1; `nil` for an event not applied yet.
    public var sequence: Int64?
    /// What it does.
    public var kind: Kind
    /// The machine's time when it was applied, in nanoseconds since the machine's epoch.
    public var time: Int64
    /// The event's identifier (events only).
    public var eventID: String?
    /// The event as JSON (events only).
    public var payload: String?

    /// What an entry does when the machine is replayed.
    public enum Kind: Int, Sendable, Hashable {
        /// Advance to ``time`` and deliver the event.
        case event = 0
        /// Advance to ``time``: the timers due by then fire.
        case advance = 1
        /// Advance to ``time`` and start the machine.
        case start = 2
        /// Advance to ``time`` and deliver how one of the machine's activities ended (its event,
        /// or its failure), which the machine drops if it left the activity's state since.
        case outcome = 3
    }

    /// An entry from its parts.
    public init(sequence: Int64?, kind: Kind, time: Int64, eventID: String? = nil, payload: String? = nil) {
        self.sequence = sequence
        self.kind = kind
        self.time = time
        self.eventID = eventID
        self.payload = payload
    }
}

/// What applying a claimed machine's work changed, for the store to write in the same transaction.
public struct MachineUpdate: Sendable {
    /// The machine.
    public var id: String
    /// Its new last applied entry.
    public var appliedSequence: Int64
    /// Pending events now applied: their position, number and time.
    public var appliedEvents: [AppliedEvent]
    /// New entries that are not events (start, advances of time).
    public var newEntries: [JournalEntry]
    /// A new snapshot, at ``appliedSequence``.
    public var snapshot: String?
    /// The active states, for the row.
    public var configuration: String
    /// Running or finished, for the row.
    public var status: String
    /// The machine's pending timers, when they changed; `nil` when they did not.
    public var timers: [TimerRow]?
    /// Delete applied journal entries up to this number (compaction).
    public var compactThrough: Int64?
    /// The effects of the applied steps to deliver, for the outbox: write each with its
    /// ``OutboxEntry/attempts`` and ``OutboxEntry/dueAt``, since an entry the writing worker
    /// delivers itself comes already claimed (its first attempt counted, due at its lease's end).
    public var outbox: [OutboxEntry]
    /// Events the applied steps sent to machines of the same fleet: journaled in the same
    /// transaction (a machine named for the first time is created), each with its effect's key as
    /// its identifier, so that it is journaled exactly once.
    public var sends: [IncomingEvent]
    /// The identifiers of delayed sends the applied steps cancelled: the machine's outbox entries
    /// with these ``OutboxEntry/sendID``s are removed.
    public var cancelledSends: [String]
    /// The invocations the applied steps cancelled (their `InvocationID` numbers, as text): the
    /// machine's activities with these ``OutboxEntry/sendID``s are removed.
    public var cancelledActivities: [String]

    /// An applied pending event.
    public struct AppliedEvent: Sendable, Hashable {
        /// Its position in the store's journal.
        public var position: Int64
        /// Its number in the machine's journal.
        public var sequence: Int64
        /// The machine's time when it was applied.
        public var time: Int64

        /// An applied event from its parts.
        public init(position: Int64, sequence: Int64, time: Int64) {
            self.position = position
            self.sequence = sequence
            self.time = time
        }
    }

    /// An update from its parts.
    public init(
        id: String, appliedSequence: Int64, appliedEvents: [AppliedEvent], newEntries: [JournalEntry],
        snapshot: String?, configuration: String, status: String, timers: [TimerRow]?, compactThrough: Int64?,
        outbox: [OutboxEntry] = [], sends: [IncomingEvent] = [], cancelledSends: [String] = [],
        cancelledActivities: [String] = []
    ) {
        self.cancelledActivities = cancelledActivities
        self.id = id
        self.appliedSequence = appliedSequence
        self.appliedEvents = appliedEvents
        self.newEntries = newEntries
        self.snapshot = snapshot
        self.configuration = configuration
        self.status = status
        self.timers = timers
        self.compactThrough = compactThrough
        self.outbox = outbox
        self.sends = sends
        self.cancelledSends = cancelledSends
    }
}

/// A pending timer of a machine: a state's timeout or a delayed event.
public struct TimerRow: Sendable, Hashable {
    /// The timer's number in its machine.
    public var serial: Int64
    /// What it delivers: the timeout's or the event's name.
    public var name: String
    /// When it falls due, in nanoseconds since 1970.
    public var dueAt: Int64

    /// A timer row from its parts.
    public init(serial: Int64, name: String, dueAt: Int64) {
        self.serial = serial
        self.name = name
        self.dueAt = dueAt
    }
}

/// A machine as saved: its row and its journal after the snapshot.
public struct MachineRecord: Sendable {
    /// The row.
    public var row: MachineRow
    /// The applied entries after the snapshot, in order.
    public var journal: [JournalEntry]
    /// Its pending timers, soonest first.
    public var timers: [TimerRow]

    /// A record from its parts.
    public init(row: MachineRow, journal: [JournalEntry], timers: [TimerRow]) {
        self.row = row
        self.journal = journal
        self.timers = timers
    }
}

/// How many machines of a store are in one configuration and status.
public struct MachineCensus: Sendable, Hashable, Codable {
    /// The active states, as the machines' rows write them.
    public var configuration: String
    /// Running, finished or not started.
    public var status: String
    /// How many machines.
    public var count: Int

    /// A census line from its parts.
    public init(configuration: String, status: String, count: Int) {
        self.configuration = configuration
        self.status = status
        self.count = count
    }
}

/// Work waiting in a store.
public struct Backlog: Sendable, Hashable {
    /// Events acknowledged and not applied yet.
    public var pendingEvents: Int
    /// Timers due and not fired yet.
    public var dueTimers: Int
    /// Outbox entries due and not delivered yet (dead letters left out).
    public var dueEffects: Int
    /// Outbox entries that exhausted their retry policy.
    public var deadLetters: Int

    /// A backlog from its parts.
    public init(pendingEvents: Int, dueTimers: Int, dueEffects: Int = 0, deadLetters: Int = 0) {
        self.pendingEvents = pendingEvents
        self.dueTimers = dueTimers
        self.dueEffects = dueEffects
        self.deadLetters = deadLetters
    }

    /// Whether no work is waiting: no event pending, no timer and no effect due. Dead letters
    /// wait for an operator, not for a worker, and do not count.
    public var isEmpty: Bool { pendingEvents == 0 && dueTimers == 0 && dueEffects == 0 }
}
#endif
