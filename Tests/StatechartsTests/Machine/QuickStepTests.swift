import StatechartsTesting
import Testing

@testable import Statecharts

/// `send(_:)` takes a quick step (table reads and masks, inlined where the event is sent) when the
/// chart has no parallel state and the machine has nothing queued, and the parallel quick step (out
/// of line) when it has; `send(_:observer:)` always takes the general path. Both must do the same thing on every step, whatever the chart holds: guards
/// that hold, fail or throw, targetless transitions, actions that raise or send events, timeouts
/// armed and cancelled, eventless transitions, entry and exit actions, history, final states,
/// events the chart does not know, and both policies for unhandled events.
@Suite(.ownThread) struct QuickStepTests {
    struct Refused: Error {}

    /// A chart with a bit of everything the quick step handles or hands to the general path.
    static func chart() throws -> TestChart {
        try TestChart(initial: "idle") {
            StateNode("idle") {
                On("go", to: "busy")
                On("count") { $0.context.counter += 1 }
                On("maybe", to: "busy", guard: { $0.context.counter % 2 == 0 })
                On("maybe") { $0.context.append("odd") }
                On("pick", to: "busy", guard: { $0.context.counter % 3 == 0 })
                On("pick", to: "noisy", guard: { $0.context.counter % 3 == 1 })
                On("pick") { $0.context.append("third") }
                On("boom", to: "busy", guard: { _ in throw Refused() })
                On("raise") { $0.raise("go") }
                On("later") { $0.send("go", after: .milliseconds(300)) }
                On("noisy", to: "noisy")
                On("pass", to: "pass")
                On("finish", to: "end")
                On("resume", to: "h")
                On(named: "error.execution") { $0.context.append("error") }
            }
            StateNode("busy", initial: "b1") {
                History("h", .shallow)
                After(.seconds(2), to: "idle")
                On("up", to: "idle")
                StateNode("b1") {
                    After(.seconds(1), to: "b2")
                    On("next", to: "b2")
                    On("count") { $0.context.counter += 10 }
                }
                StateNode("b2") {
                    OnEntry(send: "next", after: .milliseconds(700), id: "nudge")
                    OnEntry(send: "stay", after: .milliseconds(200), id: "nudge")
                    OnExit(cancel: "nudge")
                    On("next", to: "b1")
                    On("stay", to: "b2")
                    On("inner", to: "b1", type: .internal)
                }
            }
            StateNode("noisy") {
                logged("noisy")
                On("leave", to: "idle")
                On("go", to: "busy")
            }
            StateNode("pass") {
                Always(to: "idle") { $0.context.append("passed") }
            }
            Final("end")
        }
    }

    static let events: [NamedEvent] = [
        "go", "count", "maybe", "pick", "boom", "raise", "later", "noisy", "pass", "finish", "resume", "up",
        "next", "stay", "inner", "leave", "unknown", "error.execution",
    ]

