import Statecharts
import Testing

@Suite struct CompletionTests {
    @Test("entering a final child raises done.state for the parent, with the final state's done data")
    func compoundCompletion() throws {
        let chart = try TestChart(initial: "job") {
            StateNode("job") {
                StateNode("working") { On("finish", to: "complete") }
                Final("complete") { DoneData { _ in 42 } }
                OnDone(to: "idle") { scope in
                    scope.context.counter = scope.doneData as? Int ?? -1
                    scope.context.append(scope.eventName ?? "?")
                }
            }
            StateNode("idle")
        }
        var machine = try started(chart)
        try machine.send("finish")
        #expect(machine.activeStates == ["idle"])
        #expect(machine.context.counter == 42)
        #expect(machine.context.entries == ["done.state.job"])
    }

    @Test("a parallel state completes when all its regions are in final states")
    func parallelCompletion() throws {
        let chart = try TestChart(initial: "p") {
            Parallel("p") {
                StateNode("a") {
                    StateNode("a1") { On("x", to: "af") }
                    Final("af")
                }
                StateNode("b") {
                    StateNode("b1") { On("y", to: "bf") }
                    Final("bf")
                }
                On(named: "done.state.a done.state.b", type: .internal) { $0.context.append($0.eventName ?? "?") }
                OnDone(to: "finished")
            }
            StateNode("finished")
        }
        var machine = try started(chart)
        try machine.send("x")
        #expect(machine.context.entries == ["done.state.a"])
        #expect(machine.activeStates == ["af", "b1"])
        try machine.send("y")
        #expect(machine.context.entries == ["done.state.a", "done.state.b"])
        #expect(machine.activeStates == ["finished"])
    }

    @Test("nested parallels: done events follow Appendix D, which checks only the final state's grandparent")
    func nestedParallelCompletion() throws {
        // o is parallel; its regions are the parallel p (regions a, b) and the compound c.
        func chart() throws -> TestChart {
            try TestChart(initial: "o") {
                Parallel("o") {
                    Parallel("p") {
                        StateNode("a") {
                            StateNode("a1") { On("a", to: "af") }
                            Final("af")
                        }
                        StateNode("b") {
                            StateNode("b1") { On("b", to: "bf") }
                            Final("bf")
                        }
                    }
                    StateNode("c") {
                        StateNode("c1") { On("c", to: "cf") }
                        Final("cf")
                    }
                    On(named: "done.state", type: .internal) { $0.context.append($0.eventName ?? "?") }
                }
            }
        }
        var lastIsCompound = try started(try chart())
        for event: NamedEvent in ["a", "b", "c"] { try lastIsCompound.send(event) }
        #expect(
            lastIsCompound.context.entries == [
                "done.state.a", "done.state.b", "done.state.p", "done.state.c", "done.state.o",
            ])

        var lastIsNestedParallel = try started(try chart())
        for event: NamedEvent in ["c", "a", "b"] { try lastIsNestedParallel.send(event) }
        #expect(
            lastIsNestedParallel.context.entries == ["done.state.c", "done.state.a", "done.state.b", "done.state.p"],
            "o's grandchild bf completes p, but o is not bf's grandparent, so no done.state.o")
    }

    @Test("entering a top-level final state finishes the machine; exit actions run and the configuration stays")
    func topLevelFinal() throws {
        let chart = try TestChart {
            StateNode("a") { On("end", to: "over") }
            Final("over") {
                logged("over")
                DoneData { _ in "result" }
            }
        }
        var machine = try started(chart)
        try machine.send("end")
        #expect(machine.status == .finished)
        #expect(machine.activeStates == ["over"])
        #expect(machine.context.entries == ["enter over", "exit over"])
        #expect(machine.result as? String == "result")
        #expect(throws: MachineError<String, NamedEvent>.self) { try machine.send("end") }
    }

    @Test("a machine that finishes while it starts is finished after start()")
    func finishesOnStart() throws {
        let chart = try TestChart {
            StateNode("a") { Always(to: "done") }
            Final("done")
        }
        let machine = try started(chart)
        #expect(machine.status == .finished)
    }
}
