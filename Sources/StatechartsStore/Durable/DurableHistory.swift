#if Store
import Statecharts

/// What a stored machine went through, replayed from the journal the store keeps:
/// ``DurableMachines/history(of:keepingLast:)``. Read-only: replaying writes nothing, and delivers no effect.
///
/// The replay starts where the store can start it: from the machine's creation when the journal
/// is kept from its first entry (``JournalCompaction/never``, or a machine younger than the
/// compaction's window), or else from the machine's snapshot, the entries kept before it counted
/// in ``entriesBeforeStart``.
///
/// Each snapshot keeps a context of its own. A document's data model is kept in its archived form
/// (a JavaScript virtual machine is a reference, which the replay goes on changing): its values
/// are there to read, and it runs nothing.
public struct DurableHistory<State: Hashable, Event, Context> {
    /// The machine's identifier.
    public var machine: String
    /// The journal sequence the replay starts after: 0 from the machine's creation, or the
    /// sequence of the snapshot it starts from.
    public var startsAfter: Int64
    /// How many entries the store still keeps before ``startsAfter``, which the replay cannot
    /// reach: their machine is not kept.
    public var entriesBeforeStart: Int
    /// The machine where the replay starts: new, or as its snapshot saved it.
    public var initial: MachineSnapshot<State, Context>
    /// The applied entries after ``startsAfter``, in order, each with the machine after it: the
    /// last ones, as many as the call kept.
    public var steps: [Step]
    /// How many applied entries before the first of ``steps`` were replayed and not kept.
    public var stepsLeftOut: Int
    /// Events acknowledged and not applied yet, in the order they will be: their identifiers.
    public var pendingEventIDs: [String]

    /// One journal entry, replayed.
    public struct Step {
        /// Its number in the machine's journal.
        public var sequence: Int64
        /// What it does: start, an event, an activity's outcome, or time passing.
        public var kind: JournalEntry.Kind
        /// The machine's time when it was applied.
        public var time: Duration
        /// The event's identifier, as it was acknowledged (events only).
        public var eventID: String?
        /// The event the machine took: the journal's, or the one an activity's outcome made;
        /// `nil` for the start and for time passing, and for a payload the fleet's types do not
        /// decode (only the time passes then, as when it was applied).
        public var event: Event?
        /// The machine after it, with the microsteps it took (`MachineSnapshot.microsteps`).
        public var snapshot: MachineSnapshot<State, Context>
        /// What the machine threw, as it threw it when the entry was first applied; `nil` when
        /// nothing did.
        public var failure: String?

        /// A step from its parts.
        public init(
            sequence: Int64, kind: JournalEntry.Kind, time: Duration, eventID: String?, event: Event?,
            snapshot: MachineSnapshot<State, Context>, failure: String?
        ) {
            self.sequence = sequence
            self.kind = kind
            self.time = time
            self.eventID = eventID
            self.event = event
            self.snapshot = snapshot
            self.failure = failure
        }
    }

    /// A history from its parts.
    public init(
        machine: String, startsAfter: Int64, entriesBeforeStart: Int, initial: MachineSnapshot<State, Context>,
        steps: [Step], stepsLeftOut: Int, pendingEventIDs: [String]
    ) {
        self.machine = machine
        self.startsAfter = startsAfter
        self.entriesBeforeStart = entriesBeforeStart
        self.initial = initial
        self.steps = steps
        self.stepsLeftOut = stepsLeftOut
        self.pendingEventIDs = pendingEventIDs
    }
}

extension DurableHistory: Sendable where State: Sendable, Event: Sendable, Context: Sendable {}

extension DurableHistory.Step: Sendable where State: Sendable, Event: Sendable, Context: Sendable {}
#endif
