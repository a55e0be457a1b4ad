import Clocks
import StatechartExamples
import Statecharts
import Testing

/// Loads on a test clock: a thumbnail in 100 ms, the full image in 1 s.
struct ClockLoader: ImageLoader {
    let clock: TestClock<Duration>
    var failing: Set<String> = []

    func thumbnail(of url: String) async throws -> ImagePixels {
        try await clock.sleep(for: .milliseconds(100))
        if failing.contains(url) { throw CancellationError() }
        return ImagePixels(url: url, width: 64)
    }

    func full(of url: String) async throws -> ImagePixels {
        try await clock.sleep(for: .seconds(1))
        return ImagePixels(url: url, width: 2048)
    }
}

@Suite("The image cell", .timeLimit(.minutes(1)))
struct ImageCellTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    func cell(
        failing: Set<String> = []
    ) async throws -> StatechartActor<ImageCellState, ImageCellEvent, ImageCellContext> {
        let cell = StatechartActor(
            try makeImageCellChart(), context: ImageCellContext(loader: ClockLoader(clock: clock, failing: failing)),
            timers: timers)
        try await cell.start()
        return cell
    }

    /// Moves the clock in small steps so that each load starts sleeping before the clock passes it.
    func advance(by duration: Duration) async {
        var remaining = duration
        while remaining > .zero {
            for _ in 0..<20 { await Task.yield() }
            await clock.advance(by: .milliseconds(10))
            for _ in 0..<20 { await Task.yield() }
            remaining -= .milliseconds(10)
        }
    }

    func waitFor(
        _ state: ImageCellState, in cell: StatechartActor<ImageCellState, ImageCellEvent, ImageCellContext>
    ) async
        -> Bool
    {
        for _ in 0..<2_000 {
            if await cell.snapshot.isActive(state) { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    @Test func itShowsTheThumbnailThenTheFullImage() async throws {
        let cell = try await cell()
        #expect(await cell.snapshot.activeStates == [.pending])
        try await cell.send(.configure(url: "cat.jpg"))
        #expect(await cell.snapshot.activeStates == [.loadingThumbnail])
        await advance(by: .milliseconds(100))
        #expect(await waitFor(.thumbnail, in: cell))
        #expect(await cell.snapshot.context.shown == ImagePixels(url: "cat.jpg", width: 64))
        await advance(by: .seconds(1))
        #expect(await waitFor(.full, in: cell))
        #expect(await cell.snapshot.context.shown == ImagePixels(url: "cat.jpg", width: 2048))
    }

    @Test func reuseCancelsTheLoadSoAnOldImageNeverAppears() async throws {
        let cell = try await cell()
        try await cell.send(.configure(url: "cat.jpg"))
        await advance(by: .milliseconds(100))
        #expect(await waitFor(.thumbnail, in: cell))
        // Scrolled away while the full image loads: the cell is reused for another row.
        try await cell.send(.reuse)
        #expect(await cell.snapshot.activeStates == [.pending])
        #expect(await cell.snapshot.context.shown == nil)
        try await cell.send(.configure(url: "dog.jpg"))
        await advance(by: .milliseconds(1_200))
        #expect(await waitFor(.full, in: cell))
        #expect(await cell.snapshot.context.shown == ImagePixels(url: "dog.jpg", width: 2048), "never the cat")
    }

    @Test func aFailedLoadShowsTheFailureUntilReuse() async throws {
        let cell = try await cell(failing: ["broken.jpg"])
        try await cell.send(.configure(url: "broken.jpg"))
        await advance(by: .milliseconds(100))
        #expect(await waitFor(.failed, in: cell))
        try await cell.send(.reuse)
        #expect(await cell.snapshot.activeStates == [.pending])
    }
}
