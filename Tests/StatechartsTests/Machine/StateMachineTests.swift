import Statecharts
import Testing

@Suite struct StateMachineTests {
    func chart() throws -> TestChart {
        try TestChart {
            StateNode("idle") {
                On("start", to: "running") { $0.context.counter += 1 }
            }
            StateNode("running", initial: "slow") {
                History("resume", .shallow)
                StateNode("slow") { On("faster", to: "fast") }
                StateNode("fast") {
                    OnEntry { $0.send("tick", after: .seconds(1)) }
                    On("tick") { $0.context.append("tick") }
                }
                On("stop", to: "idle")
            }
        }
    }

    @Test("a copy of a machine is independent: queues, timers and history are copied on write")
    func valueSemantics() throws {
        var original = try started(try chart())
        try original.send("start")
        try original.send("faster")
        var copy = original
        try copy.advance(by: .seconds(2))
        try copy.send("stop")
        #expect(copy.context.entries == ["tick"])
        #expect(original.context.entries.isEmpty)
        #expect(original.activeStates == ["fast"])
        #expect(original.pendingTimerCount == 1)
        try original.advance(by: .seconds(2))
        #expect(original.context.entries == ["tick"])
    }

    @Test("the observer sees each event and each microstep, with exits and entries in order")
    func observer() throws {
        var machine = try started(try chart())
        var recorder = MachineRecorder<String, NamedEvent>()
        try machine.send("start", observer: &recorder)
        #expect(recorder.events.map(\.description) == ["start (external)"])
        #expect(recorder.microsteps.count == 1)
        let step = try #require(recorder.microsteps.first)
        #expect(step.event == "start")
        #expect(step.exited == ["idle"])
        #expect(step.entered == ["running", "slow"])
        #expect(step.transitions.map(\.source) == ["idle"])
        #expect(step.transitions.first?.targets == ["running"])
        #expect(step.transitions.first?.location?.line != nil)
        #expect(step.description == "start: exited [idle], entered [running, slow]")
    }

    @Test("start reports the initial microstep with no event")
    func startObserved() throws {
        var machine = try chart().makeMachine(context: Log())
        var recorder = MachineRecorder<String, NamedEvent>()
        try machine.start(observer: &recorder)
        #expect(recorder.microsteps.map(\.event) == [nil])
        #expect(recorder.entered == ["idle"])
        #expect(recorder.microsteps.first?.transitions.first?.source == nil)
    }

    @Test("the configuration lists every active state, the active states only atomic ones, in document order")
    func configuration() throws {
        var machine = try started(try chart())
        try machine.send("start")
        #expect(machine.configuration == ["running", "slow"])
        #expect(machine.activeStates == ["slow"])
        #expect(machine.isActive("running"))
        #expect(!machine.isActive("idle"))
        #expect(!machine.isActive("not a state"))
    }

    @Test("the structure of the chart can be read")
    func structure() throws {
        let chart = try chart()
        #expect(chart.states == ["idle", "running", "resume", "slow", "fast"])
        #expect(chart.children(of: nil) == ["idle", "running"])
        #expect(chart.children(of: "running") == ["resume", "slow", "fast"])
        #expect(chart.parent(of: "fast") == "running")
        #expect(chart.kind(of: "resume") == .history)
        #expect(chart.historyType(of: "resume") == .shallow)
        #expect(chart.hasChildStates("running"))
        #expect(!chart.hasChildStates("idle"))
        #expect(chart.initialStates(of: nil) == ["idle"])
        #expect(chart.initialStates(of: "running") == ["slow"])
    }
}

/// A context that records the events it is told of, as an SCXML data model binds `_event`.
struct RecordingModel: DataModel {
    var bound: [String] = []
    var origins: [ProcessedEvent<NamedEvent>.Origin] = []

    mutating func bind(_ event: ProcessedEvent<NamedEvent>) {
        bound.append(event.name + (event.isRaisedByMachine ? "!" : ""))
        origins.append(event.origin)
    }
}

@Suite struct DataModelTests {
    @Test("a context that is a DataModel is told of every event before its transitions are selected")
    func bindsEveryEvent() throws {
        let chart = try Statechart<String, NamedEvent, RecordingModel>(initial: "a") {
            StateNode("a") {
                On("go", to: "b", guard: { $0.context.bound.last == "go" }) { $0.raise("raised") }
            }
            StateNode("b", initial: "b1") {
                StateNode("b1") { On("raised", to: "bf") }
                Final("bf")
                OnDone(to: "c")
            }
            StateNode("c") { After(.seconds(1), to: "d") }
            StateNode("d")
        }
        var machine = chart.makeMachine(context: RecordingModel())
        try machine.start()
        try machine.send("go")
        try machine.advance(by: .seconds(1))
        #expect(machine.activeStates == ["d"])
        #expect(machine.context.bound == ["go", "raised", "done.state.b!", "after.1000ms.c!"])
        #expect(machine.context.origins == [.external, .internal, .internal, .timer])
    }

    @Test("start actions run once, before the initial states are entered")
    func startActions() throws {
        let chart = try TestChart(
            name: "started",
            elements: [
                .onStart { $0.context.append("start") },
                .state("a", elements: [.onEntry { $0.context.append("enter a") }]),
            ])
        let machine = try started(chart)
        #expect(machine.context.entries == ["start", "enter a"])
    }
}
