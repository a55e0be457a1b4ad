#if Store
import Foundation
import Statecharts

extension DurableMachines {
    /// How one attempt at an activity ended.
    enum ActivityRun: Sendable {
        /// The work returned this event (or none).
        case finished(Event?)
        /// The work threw this error (or ran past its time limit).
        case failed(any Error)
        /// Its state was exited: the activity is no longer wanted.
        case cancelled
    }

    /// One attempt at the activity `entry`: runs its work, and journals its outcome into its
    /// machine's queue, under its key, when the work returned or the policy is exhausted.
    func perform(
        _ effect: DurableEffect<State, Event, Context>, _ entry: OutboxEntry, policy: RetryPolicy
    ) async -> EffectOutcome {
        guard case .activity(let id, let name, let state, let context, let definition) = effect else {
            return EffectOutcome(
                key: entry.key, attempt: entry.attempts, result: .deadLetter(error: "the activity holds no invocation"))
        }
        let work: @Sendable () async throws -> Event?
        let onFailure: (@Sendable (any Error) -> Event?)?
        if let name, let activity = activities[name] {
            let request = ActivityRequest<State, Event, Context>(
                key: entry.key, attempt: entry.attempts, invocation: id, name: name, state: state, context: context,
                journal: progressJournal(entry.key, invocation: id))
            work = { try await activity.work(request) }
            onFailure = activity.onFailure
        } else if let definition, let own = chart.invocationWork(at: definition, of: state, named: name) {
            work = { try await own.work(context) }
            onFailure = own.onError
        } else {
            let reason =
                "no activity is registered under \(name.map { "'\($0)'" } ?? "an unnamed Invoke"), "
                + "and the chart has no work for it"
            return await settle(entry, ActivityOutcome(invocation: id.rawValue, failure: reason), policy: policy)
        }
        switch await run(work, entry.key, invocation: id, timeLimit: policy.timeLimit) {
        case .cancelled:
            // The step that exited the state removed the entry: there is nothing to settle.
            return EffectOutcome(key: entry.key, attempt: entry.attempts, result: .delivered)
        case .finished(let event):
            return await settle(entry, ActivityOutcome(invocation: id.rawValue, event: event), policy: policy)
        case .failed(let error):
            guard entry.attempts >= policy.maximumAttempts else {
                return failed(entry, policy: policy, reason: "\(error)")
            }
            let outcome =
                onFailure.map { ActivityOutcome(invocation: id.rawValue, event: $0(error)) }
                ?? ActivityOutcome(
                    invocation: id.rawValue,
                    failure: "the activity \(name.map { "'\($0)' " } ?? "")failed \(entry.attempts) times: \(error)")
            return await settle(entry, outcome, policy: policy)
        }
    }

    /// What an attempt's ``ActivityRequest/send(_:)`` does: journals each event into the machine's
    /// queue, in order, under the activity's key and the event's place among the attempt's sends.
    func progressJournal(
        _ key: EffectKey, invocation: InvocationID
    ) -> @Sendable (Event) async throws(StoreError) -> Void {
        let sent = Locked(0)
        let commits = commits
        let clock = clock
        return { (event: Event) async throws(StoreError) in
            let place = sent.withLock { count in
                count += 1
                return count
            }
            let payload: String
            do {
                let outcome = ActivityOutcome(invocation: invocation.rawValue, event: event, progress: true)
                payload = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
            } catch {
                throw .encoding("\(error)")
            }
            _ = try await commits.submit(
                IncomingEvent(
                    machine: key.machine, eventID: "\(key)/\(place)", payload: payload, acknowledgedAt: clock(),
                    kind: .outcome))
        }
    }

    /// Journals `outcome` into the machine's queue under the activity's key (a second journaling,
    /// by a worker that ran the work again, is recognized and dropped): the entry is then done.
    /// When the store fails, the entry is retried, work included.
    func settle(_ entry: OutboxEntry, _ outcome: ActivityOutcome<Event>, policy: RetryPolicy) async -> EffectOutcome {
        do {
            let payload = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
            _ = try await commits.submit(
                IncomingEvent(
                    machine: entry.key.machine, eventID: entry.key.description, payload: payload,
                    acknowledgedAt: clock(), kind: .outcome))
            return EffectOutcome(key: entry.key, attempt: entry.attempts, result: .delivered)
        } catch {
            return failed(entry, policy: policy, reason: "the activity's outcome could not be journaled: \(error)")
        }
    }

    /// Runs `work` for at most `timeLimit`, until its state is exited: a step of this object stops
    /// it at once (``runningActivities``); a step of another process removes its entry, which this
    /// notices within ``DurableOptions/activityCheckInterval``.
    func run(
        _ work: @escaping @Sendable () async throws -> Event?, _ key: EffectKey, invocation: InvocationID,
        timeLimit: Duration
    ) async -> ActivityRun {
        let store = store
        let interval = options.activityCheckInterval
        let stopped = Locked(false)
        let task = Task { () -> ActivityRun in
            await withTaskGroup(of: ActivityRun?.self) { group in
                group.addTask {
                    do {
                        return .finished(try await work())
                    } catch {
                        return .failed(error)
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: timeLimit)
                    if Task.isCancelled { return nil }
                    return .failed(
                        ActivityFailure(
                            message: "the attempt took longer than its time limit of \(timeLimit) and was cancelled"))
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        if Task.isCancelled { return nil }
                        // A store that cannot answer now is asked again at the next interval.
                        guard let outbox = try? await store.outbox(of: key.machine) else { continue }
                        if !outbox.contains(where: { $0.key == key }) { return .cancelled }
                    }
                    return nil
                }
                var first: ActivityRun?
                for await run in group {
                    if let run {
                        first = run
                        break
                    }
                }
                group.cancelAll()
                return first ?? .cancelled
            }
        }
        let handle = Self.activityHandle(machine: key.machine, invocation: String(invocation.rawValue))
        runningActivities.withLock {
            $0[handle] = {
                stopped.withLock { $0 = true }
                task.cancel()
            }
        }
        let run = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        runningActivities.withLock { _ = $0.removeValue(forKey: handle) }
        return stopped.withLock { $0 } ? .cancelled : run
    }
}
#endif
