import Testing

@testable import Statecharts

/// The checked invariants (StateMachine+Invariants.swift, ChartLayout+Invariants.swift): on in the
/// tests' builds, silent on machines the engine made, and each one catching the damage it is
/// there to catch.
@Suite struct InvariantTests {
    static func chart() throws -> TestChart {
        try TestChart(initial: "idle") {
            StateNode("idle") {
                On("go", to: "busy")
                On("split", to: "both")
            }
            StateNode("busy", initial: "b1") {
                History("h", .shallow)
                After(.seconds(2), to: "idle")
                StateNode("b1") { On("next", to: "b2") }
                StateNode("b2") { On("back", to: "h") }
                On("stop", to: "idle")
            }
            Parallel("both") {
                StateNode("left") {}
                StateNode("right") {}
                On("stop", to: "idle")
            }
        }
    }

    static func index(_ state: String, in machine: TestMachine) throws -> Int {
        Int(try #require(machine.chart.stateIndices[state]))
    }

    static func running() throws -> TestMachine {
        var machine = try chart().makeMachine(context: Log())
        try machine.start()
        return machine
    }

    @Test("the tests are built with assertions on, so every microstep checks the invariants")
    func assertionsAreOn() {
        var evaluated = false
        assert(
            {
                evaluated = true
                return true
            }())
        #expect(evaluated, "the tests' build must evaluate assert, or the invariants go unchecked")
    }

    @Test("a machine the engine drives breaks no invariant, step after step")
    func drivenMachineHolds() throws {
        var machine = try Self.running()
        #expect(machine.invariantProblem() == nil)
        for event in ["go", "next", "stop", "go", "split", "stop", "go", "next", "back", "stop"] {
            try machine.send(NamedEvent(event))
            #expect(machine.invariantProblem() == nil, "after \(event): \(machine.configuration)")
        }
        try machine.send("go")
        try machine.advance(by: .seconds(3))
        #expect(machine.configuration == ["idle"])
        #expect(machine.invariantProblem() == nil)
    }

    @Test("two active children of a compound state are an illegal configuration")
    func twoChildren() throws {
        var machine = try Self.running()
        machine.active.insert(try Self.index("busy", in: machine))
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("the chart has 2 active children"), "\(problem)")
    }

    @Test("a parallel state without one of its regions is an illegal configuration")
    func missingRegion() throws {
        var machine = try Self.running()
        try machine.send("split")
        machine.active.remove(try Self.index("right", in: machine))
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("without its region 'right'"), "\(problem)")
    }

    @Test("a timeout of a state that is not active is caught")
    func strayTimeout() throws {
        var machine = try Self.running()
        let busy = try Self.index("busy", in: machine)
        machine.mutableExtras().timers.insert(
            PendingTimer(deadline: 1_000, serial: 0, owner: Int32(busy), kind: 0))
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("a timeout of 'busy' is pending, but the state is not active"), "\(problem)")
    }

    @Test("a timer heap out of order is caught")
    func unorderedHeap() throws {
        var machine = try Self.running()
        try machine.send("go")
        let busy = try Self.index("busy", in: machine)
        let timers = machine.mutableExtras()
        timers.timers.insert(PendingTimer(deadline: 5_000, serial: 7, owner: Int32(busy), kind: 0))
        #expect(machine.invariantProblem() == nil)
        timers.timers.heap.swapAt(0, 1)
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("the timer heap is out of order"), "\(problem)")
    }

    @Test("a queue's read position past its end is caught")
    func queuePosition() throws {
        var machine = try Self.running()
        machine.mutableAnnex().externalHead = 3
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("read position is past its end"), "\(problem)")
    }

    @Test("an invocation of a state that is not active is caught")
    func strayInvocation() throws {
        var machine = try Self.running()
        let busy = try Self.index("busy", in: machine)
        let annex = machine.mutableAnnex()
        annex.nextInvocation = 1
        annex.liveInvocations.append(LiveInvocation(id: 0, state: Int32(busy), definition: 0))
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("the invocation 0 runs for a state that is not active"), "\(problem)")
    }

    @Test("a history that records a state it cannot restore is caught")
    func strayHistory() throws {
        var machine = try Self.running()
        let idle = try Self.index("idle", in: machine)
        let history = try Self.index("h", in: machine)
        let storage = machine.mutableHistory()
        storage.history[Int(machine.chart.layout.historySlots[history])] = [Int32(idle)]
        let problem = try #require(machine.invariantProblem())
        #expect(problem.contains("the history 'h' records 'idle'"), "\(problem)")
    }

    @Test("a compiled chart's tables are consistent, and damage to them is caught")
    func tables() throws {
        let chart = try Self.chart()
        #expect(chart.storage.layout.tableProblem() == nil)

        var reparented = chart.storage.layout
        reparented.parents[3] = 5
        #expect(reparented.tableProblem() != nil)

        var shortened = chart.storage.layout
        shortened.subtreeEnds[0] -= 1
        #expect(shortened.tableProblem() != nil)

        var wandering = chart.storage.layout
        let transition = try #require((0..<wandering.transitionCount).first { wandering.targetRange(of: $0).count > 0 })
        wandering.targets[wandering.targetRange(of: transition).lowerBound] = Int32(wandering.stateCount)
        let problem = try #require(wandering.tableProblem())
        #expect(problem.contains("outside the chart") || problem.contains("leaves it"), "\(problem)")
    }
}
