import Clocks
import Statecharts
import Testing

/// Live machines of a `StatechartSystem` that send through its event I/O processors
/// (`LiveEventProcessor`): in order, with what the processor cannot deliver coming back as
/// `error.communication`.
@Suite("Sends through event I/O processors", .timeLimit(.minutes(1)))
struct ProcessorSendTests {
    enum Line: Hashable, Sendable { case open, closed }
    enum Note: StatechartEvent, Sendable, Equatable {
        case flush, write(Int)
        enum Kind: CaseIterable, Hashable, Sendable { case flush, write }
        var kind: Kind {
            switch self {
            case .flush: .flush
            case .write: .write
            }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var target: String
        var description: String { "the recorder refuses '\(target)'" }
    }

    /// A processor that records what it is given, and refuses the target `refused`.
    final class Recorder: LiveEventProcessor {
        let types = ["urn:test:recorder", "recorder"]
        let messages = Locked<[ProcessorMessage]>([])

        func deliver(_ message: ProcessorMessage) async throws {
            // A delivery that takes a while: the next one must still wait for it.
            if message.name == "write", (message.event as? Note) == .write(1) { await Task.yield() }
            guard message.target != "refused" else { throw Refused(target: message.target) }
            messages.withLock { $0.append(message) }
        }

        var written: [Int] {
            messages.withLock { messages in
                messages.compactMap { message in
                    guard case .write(let value) = message.event as? Note else { return nil }
                    return value
                }
            }
        }
    }

    /// What a machine does: `.flush` writes `count` notes to `target` through `type`, each after
    /// `delay`; `error.communication` is recorded.
    struct Writer: Sendable {
        var target = "log"
        var type = "recorder"
        var count = 1
        var delay: Duration = .zero
        var failures: [String] = []
        var received: [Int] = []
    }

    static func writer() throws -> Statechart<Line, Note, Writer> {
        try Statechart(initial: .open) {
            StateNode(.open) {
                On(.flush) { scope in
                    for value in 1...scope.context.count {
                        scope.send(
                            .write(value), to: scope.context.target, type: scope.context.type,
                            after: scope.context.delay, id: "flush")
                    }
                }
                On(.write) { scope in
                    if case .write(let value) = scope.event { scope.context.received.append(value) }
                }
                On(named: "error.communication") { scope in
                    scope.context.failures.append(scope.failure?.reason ?? "?")
                }
            }
        }
    }

    @Test("1,000 sends in one step reach the processor in order, each with its event, name, target, type and sender")
    func inOrder() async throws {
        let recorder = Recorder()
        let system = StatechartSystem(processors: [recorder])
        #expect(system.processorTypes == ["recorder", "urn:test:recorder"])
        let machine = StatechartActor(try Self.writer(), context: Writer(count: 1000))
        try await machine.join(system, as: "writer")
        try await machine.start()
        try await machine.send(.flush)
        #expect(await eventually { recorder.messages.withLock { $0.count } == 1000 })
        #expect(recorder.written == Array(1...1000))
        let first = try #require(recorder.messages.withLock { $0.first })
        #expect(first.name == "write")
        #expect(first.target == "log")
        #expect(first.type == "recorder")
        #expect(first.sender == "writer")
        #expect(first.sendID == "flush")
        #expect(await machine.snapshot.context.failures.isEmpty)
    }

    @Test("a chart invoked by a member sends through the system's processors and to its members, as its parent does")
    func childOfMember() async throws {
        let recorder = Recorder()
        let system = StatechartSystem(processors: [recorder])
        let child = try Statechart<Line, Note, Writer>(initial: .open) {
            StateNode(.open) {
                OnEntry { scope in
                    scope.send(.write(1), to: "log", type: "recorder")
                    scope.send(.write(2), to: "sink")
                    scope.send(.write(3), to: "refused", type: "recorder")
                }
                // What the processor refuses comes back to the child, which tells its parent.
                On(named: "error.communication") { scope in scope.send(.write(-3), to: "#_parent") }
            }
        }
        let parent = try Statechart<Line, Note, Writer>(initial: .closed) {
            StateNode(.closed) { On(.flush, to: .open) }
            StateNode(.open) {
                Invoke("child", chart: child, context: { _ in Writer() })
                On(.write) { scope in
                    if case .write(let value) = scope.event { scope.context.received.append(value) }
                }
            }
        }
        let sink = StatechartActor(try Self.writer(), context: Writer())
        try await sink.join(system, as: "sink")
        try await sink.start()
        let machine = StatechartActor(parent, context: Writer())
        try await machine.join(system, as: "parent")
        try await machine.start()
        try await machine.send(.flush)
        #expect(await eventually { recorder.messages.withLock { $0.count } == 1 })
        #expect(recorder.messages.withLock { $0.first?.sender } == "parent/child")
        #expect(recorder.written == [1])
        #expect(await eventually { await sink.snapshot.context.received == [2] })
        #expect(await eventually { await machine.snapshot.context.received == [-3] })
        #expect(system.ids == ["parent", "sink"], "the child is not addressable by id")
    }

