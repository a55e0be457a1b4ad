#if Store
import Foundation
import Statecharts

/// How a fleet reads its chart's values and readies its machines: nothing to do for a typed
/// chart; for a document (`DurableMachines(document:…)`), a decoder that knows its data model, a
/// data model made live again after a snapshot, the document's microstep limit, and activities
/// found by their `<invoke>`'s type.
struct DurableChartAdapter<State, Event, Context>: Sendable
where
    State: Hashable & Codable & Sendable, Event: StatechartEvent & Codable & Sendable,
    Event.Kind: Hashable & Sendable, Context: Codable & Sendable
{
    /// A decoder of the fleet's events, effects and snapshots.
    var makeDecoder: @Sendable () -> JSONDecoder = { JSONDecoder() }
    /// Whether an event or effect this process encoded may stand for its JSON when a worker of
    /// the same process reads it back (``DecodedValueCache``): a typed chart's values, which
    /// decode to what was encoded, may; a document's may not, since its decoder needs the chart
    /// and its context is a data model that goes on changing after the effect was written.
    var reusesEncodedValues = true
    /// Makes a snapshot's archive, as decoded, ready to restore.
    var restore: @Sendable (inout MachineArchive<State, Event, Context>) throws -> Void = { _ in }
    /// Readies a machine made new or restored, before it applies anything.
    var prepare: @Sendable (inout StateMachine<State, Event, Context>) -> Void = { _ in }
    /// Makes a context that a history's step keeps apart from the machine, which goes on: a
    /// document's data model is a reference, and is frozen (a typed chart's context is a value).
    var detach: @Sendable (inout Context) -> Void = { _ in }
    /// The name an invocation's activity is registered under: the `Invoke`'s name.
    var activityName: @Sendable (InvocationStart<State, Event, Context>) -> String? = { $0.name }
    /// Whether every invocation runs as an activity, described ones too (a document's): then none
    /// goes to `deliver`, and one with no activity for its name fails with `error.execution`.
    var runsEveryInvocation = false
    /// Whether an activity's event is given to its machine as an event of the running invocation,
    /// which goes on until its state is exited (a document's `done.invoke.ID`, whose `<finalize>`
    /// runs first), rather than as the outcome that ends the invocation (a typed chart's).
    var outcomesAreEvents = false
    /// The machines' steps: specialised for the chart's types when the fleet was made where
    /// they are known (``DurableStepper``), generic otherwise.
    var stepper = DurableStepper<State, Event, Context>()
}
#endif