    /// A chart with parallel states and a bit of everything the parallel quick step handles or
    /// hands to the general path: regions that react to the same event at once, a transition of
    /// the parallel state itself that every region's search reaches, transitions that conflict
    /// (one leaves the parallel state while another region moves within it, one of a child
    /// against one of its region), guards that hold, fail or throw, targetless transitions,
    /// timeouts in regions, actions that raise events, entry and exit actions, history, a nested
    /// parallel state and final states whose regions complete.
    static func parallelChart() throws -> TestChart {
        try TestChart(initial: "idle") {
            StateNode("idle") {
                On("go", to: "both")
                On("deep", to: "inner")
                On("resume", to: "hp")
                On("count") { $0.context.counter += 1 }
            }
            Parallel("both") {
                History("hp", .deep)
                On("count") { $0.context.counter += 100 }
                On("out", to: "idle")
                On("reset", to: "both")
                StateNode("left", initial: "l1") {
                    StateNode("l1") {
                        OnEntry(send: "tick", after: .milliseconds(600), id: "l1-tick")
                        OnExit(cancel: "l1-tick")
                        On("flip", to: "l2")
                        On("tick", to: "l2", guard: { $0.context.counter % 2 == 0 })
                        On("tick") { $0.context.append("left ticks") }
                        On("boom", to: "l2", guard: { _ in throw Refused() })
                    }
                    StateNode("l2") {
                        After(.seconds(1), to: "l1")
                        // Due with the timeout: armed before it, as the general path does.
                        OnEntry(send: "count", after: .seconds(1), id: "l2-count")
                        OnExit(cancel: "l2-count")
                        On("flip", to: "l1")
                        On("leave", to: "idle")
                        On("raise") { $0.raise("flip") }
                    }
                }
                StateNode("right", initial: "r1") {
                    On("up", to: "r1")
                    StateNode("r1") {
                        On("flip", to: "r2")
                        On("tick", to: "r2", guard: { $0.context.counter % 3 == 0 })
                        On("leave", to: "r2")
                        On("count") { $0.context.counter += 10 }
                    }
                    StateNode("r2") {
                        logged("r2")
                        On("flip", to: "r1")
                        On("up", to: "r2", type: .internal)
                        On("done", to: "rdone")
                    }
                    Final("rdone")
                }
                StateNode("third", initial: "inner") {
                    Parallel("inner") {
                        StateNode("a", initial: "a1") {
                            StateNode("a1") {
                                After(.milliseconds(500), to: "a2")
                                On("flip", to: "a2")
                            }
                            StateNode("a2") {
                                OnEntry(send: "up", after: .milliseconds(900), id: "a2-up")
                                On("flip", to: "a1")
                            }
                        }
                        StateNode("b", initial: "b1") {
                            StateNode("b1") {
                                // Cancels what another region's state sent.
                                OnExit(cancel: "a2-up")
                                On("flip", to: "b2")
                            }
                            StateNode("b2") {
                                On("flip", to: "b1")
                                On("done", to: "bdone")
                            }
                            Final("bdone")
                        }
                    }
                    On(named: "done.state.inner") { $0.context.append("inner done") }
                }
                On(named: "done.state.right") { $0.context.append("right done") }
                On(named: "error.execution") { $0.context.append("error") }
            }
        }
    }

    static let parallelEvents: [NamedEvent] = [
        "go", "deep", "resume", "count", "out", "reset", "flip", "flip", "flip", "tick", "boom", "leave", "raise",
        "up", "done", "unknown", "error.execution",
    ]

    /// What a step left behind, for comparing the two paths.
    static func record(_ machine: TestMachine, handled: String) -> String {
        "\(handled) \(machine.status) \(machine.configuration) \(machine.context.entries) \(machine.context.counter) "
            + "timers \(machine.pendingTimers.map { "\($0.name)@\($0.deadline)#\($0.serial) \($0.id ?? "-")" })"
    }

    /// Sends `event` through the quick path (`quick`) or the general one, and records the outcome.
    static func step(_ machine: inout TestMachine, _ event: NamedEvent, quick: Bool) -> String {
        do {
            let handled: Bool
            if quick {
                handled = try machine.send(event)
            } else {
                var recorder = MachineRecorder<String, NamedEvent>()
                handled = try machine.send(event, observer: &recorder)
            }
            return record(machine, handled: "\(handled)")
        } catch {
            return record(machine, handled: "threw \(error)")
        }
    }

    @Test(
        "the quick step and the general path agree on every step of random runs",
        arguments: [UnhandledEventPolicy.ignore, .reject])
    func quickAndGeneralAgree(policy: UnhandledEventPolicy) throws {
        let chart = try Self.chart()
        #expect(chart.storage.tables.allowsQuickSteps)
        try Self.compareRandomRuns(of: chart, events: Self.events, policy: policy, finishes: true)
    }

    @Test(
        "the parallel quick step and the general path agree on every step of random runs",
        arguments: [UnhandledEventPolicy.ignore, .reject])
    func parallelQuickAndGeneralAgree(policy: UnhandledEventPolicy) throws {
        let chart = try Self.parallelChart()
        #expect(chart.storage.tables.allowsParallelQuickSteps)
        #expect(!chart.storage.tables.allowsQuickSteps)
        try Self.compareRandomRuns(of: chart, events: Self.parallelEvents, policy: policy, finishes: false)
    }

