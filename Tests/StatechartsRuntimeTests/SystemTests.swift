import Clocks
import Statecharts
import Testing

/// Live machines that send each other events by id through a `StatechartSystem`.
@Suite("Machines that talk", .timeLimit(.minutes(1)))
struct SystemTests {
    enum Court: Hashable, Sendable { case playing }
    enum Shot: StatechartEvent, Sendable {
        case serve, hit(Int)
        enum Kind: CaseIterable, Hashable, Sendable { case serve, hit }
        var kind: Kind {
            switch self {
            case .serve: .serve
            case .hit: .hit
            }
        }
    }
    enum Other: StatechartEvent, Sendable, CaseIterable { case ping }
    enum Signal: StatechartEvent, Sendable, CaseIterable { case arm, disarm, ring }

    struct Player: Sendable, Equatable {
        /// Whom it returns the ball to.
        var peer: String
        /// The last hit it returns.
        var last: Int
        /// The hits it received, in order.
        var received: [Int] = []
    }

    /// A player that returns every hit `n` as `n + 1` to its peer, until `last`.
    static func player() throws -> Statechart<Court, Shot, Player> {
        try Statechart(initial: .playing) {
            StateNode(.playing) {
                On(.serve) { scope in scope.send(.hit(1), to: scope.context.peer) }
                On(.hit) { scope in
                    guard case .hit(let count) = scope.event else { return }
                    scope.context.received.append(count)
                    if count < scope.context.last { scope.send(.hit(count + 1), to: scope.context.peer) }
                }
            }
        }
    }

    @Test("two actors return a ball to each other by id 1,000 times: every hit arrives, in order")
    func rally() async throws {
        let system = StatechartSystem()
        let chart = try Self.player()
        let left = StatechartActor(chart, context: Player(peer: "right", last: 2000))
        let right = StatechartActor(chart, context: Player(peer: "left", last: 2000))
        try await left.join(system, as: "left")
        try await right.join(system, as: "right")
        #expect(system.ids == ["left", "right"])
        try await left.start()
        try await right.start()
        try await left.send(.serve)
        #expect(await eventually { await left.snapshot.context.received.last == 2000 })
        let leftHits = await left.snapshot.context.received
        let rightHits = await right.snapshot.context.received
        #expect(rightHits == Array(stride(from: 1, through: 1999, by: 2)))
        #expect(leftHits == Array(stride(from: 2, through: 2000, by: 2)))
        #expect(leftHits.count + rightHits.count == 2000, "1,000 hits each way, none lost")
    }

    @Test("1,000 sends in one step, and 1,000 more from a second sender, arrive in each sender's order")
    func burst() async throws {
        let system = StatechartSystem()
        let sink = StatechartActor(try Self.player(), context: Player(peer: "nobody", last: 0))
        let burst = try Statechart<Court, Shot, Player>(initial: .playing) {
            StateNode(.playing) {
                On(.serve) { scope in
                    for count in 1...1000 { scope.send(.hit(scope.context.last + count), to: scope.context.peer) }
                }
            }
        }
        let first = StatechartActor(burst, context: Player(peer: "sink", last: 0))
        let second = StatechartActor(burst, context: Player(peer: "sink", last: 10_000))
        try await sink.join(system, as: "sink")
        try await first.join(system, as: "first")
        try await second.join(system, as: "second")
        for machine in [sink, first, second] { try await machine.start() }
        async let one: Void = { _ = try await first.send(.serve) }()
        async let two: Void = { _ = try await second.send(.serve) }()
        _ = try await (one, two)
        #expect(await eventually { await sink.snapshot.context.received.count == 2000 })
        let received = await sink.snapshot.context.received
        #expect(received.filter { $0 <= 1000 } == Array(1...1000))
        #expect(received.filter { $0 > 10_000 } == Array(10_001...11_000))
    }

