#if Store
/// How ``DurableMachines`` batches, snapshots and compacts.
public struct DurableOptions: Sendable, Hashable {
    /// A snapshot (the machine's `MachineArchive`) is saved after this many journal entries; a
    /// machine is recovered from its latest snapshot plus the entries after it.
    public var snapshotInterval: Int
    /// What happens to journal entries older than a snapshot.
    public var compaction: JournalCompaction
    /// At most this many machines per transaction of a worker; `nil` (the default) for what the
    /// fleet's store prefers (``MachineStore/preferredMachinesPerBatch``: 2,048 on SQLite, 256 on
    /// PostgreSQL).
    public var machinesPerBatch: Int?
    /// At most this many pending events of one machine per transaction.
    public var eventsPerMachine: Int
    /// At most this many events journaled per transaction of ``DurableMachines/send(_:to:id:)``:
    /// sends that arrive while a transaction commits wait and share the next one (group commit).
    public var eventsPerCommit: Int
    /// How long a worker with nothing to do waits before it looks again (for events journaled by
    /// other processes and timers that fall due).
    public var pollInterval: Duration
    /// At most this many machines kept in memory between transactions; beyond it, the cache starts
    /// again empty (a machine not in memory is rebuilt from its snapshot and journal).
    public var cachedMachines: Int
    /// How effects are retried, for every kind without a policy in ``retryByKind``.
    public var retry: RetryPolicy
    /// How effects of some kinds are retried, when not as ``retry`` says.
    public var retryByKind: [EffectKind: RetryPolicy]
    /// At most this many effects claimed for delivery at once by one worker.
    public var effectsPerBatch: Int
    /// How much longer than its policy's time limit a worker holds an effect it is delivering:
    /// another worker tries it again only after that, when the first one died.
    public var leaseMargin: Duration
    /// How often a worker running an activity asks the store whether the activity was cancelled by
    /// a worker of another process (its state was exited there); in this process, it learns at
    /// once.
    public var activityCheckInterval: Duration

    /// Options from their parts; the defaults suit a fleet of thousands of machines.
    public init(
        snapshotInterval: Int = 100, compaction: JournalCompaction = .afterSnapshot(keepingLast: 1000),
        machinesPerBatch: Int? = nil, eventsPerMachine: Int = 64, eventsPerCommit: Int = 2048,
        pollInterval: Duration = .milliseconds(20), cachedMachines: Int = 100_000, retry: RetryPolicy = RetryPolicy(),
        retryByKind: [EffectKind: RetryPolicy] = [:], effectsPerBatch: Int = 256, leaseMargin: Duration = .seconds(5),
        activityCheckInterval: Duration = .seconds(1)
    ) {
        self.activityCheckInterval = activityCheckInterval
        self.snapshotInterval = snapshotInterval
        self.compaction = compaction
        self.machinesPerBatch = machinesPerBatch
        self.eventsPerMachine = eventsPerMachine
        self.eventsPerCommit = eventsPerCommit
        self.pollInterval = pollInterval
        self.cachedMachines = cachedMachines
        self.retry = retry
        self.retryByKind = retryByKind
        self.effectsPerBatch = effectsPerBatch
        self.leaseMargin = leaseMargin
    }

    /// The retry policy of effects of `kind`.
    public func retryPolicy(for kind: EffectKind) -> RetryPolicy { retryByKind[kind] ?? retry }

    /// The shortest time limit of any policy: how long a delivery's watchdog may sleep.
    var shortestTimeLimit: Duration {
        retryByKind.values.reduce(retry.timeLimit) { min($0, $1.timeLimit) }
    }

    /// Checks that every count is positive.
    func validated() throws(StoreError) -> Self {
        let counts = [
            ("snapshotInterval", snapshotInterval), ("machinesPerBatch", machinesPerBatch ?? 1),
            ("eventsPerMachine", eventsPerMachine), ("eventsPerCommit", eventsPerCommit),
            ("cachedMachines", cachedMachines), ("effectsPerBatch", effectsPerBatch),
        ]
        if let (name, value) = counts.first(where: { $0.1 < 1 }) {
            throw .invalidConfiguration("\(name) must be at least 1, not \(value)")
        }
        if case .afterSnapshot(let keep) = compaction, keep < 0 {
            throw .invalidConfiguration("compaction must keep 0 or more entries, not \(keep)")
        }
        if pollInterval <= .zero { throw .invalidConfiguration("pollInterval must be positive") }
        if leaseMargin < .zero { throw .invalidConfiguration("leaseMargin must not be negative") }
        if activityCheckInterval <= .zero { throw .invalidConfiguration("activityCheckInterval must be positive") }
        _ = try retry.validated("retry")
        for (kind, policy) in retryByKind { _ = try policy.validated("retryByKind[.\(kind)]") }
        return self
    }
}

/// What happens to the journal entries that a snapshot already holds.
public enum JournalCompaction: Sendable, Hashable {
    /// Keep every entry: the journal is the machine's whole history.
    case never
    /// When a snapshot is saved, delete the entries it holds but the last `keepingLast`.
    ///
    /// A retried send is recognized by its identifier while its event is still in the journal:
    /// keep enough entries to cover the time within which your clients retry.
    case afterSnapshot(keepingLast: Int)
}
#endif