    /// Runs 40 machines of `chart` through the quick path and 40 through the general one, side by
    /// side, on the same random events and delays, and expects the same record after each step;
    /// some machines finish when the chart `finishes` (it has a final state at the top).
    static func compareRandomRuns(
        of chart: TestChart, events: [NamedEvent], policy: UnhandledEventPolicy, finishes: Bool
    ) throws {
        var generator = SplitMix64(seed: policy == .ignore ? 7 : 11)
        var steps = 0
        var stepsWithTimers = 0
        var timeoutsFired = 0
        var finished = 0
        for _ in 0..<40 {
            var quick = chart.makeMachine(context: Log(), unhandledEvents: policy)
            var general = chart.makeMachine(context: Log(), unhandledEvents: policy)
            try quick.start()
            try general.start()
            for _ in 0..<60 where quick.status == .running {
                if generator.next() % 4 == 0 {
                    let delay = Duration.milliseconds(Int(generator.next() % 1_500))
                    let before = quick.configuration
                    try quick.advance(by: delay)
                    try general.advance(by: delay)
                    if quick.configuration != before { timeoutsFired += 1 }
                }
                if quick.pendingTimerCount > 0 { stepsWithTimers += 1 }
                let event = events[Int(generator.next() % UInt64(events.count))]
                let viaQuick = Self.step(&quick, event, quick: true)
                let viaGeneral = Self.step(&general, event, quick: false)
                #expect(viaQuick == viaGeneral, "after \(event)")
                if viaQuick != viaGeneral { return }
                steps += 1
            }
            if quick.status == .finished { finished += 1 }
        }
        // The runs covered the paths that matter: timeouts armed and fired, a finished machine.
        #expect(steps > 1_000)
        #expect(stepsWithTimers > 100, "\(stepsWithTimers) steps with timers pending")
        #expect(timeoutsFired > 10, "\(timeoutsFired) advances that fired a timeout")
        #expect((finished > 0) == finishes)
    }

    @Test("on random charts, the quick step and the general path agree on every step", arguments: 0..<2)
    func randomChartsAgree(batch: Int) throws {
        var compared = 0
        var comparedInParallelCharts = 0
        for seed in UInt64(batch * 500)..<UInt64(batch * 500 + 500) {
            var random = SplitMix64(seed: seed)
            guard let chart = try? RandomChartTests.chart(&random, seed: seed, faults: false) else { continue }
            let parallel = chart.storage.tables.allowsParallelQuickSteps
            var quick = chart.makeMachine(context: Log())
            var general = chart.makeMachine(context: Log())
            let started = (try? quick.start()) != nil
            var recorder = MachineRecorder<String, NamedEvent>()
            #expect(started == ((try? general.start(observer: &recorder)) != nil), "seed \(seed)")
            guard started else { continue }
            for step in RandomChart.events(tape: random.tape(count: 24), count: 24) where quick.status == .running {
                if step.after > 0 {
                    let delay = Duration.milliseconds(step.after)
                    let advancedQuick = (try? quick.advance(by: delay)) != nil
                    let advancedGeneral = (try? general.advance(by: delay)) != nil
                    guard advancedQuick && advancedGeneral else { break }
                }
                let viaQuick = Self.step(&quick, NamedEvent(step.name), quick: true)
                let viaGeneral = Self.step(&general, NamedEvent(step.name), quick: false)
                #expect(viaQuick == viaGeneral, "seed \(seed), after \(step.name)")
                if viaQuick != viaGeneral { break }
                compared += 1
                if parallel { comparedInParallelCharts += 1 }
            }
        }
        #expect(compared > 3_000, "compared \(compared) steps")
        // Charts with parallel states take the parallel quick step: a good share of the steps.
        #expect(comparedInParallelCharts > 500, "compared \(comparedInParallelCharts) steps of parallel charts")
    }

    @Test("a timeout armed by a quick step fires at its deadline, and leaving its state cancels it")
    func timeoutsOfQuickSteps() throws {
        var machine = try started(try Self.chart())
        try machine.send("go")
        #expect(machine.configuration == ["busy", "b1"])
        #expect(machine.pendingTimerCount == 2)
        #expect(machine.nextDeadline == .seconds(1))
        try machine.send("up")
        #expect(machine.pendingTimerCount == 0)
        try machine.send("go")
        try machine.advance(by: .seconds(1))
        #expect(machine.configuration == ["busy", "b2"])
        try machine.advance(by: .seconds(1))
        #expect(machine.configuration == ["idle"])
        #expect(machine.pendingTimerCount == 0)
    }

