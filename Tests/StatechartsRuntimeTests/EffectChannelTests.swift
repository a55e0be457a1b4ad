import Clocks
import Statecharts
import Testing

/// What a step wants done outside the machine leaves it as values (`MachineEffect`), through one
/// channel; what comes of it comes back as events. A runtime that cannot do something says so
/// with an error event, never in silence.
@Suite("The effect channel", .timeLimit(.minutes(1)))
struct EffectChannelTests {
    enum Phase: Hashable, Sendable { case idle, busy, failed, done }
    enum Signal: StatechartEvent, CaseIterable { case go, stop, reply }

    /// `go` enters `busy`, which sends `reply` to `#_parent` (cancelled on exit), writes a log line
    /// and runs an invocation the chart only describes; `error.communication` and `error.execution` lead to
    /// `failed`, recording the failure's element in the context.
    static func chart() throws -> Statechart<Phase, Signal, Int> {
        try Statechart<Phase, Signal, Int>(initial: .idle) {
            StateNode(.idle) { On(.go, to: .busy) }
            StateNode(.busy) {
                OnEntry { scope in
                    scope.send(.reply, to: "#_parent", after: .seconds(2), id: "answer")
                    scope.log("busy now", label: "effects")
                }
                ChartElement<Phase, Signal, Int>.invoke(
                    id: "worker", describedBy: { _, _ in "a description only a runtime can read" })
                OnExit { $0.cancel(id: "answer") }
                On(.stop, to: .idle)
                On(named: "error.communication", to: .failed) { scope in
                    scope.context = scope.failure?.element == .send ? 1 : -1
                }
                On(named: "error.execution", to: .failed) { scope in
                    scope.context = scope.failure?.element == .invoke ? 2 : -2
                }
            }
            StateNode(.failed)
        }
    }

    @Test("a pure machine hands out what its step asked for, in order, and keeps nothing back")
    func pureMachine() throws {
        var machine = try Self.chart().makeMachine(context: 0)
        try machine.start()
        #expect(machine.takeEffects().isEmpty)
        try machine.send(.go)
        let effects = machine.takeEffects()
        #expect(effects.count == 3, "\(effects)")
        guard effects.count == 3 else { return }
        guard case .send(let outgoing) = effects[0] else {
            Issue.record("expected the send first, got \(effects[0])")
            return
        }
        #expect(outgoing.target == "#_parent" && outgoing.delay == .seconds(2) && outgoing.id == "answer")
        #expect(outgoing.location?.file.hasSuffix("EffectChannelTests.swift") == true)
        guard case .log(let record) = effects[1] else {
            Issue.record("expected the log second, got \(effects[1])")
            return
        }
        #expect(record.description == "effects: busy now")
        guard case .startInvocation(let start) = effects[2] else {
            Issue.record("expected the invocation third, got \(effects[2])")
            return
        }
        #expect(start.name == "worker" && start.state == .busy && !start.hasWork)
        #expect(start.descriptor as? String == "a description only a runtime can read")
        #expect(machine.isRunning(start.id))
        #expect(machine.takeEffects().isEmpty, "taken once")

        // Leaving the state cancels the delayed send and the invocation.
        try machine.send(.stop)
        let leaving = machine.takeEffects()
        #expect(leaving.contains { if case .cancelSend(id: "answer") = $0 { true } else { false } })
        #expect(leaving.contains { if case .cancelInvocation(start.id) = $0 { true } else { false } })
        #expect(!machine.isRunning(start.id))
    }

    @Test("a send the runtime cannot deliver comes back as error.communication, with a typed failure")
    func undelivered() throws {
        var machine = try Self.chart().makeMachine(context: 0)
        try machine.start()
        try machine.send(.go)
        guard case .send(let outgoing) = machine.takeEffects().first else {
            Issue.record("no send")
            return
        }
        #expect(try machine.reportUndelivered(outgoing, reason: "no parent here"))
        #expect(machine.isActive(.failed))
        #expect(machine.context == 1)
    }

