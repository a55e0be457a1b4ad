import Statecharts
import Testing

@Suite struct TimeTests {
    func timeoutChart() throws -> TestChart {
        try TestChart {
            StateNode("idle") { On("scan", to: "scanning") }
            StateNode("scanning") {
                logged("scanning")
                After(.seconds(10), to: "idle") { $0.context.append("timed out") }
                On("found", to: "connected")
                On("rescan", to: "scanning")
            }
            StateNode("connected") { On("drop", to: "scanning") }
        }
    }

    @Test("a timeout fires when its state has been active for its delay")
    func timeoutFires() throws {
        var machine = try started(try timeoutChart())
        try machine.send("scan")
        #expect(machine.nextDeadline == .seconds(10))
        try machine.advance(by: .seconds(9))
        #expect(machine.activeStates == ["scanning"])
        try machine.advance(by: .seconds(1))
        #expect(machine.activeStates == ["idle"])
        #expect(machine.context.entries.last == "timed out")
        #expect(machine.now == .seconds(10))
        #expect(machine.pendingTimerCount == 0)
    }

    @Test("armedTimerCount grows with each timer armed, so with the pending count it tells when timers changed")
    func armedTimerCount() throws {
        var machine = try started(try timeoutChart())
        #expect(machine.armedTimerCount == 0)
        try machine.send("scan")
        #expect((machine.armedTimerCount, machine.pendingTimerCount) == (1, 1))
        try machine.send("rescan")
        #expect((machine.armedTimerCount, machine.pendingTimerCount) == (2, 1), "re-entered: one cancelled, one armed")
        try machine.advance(by: .seconds(3))
        #expect((machine.armedTimerCount, machine.pendingTimerCount) == (2, 1), "time passing alone changes nothing")
        try machine.send("found")
        #expect((machine.armedTimerCount, machine.pendingTimerCount) == (2, 0))
    }

    @Test("exiting the state cancels its timeout")
    func timeoutCancelledOnExit() throws {
        var machine = try started(try timeoutChart())
        try machine.send("scan")
        try machine.advance(by: .seconds(5))
        try machine.send("found")
        #expect(machine.pendingTimerCount == 0)
        try machine.advance(by: .seconds(60))
        #expect(machine.activeStates == ["connected"])
        #expect(!machine.context.entries.contains("timed out"))
    }

    @Test("re-entering the state restarts its timeout")
    func timeoutRestartsOnReentry() throws {
        var machine = try started(try timeoutChart())
        try machine.send("scan")
        try machine.advance(by: .seconds(8))
        try machine.send("rescan")
        try machine.advance(by: .seconds(8))
        #expect(machine.activeStates == ["scanning"])
        try machine.advance(by: .seconds(2))
        #expect(machine.activeStates == ["idle"])
        #expect(machine.now == .seconds(18))
    }

    @Test("a delayed event survives the exit of the state that sent it, and can be cancelled by id")
    func delayedEvents() throws {
        let chart = try TestChart {
            StateNode("a") {
                OnEntry { scope in
                    scope.send("ping", after: .seconds(3), id: "ping")
                    scope.send("pong", after: .seconds(5), id: "pong")
                }
                On("leave", to: "b")
            }
            StateNode("b") {
                On("ping") { $0.context.append("ping at \($0.now)") }
                On("pong") { $0.context.append("pong") }
                On("cancel") { $0.cancel(id: "pong") }
            }
        }
        var machine = try started(chart)
        try machine.send("leave")
        try machine.advance(by: .seconds(4))
        #expect(machine.context.entries == ["ping at 3.0 seconds"])
        try machine.send("cancel")
        try machine.advance(by: .seconds(10))
        #expect(machine.context.entries == ["ping at 3.0 seconds"])
        #expect(machine.cancelDelayedEvents(id: "unknown") == 0)
    }

    @Test("timers with the same deadline fire in the order they were armed; each is processed at its own deadline")
    func timerOrder() throws {
        let chart = try TestChart {
            StateNode("a") {
                OnEntry { scope in
                    scope.send("late", after: .seconds(2))
                    scope.send("first", after: .seconds(1))
                    scope.send("second", after: .seconds(1))
                }
                On(named: "*") { $0.context.append("\($0.eventName ?? "?") at \($0.now)") }
            }
        }
        var machine = try started(chart)
        try machine.advance(to: .seconds(5))
        #expect(machine.context.entries == ["first at 1.0 seconds", "second at 1.0 seconds", "late at 2.0 seconds"])
    }

    @Test("a timer armed while advancing fires within the same advance when it falls due")
    func cascadingTimers() throws {
        let chart = try TestChart {
            StateNode("a") { After(.seconds(1), to: "b") }
            StateNode("b") { After(.seconds(1), to: "c") }
            StateNode("c") { After(.seconds(1), to: "a") }
        }
        var machine = try started(chart)
        var recorder = MachineRecorder<String, NamedEvent>()
        try machine.advance(by: .milliseconds(2500), observer: &recorder)
        #expect(machine.activeStates == ["c"])
        #expect(recorder.events.map(\.origin) == [.timer, .timer])
        #expect(machine.nextDeadline == .seconds(3))
    }

    @Test("a zero delay fires on the next advance, even by zero; advancing to the past does nothing")
    func zeroDelayAndPast() throws {
        let chart = try TestChart {
            StateNode("a") { After(.zero, to: "b") }
            StateNode("b")
        }
        var machine = try started(chart)
        #expect(machine.activeStates == ["b"], "a timer due at the current time fires when the step ends")
        try machine.advance(to: .seconds(10))
        try machine.advance(to: .seconds(5))
        #expect(machine.now == .seconds(10))
    }

    @Test("a timeout's guard is checked when it fires")
    func guardedTimeout() throws {
        let chart = try TestChart {
            StateNode("a") {
                After(.seconds(1), to: "b", guard: { $0.context.counter > 0 })
                On("arm") { $0.context.counter = 1 }
            }
            StateNode("b")
        }
        var machine = try started(chart)
        try machine.advance(by: .seconds(2))
        #expect(machine.activeStates == ["a"], "the guard was false when the timeout fired; it does not fire again")
        try machine.send("arm")
        try machine.advance(by: .seconds(2))
        #expect(machine.activeStates == ["a"])
    }

    @Test("a finished machine drops its timers")
    func finishedMachineHasNoTimers() throws {
        let chart = try TestChart {
            StateNode("a") {
                OnEntry { $0.send("later", after: .seconds(1)) }
                After(.seconds(5), to: "end")
                On("stop", to: "end")
            }
            Final("end")
        }
        var machine = try started(chart)
        #expect(machine.pendingTimerCount == 2)
        try machine.send("stop")
        #expect(machine.pendingTimerCount == 0)
        try machine.advance(by: .seconds(10))
        #expect(machine.now == .seconds(10))
    }
}