    @Test("the first candidate whose guard holds is taken, after one or two whose guards fail")
    func laterCandidates() throws {
        var machine = try started(try Self.chart())
        try machine.send("pick")  // counter 0: the first candidate
        #expect(machine.configuration == ["busy", "b1"])
        try machine.send("up")
        try machine.send("count")
        try machine.send("pick")  // counter 1: the second
        #expect(machine.configuration == ["noisy"])
        try machine.send("leave")
        try machine.send("count")
        try machine.send("pick")  // counter 2: the third, which has no guard
        #expect(machine.configuration == ["idle"])
        #expect(machine.context.entries == ["enter noisy", "exit noisy", "third"])
    }

    /// Charts whose start is one store, and charts whose start has work that rules it out.
    static func startCases() -> [(name: String, quick: Bool, chart: () throws -> TestChart)] {
        [
            (
                "flat", true,
                {
                    try TestChart(initial: "a") {
                        StateNode("a") { On("go", to: "b") }; StateNode("b")
                    }
                }
            ),
            (
                "nested, through default entries", true,
                {
                    try TestChart(initial: "outer") {
                        StateNode("outer", initial: "inner") {
                            StateNode("inner", initial: "leaf") { StateNode("leaf") }
                        }
                    }
                }
            ),
            ("an entry action", false, { try TestChart(initial: "a") { StateNode("a") { logged("a") } } }),
            (
                "a timeout", false,
                {
                    try TestChart(initial: "a") {
                        StateNode("a") { After(.seconds(1), to: "b") }; StateNode("b")
                    }
                }
            ),
            (
                "an eventless transition", false,
                {
                    try TestChart(initial: "a") {
                        StateNode("a") { Always(to: "b") }; StateNode("b")
                    }
                }
            ),
            ("a final state", false, { try TestChart(initial: "end") { Final("end") } }),
            (
                "an initial transition's action", false,
                {
                    try TestChart(initial: "outer") {
                        StateNode("outer") {
                            Initial(to: "leaf") { $0.context.append("initial") }
                            StateNode("leaf")
                        }
                    }
                }
            ),
            (
                "a start action", false,
                {
                    try TestChart(initial: "a") {
                        ChartElement.onStart { $0.context.append("start") }; StateNode("a")
                    }
                }
            ),
        ]
    }

    /// An action that logs which of `states` are active while it runs.
    static func seeing(_ label: String, _ states: [String]) -> StatechartAction<String, NamedEvent, Log> {
        { scope in
            var seen: [String] = []
            for state in states where scope.isActive(state) { seen.append(state) }
            scope.context.append("\(label): \(seen.joined(separator: " "))")
        }
    }

    @Test(
        "exit and entry actions on the mask path see the configuration of a walk state by state, as on the general path"
    )
    func walksShowEachActionItsConfiguration() throws {
        let states = ["a", "a1", "a11", "b", "b1", "b11", "c"]
        let chart = try TestChart(initial: "a") {
            StateNode("a", initial: "a1") {
                OnExit(Self.seeing("exit a", states))
                StateNode("a1", initial: "a11") {
                    StateNode("a11") {
                        OnExit(Self.seeing("exit a11", states))
                        On("go", to: "b11")
                    }
                }
            }
            StateNode("b", initial: "b1") {
                OnEntry(Self.seeing("enter b", states))
                StateNode("b1", initial: "b11") {
                    StateNode("b11") {
                        OnEntry(Self.seeing("enter b11", states))
                        On("back", to: "a")
                    }
                }
            }
            StateNode("c")
        }
        #expect(chart.storage.tables.isSmall)
        var quick = try started(chart)
        var general = try started(chart)
        let viaQuick = try logged(&quick) { try $0.send("go") }
        let viaGeneral = try logged(&general) { machine in
            var recorder = MachineRecorder<String, NamedEvent>()
            try machine.send("go", observer: &recorder)
        }
        // Children leave before their parents, each after its own exit actions; parents join
        // before their children, each before its own entry actions.
        #expect(viaQuick == ["exit a11: a a1 a11", "exit a: a", "enter b: b", "enter b11: b b1 b11"])
        #expect(viaQuick == viaGeneral)
        #expect(quick.configuration == general.configuration)
        // Back: no state exited or entered has work, and the configuration changes by masks.
        #expect(try logged(&quick) { try $0.send("back") } == [])
        try general.send("back")
        #expect(quick.configuration == general.configuration)
        #expect(quick.isActive("a11") && !quick.isActive("b"))
    }

