import Statecharts
import Testing

@Suite struct EventOrderTests {
    @Test("raised events are processed in order, before events sent to the external queue")
    func raiseBeforeSend() throws {
        let chart = try TestChart {
            StateNode("a") {
                On("go", to: "b") { scope in
                    scope.send("z")
                    scope.raise("x")
                    scope.raise("y")
                }
            }
            StateNode("b") { On("x", to: "c") }
            StateNode("c") { On("y", to: "d") }
            StateNode("d") { On("z", to: "e") }
            StateNode("e")
        }
        var machine = try started(chart)
        let steps = try machine.step("go")
        #expect(steps.map(\.event) == ["go", "x", "y", "z"])
        #expect(machine.activeStates == ["e"])
    }

    @Test("after a microstep, eventless transitions are taken before raised events")
    func eventlessBeforeInternal() throws {
        let chart = try TestChart {
            StateNode("a") { On("go", to: "b") }
            StateNode("b") {
                OnEntry { $0.raise("i") }
                Always(to: "c")
                On("i", to: "wrong")
            }
            StateNode("c") { On("i", to: "d") }
            StateNode("d")
            StateNode("wrong")
        }
        var machine = try started(chart)
        let steps = try machine.step("go")
        #expect(steps.map(\.event) == ["go", nil, "i"])
        #expect(machine.activeStates == ["d"])
    }

    @Test("eventless transitions cascade to a fixed point, reading the context")
    func eventlessCascade() throws {
        let chart = try TestChart {
            StateNode("counting") {
                Always(to: "counting", guard: { $0.context.counter < 5 }) { $0.context.counter += 1 }
                Always(to: "done", guard: { $0.context.counter >= 5 })
            }
            StateNode("done")
        }
        let machine = try started(chart)
        #expect(machine.context.counter == 5)
        #expect(machine.activeStates == ["done"])
    }

    @Test("a runaway eventless loop stops with microstepLimitExceeded after the limit, and the machine goes on")
    func runawayLoop() throws {
        let chart = try TestChart(microstepLimit: 50) {
            StateNode("a") {
                Always(to: "b") { $0.context.counter += 1 }
                On("escape", to: "c")
            }
            StateNode("b") { Always(to: "a") { $0.context.counter += 1 } }
            StateNode("c")
        }
        var machine = chart.makeMachine(context: Log())
        #expect(machine.microstepLimit == 50)
        do {
            try machine.start()
            Issue.record("expected the start to stop")
        } catch {
            guard case .microstepLimitExceeded(let limit, let configuration) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(limit == 50)
            #expect(configuration.count == 1)
        }
        #expect(machine.context.counter == 49, "the initial microstep plus 49 eventless ones")
        #expect(machine.status == .running)
        machine.microstepLimit = 10
        #expect(throws: MachineError<String, NamedEvent>.self) { try machine.send("escape") }
    }

    @Test("events sent to the external queue are processed one macrostep each, in order")
    func externalQueueOrder() throws {
        let chart = try TestChart {
            StateNode("a") {
                OnEntry { scope in
                    scope.send("first")
                    scope.send("second")
                }
                On("first", to: "b")
            }
            StateNode("b") { On("second", to: "c") }
            StateNode("c")
        }
        let machine = try started(chart)
        #expect(machine.activeStates == ["c"])
    }

    @Test("an event sent to the machine is processed after the events already raised during start")
    func internalQueueDrainedBeforeNextExternal() throws {
        let chart = try TestChart {
            StateNode("a") {
                OnEntry { $0.raise("internal") }
                On("internal", to: "b")
                On("external", to: "wrong")
            }
            StateNode("b") { On("external", to: "c") }
            StateNode("c")
            StateNode("wrong")
        }
        var machine = try started(chart)
        try machine.send("external")
        #expect(machine.activeStates == ["c"])
    }
}
