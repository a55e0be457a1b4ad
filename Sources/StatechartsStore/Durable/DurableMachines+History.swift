#if Store
import Foundation
import Statecharts

extension DurableMachines {
    /// What machine `id` went through, replayed from the journal the store keeps, each entry with
    /// the machine after it and the microsteps it took: what the inspector draws for a stored
    /// machine. `nil` for a machine no event was sent to.
    ///
    /// Read-only: the replay runs in memory, writes nothing to the store and delivers no effect
    /// (what the entries asked for went to the outbox when they were first applied). It is the
    /// replay a worker does when it rebuilds the machine, so its last step is the machine
    /// ``machine(_:)`` returns.
    ///
    /// The replay runs over every entry, but keeps at most `count` of the last steps: a machine
    /// whose journal is never compacted may have millions. ``DurableHistory/stepsLeftOut`` says
    /// how many were replayed and not kept.
    ///
    /// - Parameters:
    ///   - id: The machine.
    ///   - count: How many of the last steps to keep (1,000 by default); at least 1.
    /// - Throws: ``StoreError`` when the store cannot be read, or the snapshot the replay starts
    ///   from cannot be decoded (``StoreError/unreadableMachine(machine:reason:)``).
    public func history(
        of id: String, keepingLast count: Int = 1_000
    ) async throws(StoreError) -> DurableHistory<State, Event, Context>? {
        let count = max(1, count)
        // The row and the journal are two reads: a worker that snapshots and compacts between
        // them can leave the journal without the entries right after the row's snapshot. Read
        // again then, rather than replay across the gap.
        var read: (row: MachineRow, journal: [JournalEntry])?
        for _ in 0..<3 where read == nil {
            guard let record = try await store.record(of: id) else { return nil }
            let journal = try await store.journal(of: id)
            let after = record.row.snapshotSequence
            let continues =
                record.row.snapshot == nil || journal.first?.sequence == 1
                || journal.contains { $0.sequence == after + 1 } || !journal.contains { ($0.sequence ?? 0) > after }
            if continues { read = (record.row, journal) }
        }
        guard let read else {
            throw .unreadableMachine(machine: id, reason: "its journal changed three times while it was read")
        }
        let savedRow = read.row
        let journal = read.journal
        let applied = journal.filter { $0.sequence != nil }
        // From the creation when the journal still starts at the first entry (or there is no
        // snapshot to start from), else from the snapshot.
        let fromCreation = savedRow.snapshot == nil || applied.first?.sequence == 1
        var row = savedRow
        if fromCreation { row.snapshot = nil }
        let start = fromCreation ? Int64(0) : row.snapshotSequence
        let machine = try startingMachine(row)
        var initial = machine.snapshot
        adapter.detach(&initial.context)
        let decoder = adapter.makeDecoder()
        var host = Host(machine: machine, router: DurableEffects(), clock: StoreClock())
        // The last `count` steps, in a ring: the oldest is overwritten once it is full.
        var steps: [DurableHistory<State, Event, Context>.Step] = []
        var replayed = 0
        for entry in applied {
            guard let sequence = entry.sequence, sequence > start else { continue }
            let step = Self.step(entry.kind, payload: entry.payload, decoder)
            var recorder = MachineRecorder<State, Event>()
            let failure = replay(step, time: entry.time, in: &host, recorder: &recorder, records: true)
            _ = host.router.take()
            var snapshot = host.machine.snapshot
            snapshot.microsteps = recorder.microsteps
            adapter.detach(&snapshot.context)
            let replayedStep = DurableHistory<State, Event, Context>.Step(
                sequence: sequence, kind: entry.kind, time: .nanoseconds(entry.time), eventID: entry.eventID,
                event: step.event, snapshot: snapshot, failure: failure)
            if steps.count < count {
                steps.append(replayedStep)
            } else {
                steps[replayed % count] = replayedStep
            }
            replayed += 1
        }
        if replayed > count { steps = Array(steps[(replayed % count)...] + steps[..<(replayed % count)]) }
        return DurableHistory(
            machine: id, startsAfter: start,
            entriesBeforeStart: applied.count { ($0.sequence ?? 0) <= start },
            initial: initial, steps: steps, stepsLeftOut: replayed - steps.count,
            pendingEventIDs: journal.filter { $0.sequence == nil }.compactMap(\.eventID)
        )
    }
}

extension DurableMachines.Step {
    /// The event the entry carries, when it decoded.
    var event: Event? {
        switch self {
        case .event(let event): event
        case .outcome(let outcome): outcome?.event
        case .start, .advance: nil
        }
    }
}
#endif