    @Test(
        "a parallel state's transition that several regions reach is taken once, after a region's own transition too"
    )
    func inheritedTransitionsTakenOnce() throws {
        let chart = try TestChart(initial: "p") {
            Parallel("p") {
                // Targetless: it exits nothing, so no conflict would reveal it taken twice.
                On("tap") { $0.context.counter += 1 }
                On("move", to: "q")
                StateNode("one", initial: "a") {
                    StateNode("a") { On("step", to: "a2") }
                    StateNode("a2") {
                        On("step", to: "a")
                        On("tap") { $0.context.append("a2 taps") }
                    }
                }
                StateNode("two", initial: "b") {
                    StateNode("b") { On("shift", to: "b2") }
                    StateNode("b2") { On("tap") { $0.context.append("b2 taps") } }
                }
                StateNode("three", initial: "c") {
                    StateNode("c")
                }
            }
            StateNode("q") { On("back", to: "p") }
        }
        #expect(chart.storage.tables.allowsParallelQuickSteps)
        var quick = try started(chart)
        var general = try started(chart)
        func both(_ event: NamedEvent) throws {
            try quick.send(event)
            var recorder = MachineRecorder<String, NamedEvent>()
            try general.send(event, observer: &recorder)
            #expect(quick.configuration == general.configuration, "after \(event)")
            #expect(quick.context == general.context, "after \(event)")
        }
        // Each of a, b and c reaches p's `tap`, one after another: it is taken once.
        try both("tap")
        #expect(quick.context.counter == 1)
        // b2 takes its own `tap` between a's and c's: p's is still taken once, and b2's too.
        try both("shift")
        try both("tap")
        #expect(quick.context.counter == 2)
        #expect(quick.context.entries == ["b2 taps"])
        // a2 and b2 take their own: c reaches p's first after them, and it is taken.
        try both("step")
        try both("tap")
        #expect(quick.context.counter == 3)
        #expect(quick.context.entries == ["b2 taps", "a2 taps", "b2 taps"])
        // A transition of p that leaves it, reached by every region: taken once, as p exits once.
        try both("step")
        try both("move")
        #expect(quick.configuration == ["q"])
        try both("back")
        #expect(quick.configuration == ["p", "one", "a", "two", "b", "three", "c"])
    }

    @Test("a start that only enters the initial configuration is one store, and does what the general start does")
    func quickStart() throws {
        for (name, quick, make) in Self.startCases() {
            let chart = try make()
            #expect((chart.storage.tables.quickStartConfiguration != 0) == quick, "\(name)")
            var viaQuick = chart.makeMachine(context: Log())
            var viaGeneral = chart.makeMachine(context: Log())
            try viaQuick.start()
            var recorder = MachineRecorder<String, NamedEvent>()
            try viaGeneral.start(observer: &recorder)
            #expect(viaQuick.configuration == viaGeneral.configuration, "\(name)")
            #expect(viaQuick.status == viaGeneral.status, "\(name)")
            #expect(viaQuick.context == viaGeneral.context, "\(name)")
            #expect(viaQuick.pendingTimerCount == viaGeneral.pendingTimerCount, "\(name)")
            do {
                try viaQuick.start()
                Issue.record("\(name): a second start did not throw")
            } catch .alreadyStarted {
            } catch {
                Issue.record("\(name): a second start threw \(error)")
            }
        }
    }

    @Test("an event raised by a quick step's action is processed before send returns")
    func raisedEventsAreProcessed() throws {
        var machine = try started(try Self.chart())
        try machine.send("raise")
        #expect(machine.configuration == ["busy", "b1"])
        try machine.send("up")
        try machine.send("boom")
        #expect(machine.configuration == ["idle"])
        #expect(machine.context.entries == ["error"])
    }
}