    @Test("a delivery that throws is error.communication in the sender, with the error's description")
    func refused() async throws {
        let system = StatechartSystem(processors: [Recorder()])
        let machine = StatechartActor(try Self.writer(), context: Writer(target: "refused", count: 3))
        try await machine.join(system, as: "writer")
        try await machine.start()
        try await machine.send(.flush)
        #expect(await eventually { await machine.snapshot.context.failures.count == 3 })
        let failures = await machine.snapshot.context.failures
        #expect(failures.allSatisfy { $0.contains("the recorder refuses 'refused'") })
        #expect(failures.allSatisfy { $0.contains("could not be delivered to 'refused'") })
    }

    @Test("a type no processor has, or a send from a machine in no system, is error.communication saying so")
    func unknownType() async throws {
        let system = StatechartSystem(processors: [Recorder()])
        let member = StatechartActor(try Self.writer(), context: Writer(type: "carrier-pigeon"))
        try await member.join(system, as: "member")
        try await member.start()
        try await member.send(.flush)
        let loner = StatechartActor(try Self.writer(), context: Writer())
        try await loner.start()
        try await loner.send(.flush)
        #expect(await eventually { await member.snapshot.context.failures.count == 1 })
        #expect(await eventually { await loner.snapshot.context.failures.count == 1 })
        let memberReason = try #require(await member.snapshot.context.failures.first)
        #expect(memberReason.contains("the system has no event I/O processor of the type 'carrier-pigeon'"))
        #expect(memberReason.contains("it has 'recorder', 'urn:test:recorder'"))
        let lonerReason = try #require(await loner.snapshot.context.failures.first)
        #expect(lonerReason.contains("only as a member of a StatechartSystem"))
    }

    @Test("a delayed send through a processor waits on the sender's clock; cancelling it withdraws it")
    func delayed() async throws {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let recorder = Recorder()
        let system = StatechartSystem(processors: [recorder])
        let chart = try Statechart<Line, Note, Writer>(initial: .open) {
            StateNode(.open) {
                On(.flush) { scope in scope.send(.write(7), to: "log", type: "recorder", after: .seconds(5), id: "w") }
                On(.write) { scope in scope.cancel(id: "w") }
            }
        }
        let machine = StatechartActor(chart, context: Writer(), timers: timers)
        try await machine.join(system, as: "writer")
        try await machine.start()
        try await machine.send(.flush)
        await clock.advance(by: .seconds(4))
        await timers.settle()
        #expect(recorder.written.isEmpty)
        await clock.advance(by: .seconds(1))
        await timers.settle()
        #expect(await eventually { recorder.written == [7] })
        try await machine.send(.flush)
        try await machine.send(.write(0))  // cancels the second one
        await clock.advance(by: .seconds(10))
        await timers.settle()
        try await Task.sleep(for: .milliseconds(20))
        #expect(recorder.written == [7], "the cancelled send never reached the processor")
    }

    @Test("SCXML's own type goes where a send without a type goes: to the member with that id")
    func scxmlType() async throws {
        let system = StatechartSystem()
        let sink = StatechartActor(try Self.writer(), context: Writer())
        let source = StatechartActor(
            try Self.writer(), context: Writer(target: "sink", type: "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"))
        try await sink.join(system, as: "sink")
        try await source.join(system, as: "source")
        try await sink.start()
        try await source.start()
        try await source.send(.flush)
        #expect(await eventually { await sink.snapshot.context.received == [1] })
        #expect(await source.snapshot.context.failures.isEmpty)
    }

    @MainActor
    @Test("an isolated machine on the main actor gets error.communication for a refused delivery there")
    func isolated() async throws {
        let recorder = Recorder()
        let system = StatechartSystem(processors: [recorder])
        let machine = IsolatedStatechart(try Self.writer(), context: Writer(target: "refused", count: 2))
        try machine.join(system, as: "writer")
        try machine.start()
        try machine.send(.flush)
        #expect(await eventually { machine.snapshot().context.failures.count == 2 })
        let sent = IsolatedStatechart(try Self.writer(), context: Writer(count: 5))
        try sent.join(system, as: "sender")
        try sent.start()
        try sent.send(.flush)
        #expect(await eventually { recorder.written == [1, 2, 3, 4, 5] })
    }
}
