#if Store
import Foundation
import Statecharts

extension DurableMachines {
    /// The outbox kind of a delayed send to another machine of the fleet: journaled into that
    /// machine's queue once its delay has passed.
    static var fleetSendKind: String { OutboxStaging<State, Event, Context>.fleetSendKind }

    /// Delivers the effects due now, up to ``DurableOptions/effectsPerBatch``: claims them (each
    /// held for its policy's time limit plus ``DurableOptions/leaseMargin``), hands each to the
    /// fleet's `deliver` handler (the effects of one machine one after another, in the order it
    /// asked for them; different machines' at the same time), then records in one transaction
    /// which were delivered, which are to be retried, and which are dead letters.
    ///
    /// A delayed send to another machine of the fleet is journaled into that machine's queue,
    /// with its key as the event's identifier: a retry is recognized, so it is journaled once.
    ///
    /// While ``run()`` runs, the effects this object's own steps wrote already claimed come
    /// first, without a transaction to claim them; the store's are claimed when there are none.
    ///
    /// - Returns: How many effects it attempted.
    @discardableResult
    public func deliverEffects() async throws(StoreError) -> Int {
        let options = options
        // What this object's steps wrote already claimed first (while run() runs), then the store's.
        let now = clock()
        var claimed = handOff.withLock { handOff in
            handOff.next(options.effectsPerBatch, now: now) { self.policy(ofKind: $0).timeLimit.nanosecondsSinceZero }
        }
        if claimed.isEmpty {
            claimed = try await store.claimEffects(
                EffectClaimRequest(now: now, limit: options.effectsPerBatch, lease: leaseTime))
        }
        if claimed.isEmpty { return 0 }
        let byMachine = Dictionary(grouping: claimed, by: \.key.machine).values.map { entries in
            entries.sorted { $0.key < $1.key }
        }
        // One watchdog cancels the attempts that run past their time limits, for the whole batch.
        let watchdog = AttemptWatchdog(shortestLimit: options.shortestTimeLimit)
        let outcomes = await withTaskGroup(of: [EffectOutcome]?.self) { group in
            group.addTask {
                await watchdog.watch()
                return nil
            }
            for entries in byMachine {
                group.addTask {
                    var outcomes: [EffectOutcome] = []
                    for entry in entries { outcomes.append(await self.attempt(entry, watchdog: watchdog)) }
                    return outcomes
                }
            }
            var all: [EffectOutcome] = []
            var finished = 0
            for await outcomes in group {
                guard let outcomes else { continue }
                all += outcomes
                finished += 1
                // Every machine's attempts are done: the watchdog has nothing left to watch.
                if finished == byMachine.count { group.cancelAll() }
            }
            return all
        }
        try await store.settleEffects(outcomes)
        return claimed.count
    }

    /// How long a worker holds a claimed entry of `kind`, in nanoseconds: its policy's time limit
    /// and ``DurableOptions/leaseMargin``.
    func leaseTime(_ kind: String) -> Int64 {
        (policy(ofKind: kind).timeLimit + options.leaseMargin).nanosecondsSinceZero
    }

    /// The retry policy of an outbox entry's `kind` (an unknown kind is a send's).
    func policy(ofKind kind: String) -> RetryPolicy {
        options.retryPolicy(for: EffectKind(rawValue: kind) ?? .send)
    }

    /// One attempt at `entry`, and what is to become of it; `watchdog` cancels it when it runs
    /// past its policy's time limit.
    func attempt(_ entry: OutboxEntry, watchdog: AttemptWatchdog) async -> EffectOutcome {
        let effect: DurableEffect<State, Event, Context>
        do {
            // Its first attempt in the process whose step wrote it: the value that was encoded.
            effect =
                try stagedEffects.take(entry.key, payload: entry.payload)
                ?? adapter.makeDecoder().decode(
                    DurableEffect<State, Event, Context>.self, from: Data(entry.payload.utf8))
        } catch {
            return EffectOutcome(
                key: entry.key, attempt: entry.attempts,
                result: .deadLetter(error: "the effect does not decode with this fleet's types: \(error)"))
        }
        let policy = options.retryPolicy(for: effect.kind)
        if entry.kind == OutboxEntry.activityKind { return await perform(effect, entry, policy: policy) }
        let failure: String?
        if entry.kind == Self.fleetSendKind {
            failure = await journalFleetSend(effect, key: entry.key)
        } else if let deliver {
            let delivery = EffectDelivery(key: entry.key, attempt: entry.attempts, effect: effect)
            let (result, timedOut) = await watchdog.run(limit: policy.timeLimit) { try await deliver(delivery) }
            if timedOut {
                failure = "the attempt took longer than its time limit of \(policy.timeLimit) and was cancelled"
            } else if case .failure(let error) = result {
                failure = String(describing: error)
            } else {
                failure = nil
            }
        } else {
            failure = "this fleet has no delivery handler (pass `deliver` to every DurableMachines on this store)"
        }
        guard let failure else { return EffectOutcome(key: entry.key, attempt: entry.attempts, result: .delivered) }
        return failed(entry, policy: policy, reason: failure)
    }

    /// What becomes of `entry` after an attempt that failed for `reason`: retried after its
    /// back-off, or a dead letter once `policy` is exhausted.
    func failed(_ entry: OutboxEntry, policy: RetryPolicy, reason: String) -> EffectOutcome {
        if entry.attempts >= policy.maximumAttempts {
            return EffectOutcome(key: entry.key, attempt: entry.attempts, result: .deadLetter(error: reason))
        }
        return EffectOutcome(
            key: entry.key, attempt: entry.attempts,
            result: .retry(at: clock() &+ policy.delay(afterAttempt: entry.attempts), error: reason))
    }

    /// Journals a delayed send into its machine's queue; the reason it failed, or `nil`.
    func journalFleetSend(_ effect: DurableEffect<State, Event, Context>, key: EffectKey) async -> String? {
        guard case .send(let event, let target, _, _) = effect else { return "a fleet send holds no event" }
        do {
            let payload = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
            _ = try await commits.submit(
                IncomingEvent(machine: target, eventID: key.description, payload: payload, acknowledgedAt: clock()))
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Dead letters

    /// The dead letters of the fleet's store, oldest first: effects that exhausted their retry
    /// policy, with the error of their last attempt.
    public func deadLetters(limit: Int = 100) async throws(StoreError) -> [DeadLetter<State, Event, Context>] {
        let decoder = adapter.makeDecoder()
        return try await store.deadLetters(limit: limit).map { entry in
            DeadLetter(
                key: entry.key, attempts: entry.attempts, error: entry.lastError ?? "",
                effect: try? decoder.decode(DurableEffect<State, Event, Context>.self, from: Data(entry.payload.utf8)),
                payload: entry.payload)
        }
    }

    /// Makes the dead letter `key` due now, with a fresh retry policy: a worker delivers it with
    /// the same key as before.
    ///
    /// - Returns: Whether there was such a dead letter.
    @discardableResult
    public func retryDeadLetter(_ key: EffectKey) async throws(StoreError) -> Bool {
        let found = try await store.retryDeadLetter(key, at: clock())
        if found { effectSignal.wake() }
        return found
    }

    /// What the machine `id` still has in the outbox: effects waiting to be delivered (delayed
    /// sends included) and its dead letters, in the order it asked for them.
    public func outbox(of id: String) async throws(StoreError) -> [OutboxEntry] {
        try await store.outbox(of: id)
    }
}
#endif
