import Statecharts
import Testing

struct Failure: Error, Equatable {
    var reason: String
}

@Suite struct ErrorTests {
    @Test("an action that throws raises error.execution, and the other entry actions still run")
    func actionErrorRaisesErrorExecution() throws {
        let chart = try TestChart {
            StateNode("a") { On("go", to: "b") }
            StateNode("b") {
                OnEntry { _ in throw Failure(reason: "boom") }
                OnEntry { $0.context.append("second entry action") }
                On(named: "error.execution", to: "failed") { scope in
                    scope.context.append("caught \((scope.error as? Failure)?.reason ?? "?")")
                }
            }
            StateNode("failed")
        }
        var machine = try started(chart)
        var recorder = MachineRecorder<String, NamedEvent>()
        try machine.send("go", observer: &recorder)
        #expect(machine.activeStates == ["failed"])
        #expect(machine.context.entries == ["second entry action", "caught boom"])
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.action == .entry)
        #expect(recorder.failures.first?.state == "b")
        #expect(recorder.events.map(\.name) == ["go", "error.execution"])
    }

    @Test("a guard that throws is false and raises error.execution")
    func guardErrorIsFalse() throws {
        let chart = try TestChart {
            StateNode("a") {
                On("go", to: "wrong", guard: { _ in throw Failure(reason: "bad guard") })
                On("go", to: "b")
            }
            StateNode("b") { On(named: "error", to: "c") }
            StateNode("c")
            StateNode("wrong")
        }
        var machine = try started(chart)
        try machine.send("go")
        #expect(machine.activeStates == ["c"])
    }

    @Test("with the ignore policy an unhandled event changes nothing and send returns false")
    func unhandledIgnored() throws {
        let chart = try TestChart {
            StateNode("a") { On("go", to: "b") }
            StateNode("b")
        }
        var machine = try started(chart)
        #expect(try machine.send("nothing") == false)
        #expect(machine.activeStates == ["a"])
        #expect(try machine.send("go") == true)
    }

    @Test(
        "with the reject policy an unhandled event throws, naming the event and the configuration, and changes nothing")
    func unhandledRejected() throws {
        let chart = try TestChart {
            StateNode("p", initial: "a") {
                StateNode("a") { On("go", to: "b", guard: { _ in false }) }
                StateNode("b")
            }
        }
        var machine = try started(chart, unhandled: .reject)
        do {
            try machine.send("go")
            Issue.record("expected a rejection")
        } catch {
            guard case .unhandledEvent(let event, let configuration) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(event.kind == "go")
            #expect(configuration == ["a"])
            #expect(error.description == "no transition handles the event 'go' in the configuration [a]")
        }
        #expect(machine.configuration == ["p", "a"])
    }

    @Test("sending to a machine that is not started, or has finished, throws")
    func notRunning() throws {
        let chart = try TestChart {
            StateNode("a") { On("end", to: "over") }
            Final("over")
        }
        var machine = chart.makeMachine(context: Log())
        #expect(throws: MachineError<String, NamedEvent>.self) { try machine.send("end") }
        try machine.start()
        #expect(throws: MachineError<String, NamedEvent>.self) { try machine.start() }
        try machine.send("end")
        do {
            try machine.send("end")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "the machine has finished (in [over]) and takes no more events")
        }
    }
}
