#if Store
import Statecharts

/// How an activity ended, or an event its work sent while it ran, as its machine's journal keeps
/// it (an entry of kind ``JournalEntry/Kind/outcome``): the invocation, and the event its work
/// returned or sent, or the text of its failure.
struct ActivityOutcome<Event: StatechartEvent & Codable>: Codable {
    /// The invocation's number in its machine.
    var invocation: UInt64
    /// The event to deliver; `nil` with no `failure`: the work returned none.
    var event: Event?
    /// Why the work failed, when the machine is to raise `error.execution`.
    var failure: String?
    /// `true` for an event the work sent while it ran (``ActivityRequest/send(_:)``): the
    /// invocation goes on. Absent in the outcome that ends it.
    var progress: Bool?

    /// Whether this is an event sent on the way rather than the end of the invocation.
    var isProgress: Bool { progress == true }

    /// What the machine is given.
    var outcome: InvocationOutcome<Event> {
        if let failure { return .failure(ActivityFailure(message: failure)) }
        return event.map { .event($0) } ?? .nothing
    }
}
#endif
