#if Inspector
import Statecharts

/// How the page shows a typed machine: its snapshots as the page's snapshots and steps, states and
/// transitions by name, and its context as JSON when it is `Encodable`. Shared by the live
/// machines' targets and the recorded timelines.
enum TypedMachineView {
    /// A snapshot as the page shows it: names, and the context as JSON when it is `Encodable`.
    static func describe<State: Hashable, Event: StatechartEvent, Context>(
        _ snapshot: MachineSnapshot<State, Context>, chart: Statechart<State, Event, Context>
    ) -> InspectorSnapshot {
        let timers = snapshot.timers.map { timer in
            InspectorSnapshot.PendingTimer(
                name: timer.state.map { "timeout of \($0)" } ?? timer.name, due: seconds(timer.deadline), id: timer.id,
                state: timer.state.map { "\($0)" })
        }
        return InspectorSnapshot(
            configuration: snapshot.configuration.map { "\($0)" }, active: snapshot.activeStates.map { "\($0)" },
            events: snapshot.status == .running ? chart.handledEventNames(activeStates: snapshot.activeStates) : [],
            data: value(of: snapshot.context), timers: timers, time: seconds(snapshot.now),
            status: snapshot.status.rawValue)
    }

    /// A duration in seconds, as the page shows times.
    static func seconds(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// A snapshot from the machine's stream as a step of the page's timeline: its microsteps'
    /// states and transitions, by name.
    static func step<State: Hashable, Event: StatechartEvent, Context>(
        _ snapshot: MachineSnapshot<State, Context>, chart: Statechart<State, Event, Context>
    ) -> LiveMachineStep {
        var step = LiveMachineStep(snapshot: describe(snapshot, chart: chart))
        for microstep in snapshot.microsteps {
            step.exited += microstep.exited.map { "\($0)" }
            step.entered += microstep.entered.map { "\($0)" }
            step.transitions += microstep.transitions.map { transition in
                InspectorTransition(
                    source: transition.source.map { "\($0)" }, event: microstep.event,
                    targets: transition.targets.map { "\($0)" })
            }
        }
        return step
    }

    /// The context as JSON when it is `Encodable`, its description otherwise.
    static func value<Context>(of context: Context) -> InspectorValue {
        if Context.self == Void.self { return .null }
        if let encodable = context as? any Encodable, let value = InspectorValue(encoding: encodable) {
            return value
        }
        return .string(String(describing: context))
    }

    /// When no microsteps came with a step (a session that does not record them), the states it
    /// exited and entered, from the configurations before and after.
    static func fillChanges(of step: inout LiveMachineStep, after previous: [String]) {
        guard step.exited.isEmpty && step.entered.isEmpty && step.snapshot.configuration != previous else { return }
        let before = Set(previous)
        let after = Set(step.snapshot.configuration)
        step.exited = previous.filter { !after.contains($0) }.reversed()
        step.entered = step.snapshot.configuration.filter { !before.contains($0) }
    }
}
#endif
