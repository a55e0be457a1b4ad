import Clocks
import Foundation
import StatechartExamples
import Statecharts
import Testing

/// Loads on a test clock: a thumbnail in 100 ms, the full image in 1 s.
///
/// Each load reads its deadline, then counts itself in `started`, then sleeps until the deadline.
/// A test that has seen a load counted moves the clock past its deadline in one step: the sleep
/// ends whether it began before the clock moved or after (a sleep until a time already past
/// returns at once).
struct ClockLoader: ImageLoader {
    let clock: TestClock<Duration>
    let started = LoadCount()
    var failing: Set<String> = []

    func thumbnail(of url: String) async throws -> ImagePixels {
        try await load(lasting: .milliseconds(100))
        if failing.contains(url) { throw CancellationError() }
        return ImagePixels(url: url, width: 64)
    }

    func full(of url: String) async throws -> ImagePixels {
        try await load(lasting: .seconds(1))
        return ImagePixels(url: url, width: 2048)
    }

    private func load(lasting duration: Duration) async throws {
        let deadline = clock.now.advanced(by: duration)
        started.increment()
        try await clock.sleep(until: deadline)
    }
}

/// How many loads have begun, read by the test while the loads run.
final class LoadCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }

    var value: Int { lock.withLock { count } }
}

@Suite("The image cell", .timeLimit(.minutes(1)))
struct ImageCellTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    func cell(
        failing: Set<String> = []
    ) async throws -> (StatechartActor<ImageCellState, ImageCellEvent, ImageCellContext>, ClockLoader) {
        let loader = ClockLoader(clock: clock, failing: failing)
        let cell = StatechartActor(try makeImageCellChart(), context: ImageCellContext(loader: loader), timers: timers)
        try await cell.start()
        return (cell, loader)
    }

    /// Whether the `count`th load has begun within five seconds of real time.
    func loadBegins(_ count: Int, of loader: ClockLoader) async -> Bool {
        for _ in 0..<5_000 where loader.started.value < count {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return loader.started.value >= count
    }

    /// Waits until the `count`th load has begun, then moves the clock a millisecond past that
    /// load's deadline, `duration` from now. Whether the load is asleep yet or not does not
    /// matter, and the test takes no more yields than one move of the clock: stepping the clock
    /// 10 ms at a time with yields in between made the suite take over a minute on a busy machine.
    func finish(load count: Int, lasting duration: Duration, of loader: ClockLoader) async -> Bool {
        guard await loadBegins(count, of: loader) else { return false }
        await clock.advance(by: duration + .milliseconds(1))
        return true
    }

    func waitFor(
        _ state: ImageCellState, in cell: StatechartActor<ImageCellState, ImageCellEvent, ImageCellContext>
    ) async
        -> Bool
    {
        for _ in 0..<5_000 {
            if await cell.snapshot.isActive(state) { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    @Test func itShowsTheThumbnailThenTheFullImage() async throws {
        let (cell, loader) = try await cell()
        #expect(await cell.snapshot.activeStates == [.pending])
        try await cell.send(.configure(url: "cat.jpg"))
        #expect(await cell.snapshot.activeStates == [.loadingThumbnail])
        #expect(await finish(load: 1, lasting: .milliseconds(100), of: loader))
        #expect(await waitFor(.thumbnail, in: cell))
        #expect(await cell.snapshot.context.shown == ImagePixels(url: "cat.jpg", width: 64))
        #expect(await finish(load: 2, lasting: .seconds(1), of: loader))
        #expect(await waitFor(.full, in: cell))
        #expect(await cell.snapshot.context.shown == ImagePixels(url: "cat.jpg", width: 2048))
    }

    @Test func reuseCancelsTheLoadSoAnOldImageNeverAppears() async throws {
        let (cell, loader) = try await cell()
        try await cell.send(.configure(url: "cat.jpg"))
        #expect(await finish(load: 1, lasting: .milliseconds(100), of: loader))
        #expect(await waitFor(.thumbnail, in: cell))
        // The full image of the cat has begun loading (load 2) when the list scrolls away and
        // reuses the cell for another row.
        #expect(await loadBegins(2, of: loader))
        try await cell.send(.reuse)
        #expect(await cell.snapshot.activeStates == [.pending])
        #expect(await cell.snapshot.context.shown == nil)
        try await cell.send(.configure(url: "dog.jpg"))
        #expect(await finish(load: 3, lasting: .milliseconds(100), of: loader))
        #expect(await waitFor(.thumbnail, in: cell))
        // The dog's full image takes a second; the cat's would have come within it.
        #expect(await finish(load: 4, lasting: .seconds(1), of: loader))
        #expect(await waitFor(.full, in: cell))
        #expect(await cell.snapshot.context.shown == ImagePixels(url: "dog.jpg", width: 2048), "never the cat")
    }

    @Test func aFailedLoadShowsTheFailureUntilReuse() async throws {
        let (cell, loader) = try await cell(failing: ["broken.jpg"])
        try await cell.send(.configure(url: "broken.jpg"))
        #expect(await finish(load: 1, lasting: .milliseconds(100), of: loader))
        #expect(await waitFor(.failed, in: cell))
        try await cell.send(.reuse)
        #expect(await cell.snapshot.activeStates == [.pending])
    }
}
