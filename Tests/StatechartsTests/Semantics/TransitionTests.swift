import Statecharts
import Testing

@Suite struct TransitionTests {
    @Test("a transition exits its source and enters its target, and runs its action between")
    func simpleTransition() throws {
        let chart = try TestChart(initial: "a") {
            StateNode("a") {
                logged("a")
                On("t", to: "b") { $0.context.append("action") }
            }
            StateNode("b") { logged("b") }
        }
        var machine = try started(chart)
        #expect(machine.context.entries == ["enter a"])
        let log = try logged(&machine) { try $0.send("t") }
        #expect(log == ["exit a", "action", "enter b"])
        #expect(machine.activeStates == ["b"])
    }

    @Test("an external self-transition exits and re-enters its state")
    func externalSelfTransition() throws {
        let chart = try TestChart {
            StateNode("a") {
                logged("a")
                On("again", to: "a")
            }
        }
        var machine = try started(chart)
        #expect(try logged(&machine) { try $0.send("again") } == ["exit a", "enter a"])
    }

    @Test("a targetless transition runs its action and changes no state")
    func targetlessTransition() throws {
        let chart = try TestChart {
            StateNode("a") {
                logged("a")
                On("tick") { $0.context.counter += 1 }
            }
        }
        var machine = try started(chart)
        let log = try logged(&machine) {
            try $0.send("tick")
            try $0.send("tick")
        }
        #expect(log.isEmpty)
        #expect(machine.context.counter == 2)
    }

    @Test("an internal transition of a compound state does not exit it; an external one does")
    func internalTransitionOfCompoundState() throws {
        let chart = try TestChart {
            StateNode("p", initial: "p1") {
                logged("p")
                StateNode("p1") { logged("p1") }
                StateNode("p2") { logged("p2") }
                On("internal", to: "p2", type: .internal)
                On("external", to: "p1")
                On("stay", type: .internal) { $0.context.append("stay") }
            }
        }
        var machine = try started(chart)
        #expect(try logged(&machine) { try $0.send("internal") } == ["exit p1", "enter p2"])
        #expect(try logged(&machine) { try $0.send("external") } == ["exit p2", "exit p", "enter p", "enter p1"])
        #expect(try logged(&machine) { try $0.send("stay") } == ["stay"])
    }

    @Test("an internal transition to a state outside its source behaves as an external one")
    func internalTransitionLeavingSource() throws {
        let chart = try TestChart {
            StateNode("p", initial: "p1") {
                logged("p")
                StateNode("p1") {
                    logged("p1")
                    On("out", to: "q", type: .internal)
                }
            }
            StateNode("q") { logged("q") }
        }
        var machine = try started(chart)
        #expect(try logged(&machine) { try $0.send("out") } == ["exit p1", "exit p", "enter q"])
    }

    @Test("an internal transition from an atomic state to itself exits and re-enters it")
    func internalTransitionOfAtomicState() throws {
        let chart = try TestChart {
            StateNode("a") {
                logged("a")
                On("t", to: "a", type: .internal)
            }
        }
        var machine = try started(chart)
        #expect(try logged(&machine) { try $0.send("t") } == ["exit a", "enter a"])
    }

    @Test("of a state's transitions, the first in document order whose guard holds is taken")
    func documentOrderWithinState() throws {
        let chart = try TestChart {
            StateNode("a") {
                On("t", to: "b", guard: { $0.context.counter > 0 })
                On("t", to: "c")
                On("t", to: "d")
            }
            StateNode("b")
            StateNode("c")
            StateNode("d")
        }
        var machine = try started(chart)
        try machine.send("t")
        #expect(machine.activeStates == ["c"])
    }

    @Test("a state's transitions take precedence over its ancestors'; a failing guard falls through to them")
    func descendantPrecedence() throws {
        let chart = try TestChart {
            StateNode("p", initial: "child") {
                StateNode("child") {
                    On("t", to: "fromChild")
                    On("u", to: "fromChild", guard: { _ in false })
                }
                On("t", to: "fromParent")
                On("u", to: "fromParent")
                On("v", to: "fromParent")
            }
            StateNode("fromChild")
            StateNode("fromParent")
        }
        var first = try started(chart)
        try first.send("t")
        #expect(first.activeStates == ["fromChild"])
        var second = try started(chart)
        try second.send("u")
        #expect(second.activeStates == ["fromParent"])
        var third = try started(chart)
        try third.send("v")
        #expect(third.activeStates == ["fromParent"])
    }

    @Test("a transition on several events fires on each of them")
    func severalEvents() throws {
        let chart = try TestChart {
            StateNode("a") { On(named: "x", "y", to: "b") }
            StateNode("b") { On(named: "y x", to: "a") }
        }
        var machine = try started(chart)
        try machine.send("y")
        #expect(machine.activeStates == ["b"])
        try machine.send("x")
        #expect(machine.activeStates == ["a"], "a string of several names, as in SCXML's event attribute")
    }

