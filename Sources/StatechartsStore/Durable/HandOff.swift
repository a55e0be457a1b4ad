#if Store
/// The effects a fleet's own steps wrote to the outbox already claimed, waiting for the fleet's
/// delivery loop: a loop of the process whose step wrote an effect delivers it without claiming
/// it in a transaction of its own.
///
/// The outbox row is the truth: it was written with its first attempt counted and due at the end
/// of its lease, so if this process dies before delivering it, any worker claims it once the
/// lease is over, with the same key. The hand-off is only kept while a delivery loop runs
/// (``DurableMachines/run()``), and holds at most two batches, so that an entry waits here far
/// less than its lease.
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

    /// Removes and returns the first `limit` entries.
    mutating func next(_ limit: Int) -> [OutboxEntry] {
        let count = min(max(0, limit), entries.count)
        let batch = Array(entries.prefix(count))
        entries.removeFirst(count)
        return batch
    }
}
#endif
