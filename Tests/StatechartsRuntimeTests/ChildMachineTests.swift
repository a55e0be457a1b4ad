import Clocks
import Statecharts
import Testing

/// A live chart that invokes another chart as a child machine: `#_parent` and `#_NAME` both
/// ways, in order, delayed and cancelled; the child's end as the parent's event; the child
/// stopped when its state is exited.
@Suite("Charts that invoke charts", .timeLimit(.minutes(1)))
struct ChildMachineTests {
    enum Stage: Hashable, Sendable, Codable { case idle, working, done, stopped, waiting, finished }
    enum Job: StatechartEvent, Sendable, Codable {
        case start, progress(Int), go, finished(Int), abort, ping, pong, later, recall, failed(String)
        enum Kind: CaseIterable, Hashable, Sendable {
            case start, progress, go, finished, abort, ping, pong, later, recall, failed
        }
        var kind: Kind {
            switch self {
            case .start: .start
            case .progress: .progress
            case .go: .go
            case .finished: .finished
            case .abort: .abort
            case .ping: .ping
            case .pong: .pong
            case .later: .later
            case .recall: .recall
            case .failed: .failed
            }
        }
    }

    struct Worker: Sendable, Equatable {
        /// How many progress reports the worker sends its parent before it waits for `go`.
        var reports: Int
        var pings = 0
    }

    struct Boss: Sendable, Equatable, Codable {
        var reports = 3
        var progress: [Int] = []
        var result: Int?
        var failures: [String] = []
    }

    /// Reports its progress to its parent on entry, answers each `ping` with `pong`, sends a report
    /// a second late on `later` (withdrawn by `recall`), and finishes on `go`.
    static func worker() throws -> Statechart<Stage, Job, Worker> {
        try Statechart(initial: .working) {
            StateNode(.working) {
                OnEntry { scope in
                    for count in stride(from: 1, through: scope.context.reports, by: 1) {
                        scope.send(.progress(count), to: "#_parent")
                    }
                }
                On(.ping) { scope in
                    scope.context.pings += 1
                    scope.send(.pong, to: "#_parent")
                }
                On(.later) { scope in scope.send(.progress(100), to: "#_parent", after: .seconds(1), id: "late") }
                On(.recall) { scope in scope.cancel(id: "late") }
                On(.go, to: .finished)
            }
            Final(.finished)
        }
    }

    /// Invokes a worker while `working`; tells it `go` once all its reports came; ends in `done`
    /// with the worker's count, or in `stopped` on `abort`.
    static func boss(worker: Statechart<Stage, Job, Worker>) throws -> Statechart<Stage, Job, Boss> {
        try Statechart(initial: .idle) {
            StateNode(.idle) { On(.start, to: .working) }
            StateNode(.working) {
                Invoke("worker", chart: worker, context: { Worker(reports: $0.reports) }) { worker in
                    .finished(worker.reports * 10 + worker.pings)
                }
                On(.progress) { scope in
                    guard case .progress(let count) = scope.event else { return }
                    scope.context.progress.append(count)
                    if count == scope.context.reports { scope.send(.ping, to: "#_worker") }
                }
                On(.pong) { scope in scope.send(.go, to: "#_worker") }
                On(.ping) { scope in scope.send(.ping, to: "#_worker") }
                On(.later) { scope in scope.send(.later, to: "#_worker") }
                On(.recall) { scope in scope.send(.recall, to: "#_worker") }
                On(.finished, to: .done) { scope in
                    guard case .finished(let result) = scope.event else { return }
                    scope.context.result = result
                }
                On(.abort, to: .stopped)
            }
            StateNode(.done) { On(.start, to: .working) }
            StateNode(.stopped) { On(.start, to: .working) }
        }
    }

    @Test("the child's reports reach the parent in order, the parent's sends reach the child, and its end is an event")
    func conversation() async throws {
        let boss = StatechartActor(try Self.boss(worker: Self.worker()), context: Boss(reports: 50))
        try await boss.start()
        try await boss.send(.start)
        #expect(await eventually { await boss.snapshot.configuration == [.done] })
        let context = await boss.snapshot.context
        #expect(context.progress == Array(1...50), "every report, in the order sent")
        #expect(context.result == 501, "done after the ping was answered: 50 reports, 1 ping")
        #expect(await boss.machine.runningInvocations.isEmpty)
    }

    @Test("each entry of the state starts a new child")
    func restarts() async throws {
        let boss = StatechartActor(try Self.boss(worker: Self.worker()), context: Boss())
        try await boss.start()
        for round in 1...3 {
            try await boss.send(.start)
            #expect(await eventually { await boss.snapshot.configuration == [.done] }, "round \(round)")
        }
        #expect(await boss.snapshot.context.progress == [1, 2, 3, 1, 2, 3, 1, 2, 3])
    }

    /// A boss on a test clock whose worker, running and silent, has a report due a second from
    /// now (`later`), waiting in the shared wheel.
    static func bossWithALateReport() async throws -> (
        TestClock<Duration>, TimerWheel, StatechartActor<Stage, Job, Boss>
    ) {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let boss = StatechartActor(try boss(worker: worker()), context: Boss(reports: 0), timers: timers)
        try await boss.start()
        try await boss.send(.start)
        try await boss.send(.later)
        #expect(await eventually { timers.count == 1 }, "the child's delayed report waits on the shared clock")
        return (clock, timers, boss)
    }

    @Test("exiting the state stops the child: its delayed send never arrives, its timers are gone")
    func exitStopsChild() async throws {
        let (clock, timers, boss) = try await Self.bossWithALateReport()
        try await boss.send(.abort)
        #expect(await boss.snapshot.configuration == [.stopped])
        #expect(await eventually { timers.count == 0 }, "the stopped child's timer is gone")
        await clock.advance(by: .seconds(2))
        await timers.settle()
        try await Task.sleep(for: .milliseconds(20))
        #expect(await boss.snapshot.context.progress.isEmpty)
    }