    @Test("descriptors match by dot-separated prefix, with '*' matching everything")
    func descriptorMatching() throws {
        let chart = try TestChart {
            StateNode("a") {
                On(named: "error", to: "caughtError")
                On(named: "done.*", to: "caughtDone")
                On(named: "*", to: "caughtAny")
            }
            StateNode("caughtError")
            StateNode("caughtDone")
            StateNode("caughtAny")
        }
        let cases: [(NamedEvent, String)] = [
            ("error", "caughtError"), ("error.execution", "caughtError"), ("error.send.failed", "caughtError"),
            ("errors", "caughtAny"), ("done", "caughtDone"), ("done.state.x", "caughtDone"), ("other", "caughtAny"),
        ]
        for (event, expected) in cases {
            var machine = try started(chart)
            try machine.send(event)
            #expect(machine.activeStates == [expected], "event \(event)")
        }
    }

    @Test("a transition with several targets in parallel regions enters them all")
    func multipleTargets() throws {
        let chart = try TestChart {
            StateNode("idle") { On("go", to: "a2", "b2") }
            Parallel("p") {
                logged("p")
                StateNode("a") {
                    logged("a")
                    StateNode("a1") { logged("a1") }
                    StateNode("a2") { logged("a2") }
                }
                StateNode("b") {
                    logged("b")
                    StateNode("b1") { logged("b1") }
                    StateNode("b2") { logged("b2") }
                }
            }
        }
        var machine = try started(chart)
        #expect(
            try logged(&machine) { try $0.send("go") } == ["enter p", "enter a", "enter a2", "enter b", "enter b2"])
        #expect(machine.activeStates == ["a2", "b2"])
    }

    @Test("transitions exit and enter whole subtrees, between the deepest states, in document order")
    func deepTransition() throws {
        let chart = try TestChart {
            StateNode("x", initial: "x1") {
                logged("x")
                StateNode("x1", initial: "x11") {
                    logged("x1")
                    StateNode("x11") {
                        logged("x11")
                        On("t", to: "y11")
                    }
                }
            }
            StateNode("y", initial: "y1") {
                logged("y")
                StateNode("y1", initial: "y11") {
                    logged("y1")
                    StateNode("y11") { logged("y11") }
                }
            }
        }
        var machine = try started(chart)
        #expect(machine.configuration == ["x", "x1", "x11"])
        #expect(
            try logged(&machine) { try $0.send("t") } == [
                "exit x11", "exit x1", "exit x", "enter y", "enter y1", "enter y11",
            ])
    }

    @Test("a transition inside a compound state exits and enters only below their common compound ancestor")
    func leastCommonCompoundAncestor() throws {
        let chart = try TestChart {
            StateNode("p", initial: "q") {
                logged("p")
                StateNode("q", initial: "q1") {
                    logged("q")
                    StateNode("q1") {
                        logged("q1")
                        On("t", to: "r1")
                    }
                }
                StateNode("r", initial: "r1") {
                    logged("r")
                    StateNode("r1") { logged("r1") }
                }
            }
        }
        var machine = try started(chart)
        #expect(try logged(&machine) { try $0.send("t") } == ["exit q1", "exit q", "enter r", "enter r1"])
    }

    @Test("a transition at the top of the chart applies in every state, after the states' own")
    func topLevelTransitions() throws {
        let chart = try TestChart(
            name: "global",
            elements: [
                .state(
                    "a",
                    elements: logged("a") + [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["b"])]
                ),
                .state("b", elements: logged("b")),
                .transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["c"]),
                .transition(.events([.descriptor(EventDescriptor("reset"))]), targets: ["a"]),
                .transition(.events([.descriptor(EventDescriptor("*"))]), action: { $0.context.counter += 1 }),
                .state("c", elements: logged("c")),
            ])
        var machine = try started(chart)
        try machine.send("go")
        #expect(machine.activeStates == ["b"], "a's own transition wins")
        try machine.send("go")
        #expect(machine.activeStates == ["c"], "b has none: the chart's applies")
        #expect(try logged(&machine) { try $0.send("reset") } == ["exit c", "enter a"])
        try machine.send("anything")
        #expect(machine.context.counter == 1)
    }

    @Test("an Initial element's action runs after the state's entry actions and before its child's")
    func initialAction() throws {
        let chart = try TestChart {
            StateNode("p") {
                logged("p")
                Initial(to: "p2") { $0.context.append("initial") }
                StateNode("p1") { logged("p1") }
                StateNode("p2") { logged("p2") }
            }
        }
        let machine = try started(chart)
        #expect(machine.context.entries == ["enter p", "initial", "enter p2"])
    }
}
