#if Store
import Statecharts

/// What a durable machine's step asks of the world, as its outbox keeps it and a worker hands it
/// to the fleet's delivery handler.
///
/// Sends to other machines of the same fleet are not here: they are journaled into the other
/// machine's queue (see ``DurableMachines``).
public enum DurableEffect<State, Event, Context>: Codable
where State: Codable, Event: Codable, Context: Codable {
    /// Deliver an event outside the fleet: to `target`, through the event I/O processor `type`
    /// (`nil` for the machine's default), with the identifier the sending step gave it. A delayed
    /// send is handed over once its delay has passed.
    case send(event: Event, target: String, type: String?, id: String?)
    /// Write a message (`scope.log(_:)` in an action).
    case log(label: String?, message: String)
    /// Start the invocation of `state` named `name`, with the context of the moment it started.
    /// Report its events back with ``DurableMachines/send(_:to:id:)``.
    case startInvocation(id: InvocationID, name: String?, state: State?, context: Context)
    /// Stop the invocation `id`: its state was exited.
    case cancelInvocation(InvocationID)
    /// Run the work of invocation `id` (an `Invoke` named `name`) as an activity: the fleet's
    /// workers do this themselves (``DurableActivity``), and never hand it to `deliver`.
    /// `definition` is the `Invoke`'s place in the chart, which finds its own work when no
    /// activity is registered under `name`.
    case activity(id: InvocationID, name: String?, state: State?, context: Context, definition: Int?)

    /// Which kind of effect this is.
    public var kind: EffectKind {
        switch self {
        case .send: .send
        case .log: .log
        case .startInvocation: .startInvocation
        case .cancelInvocation: .cancelInvocation
        case .activity: .activity
        }
    }
}

extension DurableEffect: Sendable where State: Sendable, Event: Sendable, Context: Sendable {}

extension DurableEffect: Equatable where State: Equatable, Event: Equatable, Context: Equatable {}
#endif