    @Test("a delayed send to the parent waits on the shared clock, and cancelling it by id withdraws it")
    func delayedToParent() async throws {
        let (clock, timers, boss) = try await Self.bossWithALateReport()
        await clock.advance(by: .milliseconds(999))
        await timers.settle()
        #expect(await boss.snapshot.context.progress.isEmpty)
        await clock.advance(by: .milliseconds(1))
        await timers.settle()
        #expect(await eventually { await boss.snapshot.context.progress == [100] })
        try await boss.send(.later)
        #expect(await eventually { timers.count == 1 })
        try await boss.send(.recall)
        #expect(await eventually { timers.count == 0 })
        await clock.advance(by: .seconds(5))
        await timers.settle()
        try await Task.sleep(for: .milliseconds(20))
        #expect(await boss.snapshot.context.progress == [100], "the recalled report never arrived")
    }

    @Test("a send to a child nobody invoked, or to #_parent from a machine nobody invoked, is error.communication")
    func unanswered() async throws {
        let chart = try Statechart<Stage, Job, Boss>(initial: .idle) {
            StateNode(.idle) {
                On(.ping) { scope in scope.send(.ping, to: "#_nobody") }
                On(.pong) { scope in scope.send(.pong, to: "#_parent") }
                On(named: "error.communication") { scope in
                    scope.context.failures.append(scope.failure?.reason ?? "?")
                }
            }
        }
        let machine = StatechartActor(chart, context: Boss())
        try await machine.start()
        try await machine.send(.ping)
        try await machine.send(.pong)
        #expect(await eventually { await machine.snapshot.context.failures.count == 2 })
        let failures = await machine.snapshot.context.failures
        #expect(failures.contains { $0.contains("no running child machine was invoked as 'nobody'") })
        #expect(failures.contains { $0.contains("the machine was not invoked by a live machine") })
    }

    @Test("a child that cannot start ends its invocation with error.execution")
    func childThatCannotStart() async throws {
        let failing = try Statechart<Stage, Job, Worker>(initial: .working) {
            StateNode(.working) { Always(to: .waiting) }
            StateNode(.waiting) { Always(to: .working) }
        }
        let chart = try Statechart<Stage, Job, Boss>(initial: .working) {
            StateNode(.working) {
                Invoke("looping", chart: failing, context: { _ in Worker(reports: 0) })
                On(named: "error.execution") { scope in
                    scope.context.failures.append("\(scope.error.map { "\($0)" } ?? "?")")
                }
            }
        }
        let machine = StatechartActor(chart, context: Boss())
        try await machine.start()
        #expect(await eventually { await machine.snapshot.context.failures.count == 1 })
        #expect(await machine.snapshot.context.failures.first?.contains("microstep") == true)
    }

    @Test("archived while its child runs: restored with its invocations restarted, the parent starts a new child")
    func archivedParent() async throws {
        let chart = try Self.boss(worker: Self.worker())
        let boss = StatechartActor(chart, context: Boss(reports: 0))
        try await boss.start()
        try await boss.send(.start)
        #expect(await boss.machine.runningInvocations.count == 1)
        let archive = try await boss.archive()

        let restored = StatechartActor(
            machine: try StateMachine(chart: chart, restoring: archive, invocations: .restart))
        try await restored.start()
        #expect(await restored.machine.runningInvocations.count == 1)
        // The new child answers: ping, pong, go, and it finishes.
        try await restored.send(.ping)
        #expect(await eventually { await restored.snapshot.configuration == [.done] })
        #expect(await restored.snapshot.context.result == 1)
    }

    @MainActor
    @Test("an isolated machine on the main actor invokes a child and talks to it there")
    func isolatedParent() async throws {
        let boss = IsolatedStatechart(try Self.boss(worker: Self.worker()), context: Boss(reports: 20))
        try boss.start()
        try boss.send(.start)
        #expect(await eventually { boss.snapshot().configuration == [.done] })
        #expect(boss.snapshot().context.progress == Array(1...20))
        #expect(boss.snapshot().context.result == 201)
    }

    @Test("a child invokes a grandchild: #_parent reaches the next machine up")
    func grandchild() async throws {
        let worker = try Self.worker()
        let middle = try Statechart<Stage, Job, Worker>(initial: .working) {
            StateNode(.working) {
                Invoke("inner", chart: worker, context: { Worker(reports: $0.reports) }) { inner in
                    .finished(inner.reports)
                }
                On(.progress) { scope in
                    guard case .progress(let count) = scope.event else { return }
                    scope.send(.progress(count * 100), to: "#_parent")
                    if count == scope.context.reports { scope.send(.go, to: "#_inner") }
                }
                On(.finished, to: .finished)
            }
            Final(.finished)
        }
        let boss = StatechartActor(
            try Statechart<Stage, Job, Boss>(initial: .working) {
                StateNode(.working) {
                    Invoke("middle", chart: middle, context: { Worker(reports: $0.reports) }) { _ in .finished(7) }
                    On(.progress) { scope in
                        guard case .progress(let count) = scope.event else { return }
                        scope.context.progress.append(count)
                    }
                    On(.finished, to: .done) { scope in
                        guard case .finished(let result) = scope.event else { return }
                        scope.context.result = result
                    }
                }
                StateNode(.done)
            }, context: Boss(reports: 4))
        try await boss.start()
        #expect(await eventually { await boss.snapshot.configuration == [.done] })
        #expect(await boss.snapshot.context.progress == [100, 200, 300, 400])
        #expect(await boss.snapshot.context.result == 7)
    }
}
