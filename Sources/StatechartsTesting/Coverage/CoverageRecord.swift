import Statecharts
import StatechartsSCXML

/// What runs of a chart exercised: the states entered, the transitions taken, the timers that
/// fired. Records of several runs merge; ``ChartCoverage`` compares one with the chart.
public struct CoverageRecord: Sendable, Hashable, Codable {
    /// The states entered, by name.
    public var enteredStates: Set<String> = []
    /// The transitions taken (`TransitionInfo/id`).
    public var takenTransitions: Set<Int> = []
    /// The names of the timers that fell due.
    public var firedTimers: Set<String> = []

    /// An empty record.
    public init() {}

    /// Records what a microstep did.
    public mutating func record<State: Hashable>(_ microstep: Microstep<State>) {
        for state in microstep.entered { enteredStates.insert("\(state)") }
        for transition in microstep.transitions { takenTransitions.insert(transition.id) }
    }

    /// Records what a call of a session did in its top session (recorded with
    /// `SCXMLSession/Options/recordsMicrosteps`).
    public mutating func record(_ step: SCXMLStep) {
        for microstep in step.microsteps { record(microstep) }
        firedTimers.formUnion(step.firedTimers)
    }

    /// Adds what another record saw.
    public mutating func merge(_ other: CoverageRecord) {
        enteredStates.formUnion(other.enteredStates)
        takenTransitions.formUnion(other.takenTransitions)
        firedTimers.formUnion(other.firedTimers)
    }
}

/// A `MachineObserver` that records coverage: pass it to `StateMachine/send(_:observer:)` and
/// the other calls, then read ``record``.
public struct CoverageObserver<State: Hashable, Event: StatechartEvent>: MachineObserver where Event.Kind: Hashable {
    /// What the observed steps exercised.
    public var record = CoverageRecord()

    /// An observer with an empty record.
    public init() {}

    /// Records a timer that fell due.
    public mutating func machineWillProcess(_ event: ProcessedEvent<Event>) {
        if event.origin == .timer { record.firedTimers.insert(event.name) }
    }

    /// Records the states entered and the transitions taken.
    public mutating func machineDidTake(_ microstep: Microstep<State>) { record.record(microstep) }
}
