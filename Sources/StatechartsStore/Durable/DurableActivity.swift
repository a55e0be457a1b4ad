#if Store
import Statecharts

/// Swift work that a durable machine's invocation runs as an activity: registered by the name of
/// the chart's `Invoke` (`DurableMachines(…, activities: ["charge": …])`), run by any worker of
/// the fleet, at least once.
///
/// ```swift
/// let charge = DurableActivity<OrderState, OrderEvent, Order> { request in
///     try await payments.charge(request.context.amount, idempotencyKey: request.key.description)
///     return .charged
/// } onFailure: { error in
///     .declined("\(error)")
/// }
/// ```
///
/// - The invocation's step writes the activity to the outbox in its own transaction; a worker
///   claims it, holds it for its ``RetryPolicy``'s time limit (kind ``EffectKind/activity``) plus
///   ``DurableOptions/leaseMargin``, and runs the work. A worker that dies mid-way leaves it to
///   another once that lease ends.
/// - What the work returns comes back to the machine as the invocation's event, journaled into its
///   queue under the activity's key: exactly once, however many times the work ran. `nil` ends
///   the invocation without an event.
/// - What it throws is retried with back-off; once the policy is exhausted, `onFailure` makes the
///   event the machine receives (`nil`: none), or, without `onFailure`, the machine raises
///   `error.execution` with an ``ActivityFailure``.
/// - Exiting the invocation's state cancels the activity: a worker that has not started it never
///   will, the task of one that runs it in this process is cancelled, and one in another process
///   notices within ``DurableOptions/activityCheckInterval``. What a cancelled activity returns is
///   dropped.
///
/// Work may run more than once (a retry, or a worker that died after the work and before its
/// outcome was journaled): give the key (``ActivityRequest/key``) to the services it calls as an
/// idempotency key.
public struct DurableActivity<State: Sendable, Event: Sendable, Context: Sendable>: Sendable {
    /// The work: an async function of one attempt, whose result is the event the machine receives.
    public typealias Work = @Sendable (ActivityRequest<State, Event, Context>) async throws -> Event?

    /// The work.
    public let work: Work
    /// Turns the error of the last attempt, once the retry policy is exhausted, into the event the
    /// machine receives; `nil` raises `error.execution` instead.
    public let onFailure: (@Sendable (any Error) -> Event?)?

    /// An activity that runs `work` for each invocation of its name.
    ///
    /// - Parameters:
    ///   - work: One attempt. It should check for cancellation (or call cancellable APIs), so that
    ///     exiting the state, or running past the time limit, stops it.
    ///   - onFailure: The event for the error of the last attempt; `nil` (the default) raises
    ///     `error.execution`. Return `nil` to deliver no event.
    public init(_ work: @escaping Work, onFailure: (@Sendable (any Error) -> Event?)? = nil) {
        self.work = work
        self.onFailure = onFailure
    }
}

/// One attempt at an activity: what its work is given.
public struct ActivityRequest<State: Sendable, Event: Sendable, Context: Sendable>: Sendable {
    /// The activity's identity, the same on every attempt and in every worker: use
    /// ``EffectKey/description`` as an idempotency key.
    public let key: EffectKey
    /// Which attempt this is, from 1.
    public let attempt: Int
    /// The invocation, in its machine.
    public let invocation: InvocationID
    /// The name of the `Invoke` (the name the activity is registered under).
    public let name: String?
    /// The state the invocation belongs to.
    public let state: State?
    /// The machine's context when the invocation started.
    public let context: Context
    /// Journals one event the work sends on the way, by its place among this attempt's sends.
    let journal: @Sendable (Event) async throws(StoreError) -> Void

    /// The machine that invoked it.
    public var machine: String { key.machine }

    /// Sends `event` to the machine while the work goes on (progress, say), after the events it
    /// sent before: journaled into the machine's queue before this returns, and delivered only if
    /// the invocation's state has not been exited by then.
    ///
    /// Each send is journaled under the activity's key and its place among the attempt's sends
    /// (the first is `KEY/1`): an attempt that runs again after a crash or a failure and sends the
    /// same events sends each of them once. An attempt that sends more than the one before adds
    /// only the new ones; one that sends different events in the same places is not told apart.
    ///
    /// - Throws: ``StoreError`` when the store cannot journal it; the attempt then fails, and is
    ///   retried as its policy says.
    public func send(_ event: Event) async throws(StoreError) {
        try await journal(event)
    }
}

/// Why an activity's invocation ended in `error.execution`: its work failed on its last attempt.
///
/// The machine receives it as `ExecutionFailure.error`; on a replay of the journal, from the
/// text the journal keeps.
public struct ActivityFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why it failed: the last attempt's error, as text.
    public let message: String

    /// A failure with this text.
    public init(message: String) { self.message = message }

    /// The text of the failure.
    public var description: String { message }
}
#endif
