import Statecharts
import Testing

@Suite struct HistoryTests {
    /// `w` holds history `h` and children `c` (c1 with c11, c12; c2). `out` is outside.
    func chart(_ type: HistoryType, defaultAction: Bool = false) throws -> TestChart {
        try TestChart(initial: "out") {
            StateNode("out") {
                On("resume", to: "h")
                On("restart", to: "w")
            }
            StateNode("w", initial: "c1") {
                logged("w")
                History("h", type, default: "c2") { scope in
                    if defaultAction { scope.context.append("history default") }
                }
                StateNode("c1", initial: "c11") {
                    logged("c1")
                    StateNode("c11") {
                        logged("c11")
                        On("next", to: "c12")
                    }
                    StateNode("c12") { logged("c12") }
                }
                StateNode("c2") {
                    logged("c2")
                    On("switch", to: "c1")
                }
                On("leave", to: "out")
            }
        }
    }

    @Test("before its parent is exited, a history state goes to its default and runs the default's action")
    func defaultBeforeRecording() throws {
        var machine = try started(try chart(.shallow, defaultAction: true))
        #expect(try logged(&machine) { try $0.send("resume") } == ["enter w", "history default", "enter c2"])
    }

    @Test("shallow history restores the active child, which enters its own initial state")
    func shallowHistory() throws {
        var machine = try started(try chart(.shallow))
        try machine.send("restart")
        try machine.send("next")
        #expect(machine.activeStates == ["c12"])
        try machine.send("leave")
        try machine.send("resume")
        #expect(machine.configuration == ["w", "c1", "c11"])
    }

    @Test("deep history restores the active atomic descendants")
    func deepHistory() throws {
        var machine = try started(try chart(.deep))
        try machine.send("restart")
        try machine.send("next")
        try machine.send("leave")
        let log = try logged(&machine) { try $0.send("resume") }
        #expect(machine.configuration == ["w", "c1", "c12"])
        #expect(log == ["enter w", "enter c1", "enter c12"])
    }

    @Test("history is recorded each time the parent is exited")
    func historyIsRerecorded() throws {
        var machine = try started(try chart(.shallow))
        try machine.send("restart")
        try machine.send("leave")
        try machine.send("resume")
        #expect(machine.activeStates == ["c11"])
        try machine.send("leave")
        try machine.send("restart")
        try machine.send("next")
        try machine.send("leave")
        try machine.send("resume")
        #expect(machine.activeStates == ["c11"], "shallow: c1 is re-entered by its initial state")
    }

    @Test("deep history into a parallel state restores every region's atomic state")
    func deepHistoryIntoParallel() throws {
        let chart = try TestChart(initial: "idle") {
            StateNode("idle") { On("go", to: "h") }
            StateNode("w") {
                History("h", .deep, default: "p")
                Parallel("p") {
                    logged("p")
                    StateNode("a") {
                        logged("a")
                        StateNode("a1") { On("t", to: "a2") }
                        StateNode("a2") { logged("a2") }
                    }
                    StateNode("b") {
                        logged("b")
                        StateNode("b1") { On("t", to: "b2") }
                        StateNode("b2") {
                            logged("b2")
                            On("u", to: "b3")
                        }
                        StateNode("b3") { logged("b3") }
                    }
                }
                On("leave", to: "idle")
            }
        }
        var machine = try started(chart)
        try machine.send("go")
        #expect(machine.activeStates == ["a1", "b1"])
        try machine.send("t")
        try machine.send("u")
        try machine.send("leave")
        let log = try logged(&machine) { try $0.send("go") }
        #expect(machine.activeStates == ["a2", "b3"])
        #expect(log == ["enter p", "enter a", "enter a2", "enter b", "enter b3"])
    }

    @Test("shallow history of a parallel state without a default restores, or enters, all regions")
    func historyOfParallelState() throws {
        let chart = try TestChart(initial: "idle") {
            StateNode("idle") { On("go", to: "h") }
            Parallel("p") {
                History("h", .shallow)
                StateNode("a") {
                    StateNode("a1") { On("t", to: "a2") }
                    StateNode("a2")
                }
                StateNode("b") { StateNode("b1") }
                On("leave", to: "idle")
            }
        }
        var machine = try started(chart)
        try machine.send("go")
        #expect(machine.activeStates == ["a1", "b1"])
        try machine.send("t")
        try machine.send("leave")
        try machine.send("go")
        #expect(machine.activeStates == ["a1", "b1"], "shallow history re-enters a and b by default")
    }

    @Test("a transition to a history state takes its domain from the restored states")
    func domainFromRestoredStates() throws {
        // Deep history h of w recorded c12; a transition from c11... is exited first. Here the
        // transition from c2 to h restores c12: the domain is w, so w is not exited.
        var machine = try started(try chart(.deep))
        try machine.send("restart")
        try machine.send("next")
        try machine.send("leave")
        try machine.send("resume")
        let chartWithInner = try TestChart(initial: "w") {
            StateNode("w", initial: "c1") {
                logged("w")
                History("h", .deep, default: "c11")
                StateNode("c1", initial: "c11") {
                    StateNode("c11") { On("next", to: "c12") }
                    StateNode("c12") { On("back", to: "h") }
                }
            }
        }
        var inner = try started(chartWithInner)
        try inner.send("next")
        let log = try logged(&inner) { try $0.send("back") }
        #expect(log.isEmpty, "w is the domain and is neither exited nor entered")
        #expect(inner.activeStates == ["c11"], "no history recorded yet: the default")
    }
}