    @Test("a send to an id no member has, or to one whose events are of another type, is error.communication")
    func unanswered() async throws {
        let system = StatechartSystem()
        let failures = Locked<[String]>([])
        let chart = try Statechart<Court, Shot, Player>(initial: .playing) {
            StateNode(.playing) {
                On(.serve) { scope in scope.send(.hit(1), to: scope.context.peer) }
                On(named: "error.communication") { scope in
                    let reason = scope.failure?.reason ?? "?"
                    failures.withLock { $0.append(reason) }
                }
            }
        }
        let other = StatechartActor(try Statechart<Court, Other, Void>(initial: .playing) { StateNode(.playing) })
        try await other.join(system, as: "other")
        let lonely = StatechartActor(chart, context: Player(peer: "nobody", last: 1))
        try await lonely.join(system, as: "lonely")
        try await lonely.start()
        try await lonely.send(.serve)
        let wrongType = StatechartActor(chart, context: Player(peer: "other", last: 1))
        try await wrongType.join(system, as: "wrong-type")
        try await wrongType.start()
        try await wrongType.send(.serve)
        #expect(await eventually { failures.withLock { $0.count } == 2 })
        #expect(failures.withLock { $0.allSatisfy { $0.contains("no machine of the system has the id") } })
    }

    @Test("an id is taken once; a released machine leaves the system and its id is free again")
    func membership() async throws {
        let system = StatechartSystem()
        let chart = try Self.player()
        let first = StatechartActor(chart, context: Player(peer: "b", last: 1))
        try await first.join(system, as: "a")
        await #expect(throws: StatechartSystemError.alreadyJoined("a")) { try await first.join(system, as: "c") }
        var second: StatechartActor<Court, Shot, Player>? = StatechartActor(chart, context: Player(peer: "a", last: 1))
        await #expect(throws: StatechartSystemError.idTaken("a")) { try await second?.join(system, as: "a") }
        try await second?.join(system, as: "b")
        #expect(system.ids == ["a", "b"])
        second = nil
        #expect(system.ids == ["a"])
        await #expect(throws: StatechartSystemError.invalidID("")) {
            try await StatechartActor(chart, context: Player(peer: "a", last: 1)).join(system, as: "")
        }
    }

    @Test("a delayed send waits on the sender's clock, and cancelling it by id withdraws it")
    func delayed() async throws {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let system = StatechartSystem()
        let rings = Locked(0)
        let bell = StatechartActor(
            try Statechart<Court, Signal, Void>(initial: .playing) {
                StateNode(.playing) { On(.ring) { _ in rings.withLock { $0 += 1 } } }
            }, timers: timers)
        let alarm = StatechartActor(
            try Statechart<Court, Signal, Void>(initial: .playing) {
                StateNode(.playing) {
                    On(.arm) { scope in scope.send(.ring, to: "bell", after: .seconds(5), id: "alarm") }
                    On(.disarm) { scope in scope.cancel(id: "alarm") }
                }
            }, timers: timers)
        try await bell.join(system, as: "bell")
        try await alarm.join(system, as: "alarm")
        try await bell.start()
        try await alarm.start()
        try await alarm.send(.arm)
        await clock.advance(by: .seconds(4))
        await timers.settle()
        #expect(rings.withLock { $0 } == 0)
        await clock.advance(by: .seconds(1))
        await timers.settle()
        #expect(await eventually { rings.withLock { $0 } == 1 })
        try await alarm.send(.arm)
        try await alarm.send(.disarm)
        await clock.advance(by: .seconds(10))
        await timers.settle()
        try await Task.sleep(for: .milliseconds(20))
        #expect(rings.withLock { $0 } == 1, "the cancelled send never rang")
    }

    @MainActor
    @Test("isolated machines on the main actor take the events of the system there")
    func isolated() async throws {
        let system = StatechartSystem()
        let chart = try Self.player()
        let left = IsolatedStatechart(chart, context: Player(peer: "right", last: 100))
        let right = IsolatedStatechart(chart, context: Player(peer: "left", last: 100))
        try left.join(system, as: "left")
        try right.join(system, as: "right")
        try left.start()
        try right.start()
        try left.send(.serve)
        #expect(await eventually { left.snapshot().context.received.last == 100 })
        #expect(right.snapshot().context.received == Array(stride(from: 1, through: 99, by: 2)))
        #expect(left.snapshot().context.received == Array(stride(from: 2, through: 100, by: 2)))
    }
}
