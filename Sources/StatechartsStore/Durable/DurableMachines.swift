#if Store
import Foundation
import Statecharts

/// A fleet of machines of one chart that outlive the process: every acknowledged event is in a
/// ``MachineStore`` before ``send(_:to:id:)`` returns, is applied exactly once and in order per
/// machine, and every timer fires, after a crash and restart too.
///
/// The chart is a typed `Statechart`, or an SCXML document
/// (``init(document:store:options:limits:clock:deliver:invokers:activities:onError:)``).
///
/// ```swift
/// let store = try SQLiteMachineStore(path: "orders.sqlite")
/// let orders = try DurableMachines(chart: checkout, store: store) { id in Order(id: id) }
/// try await orders.send(.pay(amount: 30), to: "order-17", id: "request-4711")
/// try await orders.run()    // applies events and fires timers until cancelled
/// ```
///
/// A machine is created by the first event sent to it and started when a worker first applies its
/// work. Workers (``run()``, or ``process()`` and ``drain()`` called by hand) claim machines with
/// work in transactions of the store: one worker at a time writes a machine, and what it applied
/// is committed with the events' new numbers, the machine's timers and, every
/// ``DurableOptions/snapshotInterval`` entries, a snapshot. Any number of `DurableMachines` on the
/// same store, in any number of processes, share the fleet (with a store that serves several
/// processes: `PostgresMachineStore`).
///
/// Time: a machine's time is the wall clock since its creation, so a timer set for 10 seconds falls
/// due 10 seconds later, whichever process is running then; a timer that fell due while no worker
/// ran fires when one next claims the machine, at its own deadline in the machine's time (the
/// `OverdueTimerPolicy.fire` policy of archives).
///
/// Replaying a journal must give the machine it gave the first time: guards and actions must be
/// deterministic (no clocks, no random numbers, no I/O).
///
/// Effects: what a step asks of the world is written to the store's outbox in the transaction
/// that applies the step, and workers hand it to `deliver` after the commit: at least once, with a
/// key that is the same on every attempt, retried as ``DurableOptions/retry`` says, and kept as a
/// dead letter when its policy is exhausted. An event sent to another machine of the fleet (a plain
/// target, as a member of a live system is addressed) is not an effect: it is journaled into that
/// machine's queue in the same transaction, exactly once.
public final class DurableMachines<State, Event, Context>: Sendable
where
    State: Hashable & Codable & Sendable, Event: StatechartEvent & Codable & Sendable,
    Event.Kind: Hashable & Sendable, Context: Codable & Sendable
{
    /// A machine of the fleet's chart.
    public typealias Machine = StateMachine<State, Event, Context>
    /// One attempt to deliver one of the fleet's effects.
    public typealias Delivery = EffectDelivery<State, Event, Context>
    /// A machine in the host that applies its steps: on the store's clock, its effects kept for
    /// the step's outbox entries.
    typealias Host = MachineHost<DurableEffects<State, Event, Context>, StoreClock>
    /// An effect a step wrote to the outbox, as a value, with its key and its JSON.
    typealias StagedEffect = OutboxStaging<State, Event, Context>.StagedEffect

    /// The chart every machine runs.
    public let chart: Statechart<State, Event, Context>
    /// Where the machines are kept.
    public let store: any MachineStore
    /// Batching, snapshots and compaction.
    public let options: DurableOptions

    let initialContext: @Sendable (String) -> Context
    /// How the fleet reads its chart's values and readies its machines.
    let adapter: DurableChartAdapter<State, Event, Context>
    let clock: @Sendable () -> Int64
    /// Where effects are delivered; `nil` keeps only sends to other machines of the fleet.
    let deliver: (@Sendable (Delivery) async throws -> Void)?
    /// The activities registered by the name of their `Invoke`.
    let activities: [String: DurableActivity<State, Event, Context>]
    /// How to stop each activity that a worker of this object runs now, by machine and invocation
    /// (``activityHandle(machine:invocation:)``): a step that exits its state stops it at once.
    let runningActivities = Locked([String: @Sendable () -> Void]())
    let onError: @Sendable (String, String) -> Void
    let cache = Locked([String: CachedMachine]())
    /// The events this object journaled, by journal position, and the effects its steps
    /// committed to the outbox, by key: a worker of this object reads them back without decoding.
    let sentEvents = DecodedValueCache<Int64, Event>(limit: 65_536)
    let stagedEffects = DecodedValueCache<EffectKey, DurableEffect<State, Event, Context>>(limit: 65_536)
    /// The machines found unreadable, reported once and not claimed again by this object.
    let unreadable = Locked(Set<String>())
    /// The text of each configuration met so far (at most 4,096): describing a configuration
    /// reflects on every state, which costs more than looking it up.
    let descriptions = Locked([DescriptionKey: String]())
    let signal = WakeSignal()
    /// Wakes the delivery loops of ``run()`` when a transaction wrote effects that are due.
    let effectSignal = WakeSignal()
    /// The effects this object's steps wrote already claimed, for its delivery loop, while
    /// ``run()`` runs one (``HandOff``).
    let handOff = Locked(HandOff())
    let commits: GroupCommit
    /// How many machines the next transaction claims: ``DurableOptions/machinesPerBatch`` (or the
    /// store's ``MachineStore/preferredMachinesPerBatch``), halved after a transaction the
    /// database failed (one that ran past the store's time limit, say) and doubled back after 16
    /// in a row that commit, so that a batch too slow to commit in time (of machines rebuilt from
    /// long journals, or documents whose data models start anew)
    /// shrinks until it commits instead of failing the same way for ever.
    let batchLimit: Locked<BatchLimit>

    struct DescriptionKey: Hashable, Sendable {
        var configuration: [State]
        var status: MachineStatus
    }

    struct CachedMachine: Sendable {
        var machine: Machine
        var sequence: Int64
    }

    /// A fleet of `chart`'s machines in `store`.
    ///
    /// - Parameters:
    ///   - chart: The chart every machine runs.
    ///   - store: Where the machines are kept.
    ///   - options: Batching, snapshots and compaction.
    ///   - clock: The time now, in nanoseconds since 1970 (the system's real-time clock by default;
    ///     tests pass their own).
    ///   - deliver: Delivers one effect (an event sent outside the fleet, a log record, an
    ///     invocation to start or stop), after the transaction of the step that asked for it
    ///     commits. Called at least once per effect, in any worker, with the effect's key, until
    ///     it returns without throwing or its ``RetryPolicy`` is exhausted; cancelled after the
    ///     policy's time limit. Without it, only sends to other machines of the fleet, and
    ///     activities, are kept. Of the invocations, it is given only those the chart describes
    ///     for a runtime to start, with no activity registered under their name; it is given
    ///     every cancellation (``DurableEffect/cancelInvocation(_:)``): ignore those you did not
    ///     start.
    ///   - activities: Work run by the fleet's workers for the invocations of the `Invoke` with
    ///     that name, at least once (see ``DurableActivity``). An `Invoke` with work of its own
    ///     and no activity registered runs that work the same way (it gets no key: register an
    ///     activity to have one); an invocation with neither fails (`error.execution`).
    ///   - onError: Called with a machine's identifier and a description when an event cannot be
    ///     decoded or a step fails (the microstep limit): the entry stays in the journal and
    ///     replays the same way. Also called, once, for a machine that cannot be read back (its
    ///     snapshot does not decode with this chart): this object then leaves the machine and its
    ///     pending events alone, so that it does not hold up the others; a process with a chart
    ///     that reads it (or an operator) takes it up. Called with an empty identifier when the
    ///     database fails under ``run()``, which goes on after a pause.
    ///   - initialContext: The context of a new machine, from its identifier.
    @inlinable
    public convenience init(
        chart: Statechart<State, Event, Context>, store: any MachineStore, options: DurableOptions = DurableOptions(),
        clock: @escaping @Sendable () -> Int64 = DurableMachines.systemTime,
        deliver: (@Sendable (EffectDelivery<State, Event, Context>) async throws -> Void)? = nil,
        activities: [String: DurableActivity<State, Event, Context>] = [:],
        onError: @escaping @Sendable (String, String) -> Void = { _, _ in },
        initialContext: @escaping @Sendable (String) -> Context
    ) throws(StoreError) {
        // Inlined into the app, so that the steps are made, and specialised, for its own types.
        try self.init(
            chart: chart, store: store, options: options, clock: clock, deliver: deliver, activities: activities,
            onError: onError, stepper: DurableStepper(), initialContext: initialContext)
    }

    /// A fleet of a typed chart whose machines take their steps through `stepper`.
    @usableFromInline
    convenience init(
        chart: Statechart<State, Event, Context>, store: any MachineStore, options: DurableOptions,
        clock: @escaping @Sendable () -> Int64,
        deliver: (@Sendable (EffectDelivery<State, Event, Context>) async throws -> Void)?,
        activities: [String: DurableActivity<State, Event, Context>],
        onError: @escaping @Sendable (String, String) -> Void, stepper: DurableStepper<State, Event, Context>,
        initialContext: @escaping @Sendable (String) -> Context
    ) throws(StoreError) {
        var adapter = DurableChartAdapter<State, Event, Context>()
        adapter.stepper = stepper
        try self.init(
            chart: chart, store: store, options: options, clock: clock, deliver: deliver, activities: activities,
            onError: onError, adapter: adapter, initialContext: initialContext)
    }

    /// A fleet whose chart's values are read, and machines readied, as `adapter` says.
    init(
        chart: Statechart<State, Event, Context>, store: any MachineStore, options: DurableOptions,
        clock: @escaping @Sendable () -> Int64,
        deliver: (@Sendable (EffectDelivery<State, Event, Context>) async throws -> Void)?,
        activities: [String: DurableActivity<State, Event, Context>],
        onError: @escaping @Sendable (String, String) -> Void, adapter: DurableChartAdapter<State, Event, Context>,
        initialContext: @escaping @Sendable (String) -> Context
    ) throws(StoreError) {
        self.adapter = adapter
        self.chart = chart
        self.store = store
        self.options = try options.validated()
        self.clock = clock
        self.deliver = deliver
        self.activities = activities
        self.onError = onError
        self.initialContext = initialContext
        batchLimit = Locked(
            BatchLimit(largest: self.options.machinesPerBatch ?? max(1, store.preferredMachinesPerBatch)))
        let signal = signal
        commits = GroupCommit(store: store, limit: options.eventsPerCommit) { signal.wake() }
    }

    /// The system's real-time clock, in nanoseconds since 1970.
    @Sendable public static func systemTime() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec)
    }

    // MARK: - Sending

    /// Journals `event` for the machine `machine` and returns once it is in the store: from then
    /// on it will be applied, exactly once, after the events acknowledged to this machine before.
    ///
    /// Sends from many tasks at once share transactions (group commit), so throughput grows with
    /// the number of concurrent senders.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - machine: The machine's identifier; a new identifier creates the machine.
    ///   - id: The event's identifier, unique per machine: send a retry with the same identifier,
    ///     and it is recognized (``Admission/duplicate``) rather than applied twice. A new UUID
    ///     when `nil`.
    /// - Returns: ``Admission/journaled(position:)``, or ``Admission/duplicate`` for a retry.
    @discardableResult
    public func send(_ event: Event, to machine: String, id: String? = nil) async throws(StoreError) -> Admission {
        let payload: String
        do {
            payload = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        } catch {
            throw .encoding("\(error)")
        }
        let admission = try await commits.submit(
            IncomingEvent(
                machine: machine, eventID: id ?? UUID().uuidString, payload: payload, acknowledgedAt: clock()))
        if adapter.reusesEncodedValues, case .journaled(let position) = admission {
            sentEvents.keep(event, as: payload, for: position)
        }
        return admission
    }

    // MARK: - Working

    /// Applies events, fires timers and delivers effects until the task is cancelled: one loop
    /// claims machines with work, another delivers the effects that are due; each waits up to
    /// ``DurableOptions/pollInterval`` (or until it is given work) when there is none. Work is
    /// given by this object's own sends and steps, and, on a store that notifies
    /// (``MachineStore/notifiesChanges``: PostgreSQL's `LISTEN`/`NOTIFY`), by every other
    /// process's; polling then remains for timers that fall due, and as a fallback.
    ///
    /// A database that fails does not end it: each failure is reported to `onError` (with an empty
    /// machine identifier) and the loop tries again after a pause, so that workers ride out a
    /// server's restart or a dropped connection.
    ///
    /// - Throws: ``StoreError`` when the store fails otherwise (its tables are of a newer schema,
    ///   say); cancellation ends it without an error.
    public func run() async throws(StoreError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.applyUntilCancelled() }
                group.addTask { try await self.deliverUntilCancelled() }
                if store.notifiesChanges { group.addTask { await self.listenUntilCancelled() } }
                // The first loop to end ends the others: cancelled, or the store failed.
                try await group.next()
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch let error as StoreError {
            throw error
        } catch {
            if Task.isCancelled { return }
            throw .database(store: "DurableMachines", operation: "running", message: "\(error)")
        }
    }

    /// Wakes this object's loops when the store notifies of work that any process committed, and
    /// listens again, a second later, when the connection fails; the loops' polling finds the work
    /// meanwhile.
    func listenUntilCancelled() async {
        let signal = signal
        let effectSignal = effectSignal
        while !Task.isCancelled {
            do {
                try await store.listen { change in
                    switch change {
                    case .events: signal.wake()
                    case .effects: effectSignal.wake()
                    }
                }
            } catch {
                if Task.isCancelled { return }
                onError("", "the store's notifications stopped, and are listened to again in a second: \(error)")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    func applyUntilCancelled() async throws(StoreError) {
        try await repeatUntilCancelled(waitingOn: signal) { () async throws(StoreError) in try await process() }
    }

    func deliverUntilCancelled() async throws(StoreError) {
        handOff.withLock { $0.loops += 1 }
        defer { handOff.withLock { $0.loops -= 1 } }
        try await repeatUntilCancelled(waitingOn: effectSignal) { () async throws(StoreError) in
            try await deliverEffects()
        }
    }

    /// Does `work` until the task is cancelled, waiting on `signal` (or the poll interval) each
    /// time it found nothing to do.
    ///
    /// A database that fails (``StoreError/database(store:operation:message:)``: a server
    /// restarted, a connection cut) does not end it: the failure goes to `onError` and the work is
    /// tried again after a pause that doubles from 50 ms up to 5 s, while nothing succeeds. The
    /// transaction that failed rolled back, or committed without its reply reaching the worker;
    /// either way the journal and the outbox say what is left to do.
    private func repeatUntilCancelled(
        waitingOn signal: WakeSignal, _ work: () async throws(StoreError) -> Int
    ) async throws(StoreError) {
        var pause = Duration.milliseconds(50)
        while !Task.isCancelled {
            let done: Int
            do {
                done = try await work()
                pause = .milliseconds(50)
            } catch {
                // A transaction interrupted by the cancellation rolled back: nothing to report.
                if Task.isCancelled { return }
                guard case .database = error else { throw error }
                onError("", "\(error); trying again in \(pause)")
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
                continue
            }
            if done == 0 { await signal.wait(upTo: options.pollInterval) }
        }
    }

    /// Applies the work of up to ``DurableOptions/machinesPerBatch`` machines (by default, the
    /// store's ``MachineStore/preferredMachinesPerBatch``) in one transaction: their pending
    /// events, and their timers due now. After a transaction the database failed, the next claims
    /// half as many machines (down to one); 16 that commit in a row double it back.
    ///
    /// - Returns: How many machines it applied work to or found unreadable (reported to
    ///   `onError` and left alone from then on): zero when there was no work for it.
    @discardableResult
    public func process() async throws(StoreError) -> Int {
        let now = clock()
        let staged = Locked([(String, CachedMachine)]())
        let stagedValues = Locked([String: [StagedEffect]]())
        let failures = Locked([(String, String)]())
        let cache = cache
        let unreadable = unreadable
        let newlyUnreadable = Locked(0)
        // A machine the transaction uses is taken out of the cache, and goes back only when the
        // transaction commits: one that rolls back (or is abandoned) leaves no machine that ran
        // ahead of the store, even one whose context is a reference (a document's data model).
        let taken = Locked([String: CachedMachine]())
        // With a delivery loop running here, and room in its hand-off, the effects due now are
        // written claimed, for that loop: it delivers them without claiming them in a transaction.
        let options = options
        let machineLimit = batchLimit.withLock { $0.machines }
        let capacity = HandOff.capacity(effectsPerBatch: options.effectsPerBatch, machineLimit: machineLimit)
        let leases = handOff.withLock { $0.loops > 0 && $0.entries.count < capacity }
        let request = ClaimRequest(
            now: now, machineLimit: machineLimit, eventLimit: options.eventsPerMachine,
            excluded: unreadable.withLock { $0 },
            cachedSequence: { id in
                guard let cached = cache.withLock({ $0.removeValue(forKey: id) }) else { return nil }
                taken.withLock { $0[id] = cached }
                return cached.sequence
            })
        let updates: [MachineUpdate]
        do {
            updates = try await store.process(request) { claimed in
                let decoder = self.adapter.makeDecoder()
                var updates: [MachineUpdate] = []
                updates.reserveCapacity(claimed.count)
                for machine in claimed {
                    let applied: (MachineUpdate, CachedMachine, [String], [StagedEffect])?
                    do {
                        let cached = taken.withLock { $0.removeValue(forKey: machine.record.id) }
                        applied = try self.apply(machine, cached: cached, now: now, decoder: decoder, leases: leases)
                    } catch {
                        // A machine that cannot be read back keeps its work, and is not claimed again
                        // by this object; the others go on.
                        if unreadable.withLock({ $0.insert(machine.record.id).inserted }) {
                            newlyUnreadable.withLock { $0 += 1 }
                            failures.withLock { $0.append((machine.record.id, "\(error)")) }
                        }
                        continue
                    }
                    // Another worker did this machine's work between the scan and the lock.
                    guard let (update, result, problems, values) = applied else { continue }
                    updates.append(update)
                    staged.withLock { $0.append((machine.record.id, result)) }
                    if !values.isEmpty, self.adapter.reusesEncodedValues {
                        stagedValues.withLock { $0[machine.record.id] = values }
                    }
                    if !problems.isEmpty { failures.withLock { $0 += problems.map { (machine.record.id, $0) } } }
                }
                return updates
            }
        } catch {
            // Too many machines to apply within the store's time limit, perhaps: fewer next time.
            if case .database = error { batchLimit.withLock { $0.failed() } }
            throw error
        }
        batchLimit.withLock { $0.committed() }
        // A store that applies outside its write transaction (SQLite) commits only the machines
        // no other worker applied meanwhile: the others' results are not kept.
        let committed = updates.count == staged.withLock({ $0.count }) ? nil : Set(updates.map(\.id))
        let results = staged.withLock { staged in
            committed.map { ids in staged.filter { ids.contains($0.0) } } ?? staged
        }
        cache.withLock { cache in
            if cache.count + results.count > options.cachedMachines { cache.removeAll(keepingCapacity: true) }
            for (id, machine) in results { cache[id] = machine }
        }
        stagedEffects.keep(stagedValues.withLock { values in updates.flatMap { values[$0.id] ?? [] } })
        for (id, message) in failures.withLock({ $0 }) { onError(id, message) }
        for update in updates {
            for invocation in update.cancelledActivities {
                runningActivities.withLock { $0[Self.activityHandle(machine: update.id, invocation: invocation)] }?()
            }
        }
        let handedOff = handOff.withLock { handOff in handOff.take(updates) }
        if handedOff || updates.contains(where: { update in update.outbox.contains { $0.dueAt <= now } }) {
            effectSignal.wake()
        }
        return updates.count + newlyUnreadable.withLock { $0 }
    }

    /// Applies work and delivers effects until no event is pending and no timer or effect is due.
    ///
    /// - Returns: How many rounds (a transaction that applied work, then a delivery of the effects
    ///   due) did something.
    @discardableResult
    public func drain() async throws(StoreError) -> Int {
        var rounds = 0
        while try await process() + deliverEffects() > 0 { rounds += 1 }
        return rounds
    }

    /// Applies a claimed machine's work to it: the machine from memory (`cached`, taken out of the
    /// cache for this transaction) or rebuilt from its snapshot and journal, then started if new,
    /// then its pending events, each at the time now in the machine, or only the passing of time
    /// when it has none. Nil when the machine has no work left: no event pending and no timer due,
    /// as when another worker did it first. One `decoder` serves the whole transaction.
    ///
    /// With `leases`, the effects due now that a delivery loop of this process hands out are
    /// staged already claimed (``OutboxStaging/lease``).
    func apply(
        _ claimed: ClaimedMachine, cached: CachedMachine?, now: Int64, decoder: JSONDecoder, leases: Bool = false
    ) throws(StoreError) -> (MachineUpdate, CachedMachine, [String], [StagedEffect])? {
        let row = claimed.record
        var machine: Machine
        if claimed.replay == nil, let cached, cached.sequence == row.appliedSequence {
            machine = cached.machine
        } else if let replay = claimed.replay {
            machine = try rebuild(row, entries: replay)
        } else {
            // The store found the machine cached, and no journal was read: it cannot be rebuilt
            // in this transaction. It is left as it is, for the next, which reads its journal.
            return nil
        }
        var sequence = row.appliedSequence
        var problems: [String] = []
        let timersBefore = (machine.armedTimerCount, machine.pendingTimerCount)
        let time = max(now &- row.epoch, machine.now.nanosecondsSinceZero)
        if claimed.pending.isEmpty, machine.status != .notStarted,
            !(machine.nextDeadline.map { $0 <= .nanoseconds(time) } ?? false)
        {
            return nil
        }
        var newEntries: [JournalEntry] = []
        var applied: [MachineUpdate.AppliedEvent] = []
        var host = Host(machine: machine, router: DurableEffects(), clock: StoreClock())
        var outbox = OutboxStaging<State, Event, Context>(
            machine: row.id, now: now, keepsEffects: deliver != nil, runsAsActivity: runsAsActivity,
            activityName: adapter.activityName)
        if leases { outbox.lease = leaseTime }
        if machine.status == .notStarted {
            sequence += 1
            newEntries.append(JournalEntry(sequence: sequence, kind: .start, time: time))
            if let problem = replay(.start, time: time, in: &host) { problems.append(problem) }
            outbox.stage(host.router.take(), sequence: sequence)
        }
        for pending in claimed.pending {
            sequence += 1
            applied.append(.init(position: pending.position, sequence: sequence, time: time))
            let step: Step
            if pending.kind == .event, let event = sentEvents.take(pending.position, payload: pending.payload) {
                step = .event(event)
            } else {
                step = Self.step(pending.kind, payload: pending.payload, decoder)
            }
            if step.isUnreadable {
                problems.append("the event \(pending.eventID) cannot be decoded: \(pending.payload)")
            }
            if let problem = replay(step, time: time, in: &host) { problems.append(problem) }
            outbox.stage(host.router.take(), sequence: sequence)
        }
        if claimed.pending.isEmpty && newEntries.isEmpty {
            sequence += 1
            newEntries.append(JournalEntry(sequence: sequence, kind: .advance, time: time))
            if let problem = replay(.advance, time: time, in: &host) { problems.append(problem) }
            outbox.stage(host.router.take(), sequence: sequence)
        }
        problems += outbox.problems
        machine = host.machine
        var snapshot: String?
        var compactThrough: Int64?
        if sequence - row.snapshotSequence >= Int64(options.snapshotInterval) {
            snapshot = try encodeSnapshot(machine, id: row.id)
            if case .afterSnapshot(let keep) = options.compaction, sequence - Int64(keep) > 0 {
                compactThrough = sequence - Int64(keep)
            }
        }
        let timers =
            (machine.armedTimerCount, machine.pendingTimerCount) == timersBefore
            ? nil
            : machine.pendingTimers.map { timer in
                TimerRow(
                    serial: Int64(bitPattern: timer.serial), name: timer.name,
                    dueAt: row.epoch &+ timer.deadline.nanosecondsSinceZero)
            }
        let update = MachineUpdate(
            id: row.id, appliedSequence: sequence, appliedEvents: applied, newEntries: newEntries, snapshot: snapshot,
            configuration: describe(machine), status: machine.status.rawValue, timers: timers,
            compactThrough: compactThrough, outbox: outbox.entries, sends: outbox.sends,
            cancelledSends: outbox.cancelled, cancelledActivities: outbox.cancelledActivities)
        return (update, CachedMachine(machine: machine, sequence: sequence), problems, outbox.values)
    }

    /// The machine's configuration as text (its `description`), from the memo when it was met before.
    func describe(_ machine: Machine) -> String {
        let key = DescriptionKey(configuration: machine.configuration, status: machine.status)
        if let text = descriptions.withLock({ $0[key] }) { return text }
        let text = machine.description
        descriptions.withLock { memo in
            if memo.count >= 4096 { memo.removeAll(keepingCapacity: true) }
            memo[key] = text
        }
        return text
    }

    /// What one journal entry does to its machine.
    enum Step {
        /// Start the machine.
        case start
        /// Deliver the event; `nil` when it does not decode (only the time passes).
        case event(Event?)
        /// Deliver how an activity ended, or an event its work sent on the way; `nil` when it does
        /// not decode (only the time passes).
        case outcome(ActivityOutcome<Event>?)
        /// Let the time pass.
        case advance

        /// Whether the entry's payload does not decode with the fleet's types.
        var isUnreadable: Bool {
            switch self {
            case .event(nil), .outcome(nil): true
            default: false
            }
        }
    }

    /// The step of an entry of kind `kind` with `payload`.
    static func step(_ kind: JournalEntry.Kind, payload: String?, _ decoder: JSONDecoder) -> Step {
        switch kind {
        case .start: .start
        case .advance: .advance
        case .event: .event(payload.flatMap { try? decoder.decode(Event.self, from: Data($0.utf8)) })
        case .outcome:
            .outcome(payload.flatMap { try? decoder.decode(ActivityOutcome<Event>.self, from: Data($0.utf8)) })
        }
    }

    /// Does what one journal entry says, at its time on the store's clock: the same whether
    /// applied first or replayed. The step's effects stay in the host's router.
    func replay(_ step: Step, time: Int64, in host: inout Host) -> String? {
        var unused = MachineRecorder<State, Event>()
        return replay(step, time: time, in: &host, recorder: &unused, records: false)
    }

    /// Does what one journal entry says, and, when `records` is set, tells `recorder` every event
    /// and microstep it takes (``history(of:keepingLast:)``); without it, the steps take the machine's quick
    /// path, as applying does.
    func replay(
        _ step: Step, time: Int64, in host: inout Host, recorder: inout MachineRecorder<State, Event>, records: Bool
    ) -> String? {
        host.clock.now = .nanoseconds(time)
        if !records {
            // The steps of applying and rebuilding, specialised for the chart's types.
            switch step {
            case .start: return adapter.stepper.start(&host)
            case .event(let event?): return adapter.stepper.send(&host, event)
            case .event(nil), .outcome(nil), .advance: return adapter.stepper.catchUp(&host)
            case .outcome: break
            }
        }
        do {
            switch step {
            case .start: records ? try host.start(observer: &recorder) : try host.start()
            case .event(let event?): _ = records ? try host.send(event, observer: &recorder) : try host.send(event)
            case .outcome(let outcome?):
                let invocation = InvocationID(rawValue: outcome.invocation)
                if outcome.isProgress || (adapter.outcomesAreEvents && outcome.failure == nil) {
                    // An event the work sent while it ran: the invocation goes on. Dropped once
                    // its state was exited, as its outcome would be. (A document's invocation
                    // ends with its state, and its `done.invoke` is such an event.)
                    if let event = outcome.event, host.machine.isRunning(invocation) {
                        _ = records ? try host.send(event, observer: &recorder) : try host.send(event)
                    } else {
                        records ? try host.catchUp(observer: &recorder) : try host.catchUp()
                    }
                } else if records {
                    _ = try host.deliver(outcome.outcome, from: invocation, observer: &recorder)
                } else {
                    _ = try host.deliver(outcome.outcome, from: invocation)
                }
            case .event(nil), .outcome(nil), .advance:
                records ? try host.catchUp(observer: &recorder) : try host.catchUp()
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Whether an invocation runs as an activity of the fleet's workers: every one but an
    /// invocation the chart describes (`InvocationStart.descriptor`) with no activity registered
    /// under its name, which goes to `deliver` when there is one (a document's fleet runs every
    /// invocation as an activity). An activity with no work (none
    /// registered, none in the chart) fails at its first attempt, so that the machine learns of it.
    func runsAsActivity(_ start: InvocationStart<State, Event, Context>) -> Bool {
        if let name = adapter.activityName(start), activities[name] != nil { return true }
        if adapter.runsEveryInvocation { return true }
        return start.descriptor == nil || deliver == nil
    }

    /// The key of a running activity in ``runningActivities``.
    static func activityHandle(machine: String, invocation: String) -> String { machine + "\u{0}" + invocation }

    func encodeSnapshot(_ machine: Machine, id: String) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(machine.archive()), as: UTF8.self)
        } catch {
            throw .unreadableMachine(machine: id, reason: "its snapshot cannot be encoded: \(error)")
        }
    }

    // MARK: - Reading

    /// The machine as saved: rebuilt from its snapshot and the journal after it, with the events
    /// not applied yet left out. `nil` for a machine no event was sent to.
    public func machine(_ id: String) async throws(StoreError) -> Machine? {
        guard let record = try await store.record(of: id) else { return nil }
        return try rebuild(record.row, entries: record.journal)
    }

    /// A machine from its row's snapshot (or new) and the journal entries after it.
    func rebuild(_ row: MachineRow, entries: [JournalEntry]) throws(StoreError) -> Machine {
        let machine = try startingMachine(row)
        let decoder = adapter.makeDecoder()
        // What the replayed steps asked for went to the outbox when they were first applied.
        var host = Host(machine: machine, router: DurableEffects(), clock: StoreClock())
        for entry in entries {
            _ = replay(Self.step(entry.kind, payload: entry.payload, decoder), time: entry.time, in: &host)
            _ = host.router.take()
        }
        return host.machine
    }

    /// The machine a replay of its journal starts from: its row's snapshot, or a new machine when
    /// the row has none, ready to run in the fleet.
    func startingMachine(_ row: MachineRow) throws(StoreError) -> Machine {
        var machine: Machine
        if let snapshot = row.snapshot {
            do {
                var archive = try adapter.makeDecoder().decode(
                    MachineArchive<State, Event, Context>.self, from: Data(snapshot.utf8))
                try adapter.restore(&archive)
                machine = try Machine(chart: chart, restoring: archive, invocations: .resume)
            } catch {
                throw .unreadableMachine(machine: row.id, reason: "\(error)")
            }
        } else {
            machine = chart.makeMachine(context: initialContext(row.id))
        }
        adapter.prepare(&machine)
        return machine
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanosecondsSinceZero: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
#endif
