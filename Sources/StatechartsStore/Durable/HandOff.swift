#if Store
/// The effects a fleet's own steps wrote to the outbox already claimed, waiting for the fleet's
/// delivery loop: a loop of the process whose step wrote an effect delivers it without claiming
/// it in a transaction of its own.
///
/// The outbox row is the truth: it was written with its first attempt counted and due at the end
/// of its lease, so if this process dies before delivering it, any worker claims it once the
/// lease is over, with the same key. The hand-off is only kept while a delivery loop runs
/// (``DurableMachines/run()``), and a step hands off only while it holds fewer entries than
/// ``capacity(effectsPerBatch:machineLimit:)``, so that an entry waits here far less than its
/// lease.
struct HandOff: Sendable {
    /// How many delivery loops of the fleet run now: steps hand off effects only while one does.
    var loops = 0
    /// The entries, in the order their steps wrote them.
    private(set) var entries: [OutboxEntry] = []

    /// Takes the committed `updates`' entries written claimed (those with an attempt counted),
    /// after dropping the entries held here that a later step cancelled.
    ///
    /// - Returns: Whether any entry was added.
    mutating func take(_ updates: [MachineUpdate]) -> Bool {
        for update in updates where !update.cancelledSends.isEmpty && !entries.isEmpty {
            let cancelled = Set(update.cancelledSends)
            entries.removeAll { entry in
                entry.key.machine == update.id && entry.kind != OutboxEntry.activityKind
                    && entry.sendID.map(cancelled.contains) == true
            }
        }
        let before = entries.count
        for update in updates {
            for entry in update.outbox where entry.attempts > 0 { entries.append(entry) }
        }
        return entries.count > before
    }

    /// How many entries the hand-off may hold before a transaction's steps hand off theirs: two
    /// delivery batches, or two entries per machine the transaction claims when that is more.
    ///
    /// A transaction of many machines (a store that prefers large batches, such as SQLite)
    /// writes as many effects; below this, most of them were written unclaimed, and then claimed
    /// again in transactions of their own. An entry that waits here longer than its lease allows
    /// is left to the store (``next(_:now:timeLimit:)``).
    static func capacity(effectsPerBatch: Int, machineLimit: Int) -> Int {
        let (effects, effectsOverflow) = max(effectsPerBatch, machineLimit).multipliedReportingOverflow(by: 2)
        return effectsOverflow ? Int.max : effects
    }

    /// Removes and returns the first `limit` entries whose lease, at `now`, still outlasts an
    /// attempt (`timeLimit` of their kind, in nanoseconds); only the entries up to the last one
    /// taken are looked at.
    ///
    /// An entry held longer (its delivery loop fell behind a slow handler) is dropped from the
    /// hand-off, not attempted: its lease could end during the attempt, and another worker claim
    /// it at the same time. It stays in the outbox, where any worker claims it once its lease is
    /// over.
    mutating func next(_ limit: Int, now: Int64, timeLimit: (String) -> Int64) -> [OutboxEntry] {
        var batch: [OutboxEntry] = []
        var looked = 0
        while batch.count < limit, looked < entries.count {
            let entry = entries[looked]
            looked += 1
            if entry.dueAt &- now >= timeLimit(entry.kind) { batch.append(entry) }
        }
        entries.removeFirst(looked)
        return batch
    }
}
#endif
