import Clocks
import Foundation
import Statecharts
import Testing

// MARK: - The chart of the article "Time and work that belong to a state"

enum Link: Hashable, Sendable { case idle, scanning, connecting, connected, failed }

enum LinkEvent: StatechartEvent {
    case scan, found(String), connected, lost, retry

    enum Kind: CaseIterable, Sendable { case scan, found, connected, lost, retry }

    var kind: Kind {
        switch self {
        case .scan: .scan
        case .found: .found
        case .connected: .connected
        case .lost: .lost
        case .retry: .retry
        }
    }
}

struct LinkContext: Sendable {
    var device: String?
}

/// What talks to the hardware; the tests use a fake one.
protocol Radio: Sendable {
    func connect(to device: String) async throws
}

func linkChart(radio: some Radio) throws -> Statechart<Link, LinkEvent, LinkContext> {
    try Statechart(initial: .idle) {
        StateNode(.idle) { On(.scan, to: .scanning) }
        StateNode(.scanning) {
            After(.seconds(10), to: .failed)  // nothing found in time
            On(.found, to: .connecting) { scope in
                if case .found(let device) = scope.event { scope.context.device = device }
            }
        }
        StateNode(.connecting) {
            Invoke("connect") { context in
                try await radio.connect(to: context.device ?? "")
                return .connected
            } onError: { _ in
                .lost
            }
            After(.seconds(5), to: .failed)  // leaving the state also cancels the attempt
            On(.connected, to: .connected)
            On(.lost, to: .failed)
        }
        StateNode(.connected) { On(.lost, to: .scanning) }
        StateNode(.failed) { On(.retry, to: .scanning) }
    }
}

// MARK: - Tests

/// A radio that connects after `delay` on `clock` (at once without one), and remembers whether
/// it was cancelled.
struct FakeRadio: Radio {
    let clock: TestClock<Duration>
    let delay: Duration?
    let cancelled = Flag()

    func connect(to device: String) async throws {
        guard let delay else { return }
        do {
            try await clock.sleep(for: delay)
        } catch {
            cancelled.set()
            throw error
        }
    }
}

@Suite("The article's link", .timeLimit(.minutes(1)))
struct TimeAndWorkArticleTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    @Test func scanningGivesUpAfterTenSeconds() async throws {
        let radio = FakeRadio(clock: clock, delay: .seconds(1))
        let link = StatechartActor(try linkChart(radio: radio), context: LinkContext(), timers: timers)
        try await link.start()
        try await link.send(.scan)
        await clock.advance(by: .seconds(10))
        await timers.settle()
        #expect(await link.snapshot.activeStates == [.failed])
    }

    @Test func aSlowConnectionIsCancelledByTheTimeout() async throws {
        let radio = FakeRadio(clock: clock, delay: .seconds(60))
        let link = StatechartActor(try linkChart(radio: radio), context: LinkContext(), timers: timers)
        try await link.start()
        try await link.send(.scan)
        try await link.send(.found("sensor"))
        await clock.advance(by: .seconds(5))
        await timers.settle()
        #expect(await link.snapshot.activeStates == [.failed])
        #expect(await eventually { radio.cancelled.isSet })
    }

    @Test func aQuickConnectionConnects() async throws {
        let radio = FakeRadio(clock: clock, delay: nil)
        let link = StatechartActor(try linkChart(radio: radio), context: LinkContext(), timers: timers)
        try await link.start()
        try await link.send(.scan)
        try await link.send(.found("sensor"))
        let connected = await link.waitUntil { $0.isActive(.connected) }
        #expect(connected?.context.device == "sensor")
        #expect(!radio.cancelled.isSet)
    }

    @Test("the article shows this chart verbatim")
    func articleShowsTheChart() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let start = try #require(source.range(of: "// MARK: - The chart of the article"))
        let lineEnd = try #require(source[start.upperBound...].firstIndex(of: "\n"))
        let end = try #require(source.range(of: "// MARK: - Tests"))
        let chart = String(source[source.index(after: lineEnd)..<end.lowerBound]).trimmingCharacters(in: .newlines)
        let article = try String(
            contentsOf: root.appending(path: "Sources/Statecharts/Statecharts.docc/TimeAndWork.md"), encoding: .utf8)
        #expect(article.contains(chart))
    }
}