    @Test("a live machine reports what it cannot do: the send to a parent and the described invocation")
    func liveRuntime() async throws {
        let log = InspectionLog<Phase, Signal>()
        let machine = StatechartActor(
            try Self.chart(), context: 0, timers: TimerWheel(clock: TestClock()), inspect: log.hook)
        try await machine.start()
        try await machine.send(.go)
        let failed = await machine.waitUntil { $0.isActive(.failed) }
        // Both fail at once, in the order the step asked for them: the send to `#_parent` (no
        // parent here) before the described invocation (no runtime here can read its description),
        // so `error.communication` leaves the state first.
        #expect(failed?.context == 1)
        #expect(
            log.all.contains { if case .undelivered(let outgoing, _) = $0 { outgoing.id == "answer" } else { false } })
        #expect(log.all.contains { if case .log(let record) = $0 { record.message == "busy now" } else { false } })
    }

    @Test("error.communication is processed within the step that sent, ahead of the invocation's outcome")
    @MainActor func undeliveredWithinTheStep() async throws {
        let isolated = IsolatedStatechart(try Self.chart(), context: 0, timers: TimerWheel(clock: TestClock()))
        try isolated.start()
        try isolated.send(.go)
        // No suspension since the send: the answer did not wait for a task.
        #expect(isolated.isActive(.failed) && isolated.context == 1)

        let actor = StatechartActor(try Self.chart(), context: 0, timers: TimerWheel(clock: TestClock()))
        try await actor.start()
        try await actor.send(.go)
        let snapshot = await actor.snapshot
        #expect(snapshot.isActive(.failed) && snapshot.context == 1)
    }

    @Test("a chart that answers error.communication with another send nobody takes is stopped at its microstep limit")
    @MainActor func undeliveredLoop() async throws {
        // A small limit: the test's rounds are few (the default's 100,000 took 27 s under the
        // thread sanitizer, on the main actor).
        let chart = try Statechart<Phase, Signal, Int>(initial: .idle, microstepLimit: 200) {
            StateNode(.idle) {
                On(.go) { $0.send(.reply, to: "#_parent") }
                On(named: "error.communication") { scope in
                    scope.context += 1
                    scope.send(.reply, to: "#_parent")
                }
                On(.stop, to: .done)
            }
            StateNode(.done)
        }
        let log = InspectionLog<Phase, Signal>()
        let machine = IsolatedStatechart(chart, context: 0, inspect: log.hook)
        try machine.start()
        try machine.send(.go)
        let limit = machine.machine().microstepLimit
        #expect(limit == 200)
        #expect(machine.context == limit, "one answer per round, up to the limit")
        #expect(
            log.all.contains {
                if case .failed(.microstepLimitExceeded(let reported, _)) = $0 { reported == limit } else { false }
            })
        // The machine takes events again.
        try machine.send(.stop)
        #expect(machine.isActive(.done))
    }

    @Test("a live machine with no one to send to reports the send as undelivered, with its reason")
    func liveUndelivered() async throws {
        let chart = try Statechart<Phase, Signal, Int>(initial: .idle) {
            StateNode(.idle) {
                On(.go) { $0.send(.reply, to: "#_parent") }
                On(named: "error.communication", to: .failed) { scope in
                    scope.context = scope.failure?.reason.isEmpty == false ? 1 : -1
                }
            }
            StateNode(.failed)
        }
        let log = InspectionLog<Phase, Signal>()
        let machine = StatechartActor(chart, context: 0, inspect: log.hook)
        try await machine.start()
        try await machine.send(.go)
        #expect(await machine.waitUntil { $0.isActive(.failed) }?.context == 1)
        #expect(
            log.all.contains {
                if case .undelivered(let outgoing, _) = $0 { outgoing.target == "#_parent" } else { false }
            })
    }

    @Test("an action that throws gives error.execution whose failure names the element, its state and position")
    func typedFailure() throws {
        struct Broken: Error {}
        let chart = try Statechart<Phase, Signal, Int>(initial: .idle) {
            StateNode(.idle) {
                OnEntry { _ in throw Broken() }
                On(named: "error.execution", to: .failed) { scope in
                    let failure = scope.failure
                    scope.context =
                        failure?.element == .onEntry && failure?.state == "idle" && failure?.error is Broken
                            && failure?.location?.file.hasSuffix("EffectChannelTests.swift") == true ? 1 : -1
                }
            }
            StateNode(.failed)
        }
        var machine = chart.makeMachine(context: 0)
        try machine.start()
        #expect(machine.isActive(.failed))
        #expect(machine.context == 1)
    }
}
