#if Store
import Statecharts

/// How an activity ended, as its machine's journal keeps it (an entry of kind
/// ``JournalEntry/Kind/outcome``): the invocation, and the event its work returned or the text of
/// its failure.
struct ActivityOutcome<Event: StatechartEvent & Codable>: Codable {
    /// The invocation's number in its machine.
    var invocation: UInt64
    /// The event to deliver; `nil` with no `failure`: the work returned none.
    var event: Event?
    /// Why the work failed, when the machine is to raise `error.execution`.
    var failure: String?

    /// What the machine is given.
    var outcome: InvocationOutcome<Event> {
        if let failure { return .failure(ActivityFailure(message: failure)) }
        return event.map { .event($0) } ?? .nothing
    }
}
#endif
