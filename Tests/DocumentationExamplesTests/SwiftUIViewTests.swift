import Clocks
import Observation
import Statecharts
import Testing

// The example of the article "Driving a SwiftUI view": the chart, the view model, and the view
// with its previews (compiled where SwiftUI exists). The tests drive the model through
// Observation, as SwiftUI does.

enum Recorder: Hashable, Sendable { case idle, recording, paused, saved }

enum RecorderEvent: StatechartEvent, CaseIterable { case record, pause, resume, stop, discard }

struct Takes: Sendable, Equatable {
    var started = 0
    var saved = 0
}

func recorderChart(limit: Duration = .seconds(60)) throws -> Statechart<Recorder, RecorderEvent, Takes> {
    try Statechart(initial: .idle) {
        StateNode(.idle) {
            On(.record, to: .recording) { $0.context.started += 1 }
        }
        StateNode(.recording) {
            After(limit, to: .saved)  // a take lasts a minute at most
            On(.pause, to: .paused)
            On(.stop, to: .saved)
        }
        StateNode(.paused) {
            On(.resume, to: .recording)
            On(.stop, to: .saved)
        }
        StateNode(.saved) {
            OnEntry { $0.context.saved += 1 }
            On(.record, to: .recording) { $0.context.started += 1 }
        }
        On(.discard, to: .idle)
    }
}

@MainActor @Observable
final class RecorderModel {
    let machine: IsolatedStatechart<Recorder, RecorderEvent, Takes>
    var lastError: String?

    init(timers: TimerWheel = .continuous) throws {
        machine = IsolatedStatechart(try recorderChart(), context: Takes(), timers: timers)
        try machine.start()
    }

    func send(_ event: RecorderEvent) {
        do {
            try machine.send(event)
        } catch {
            lastError = "\(error)"
        }
    }
}

#if canImport(SwiftUI)
import SwiftUI

struct RecorderView: View {
    let model: RecorderModel

    var body: some View {
        VStack(spacing: 16) {
            Text(model.machine.isActive(.recording) ? "Recording" : "Not recording")
            Text("\(model.machine.context.saved) of \(model.machine.context.started) takes saved")
            HStack {
                Button("Record") { model.send(.record) }
                    .disabled(model.machine.isActive(.recording) || model.machine.isActive(.paused))
                Button("Pause") { model.send(.pause) }
                    .disabled(!model.machine.isActive(.recording))
                Button("Resume") { model.send(.resume) }
                    .disabled(!model.machine.isActive(.paused))
                Button("Stop") { model.send(.stop) }
                    .disabled(!model.machine.isActive(.recording) && !model.machine.isActive(.paused))
            }
        }
    }
}

#Preview("Recording") {
    let model = try? RecorderModel(timers: TimerWheel(clock: TestClock()))
    model?.send(.record)
    return model.map { RecorderView(model: $0) }
}

#Preview("A minute later") {
    let clock = TestClock()
    let model = try? RecorderModel(timers: TimerWheel(clock: clock))
    model?.send(.record)
    Task { await clock.advance(by: .seconds(60)) }
    return model.map { RecorderView(model: $0) }
}
#endif

/// Counts what a view was told, reading again after each change, as SwiftUI evaluates a body again.
@MainActor
final class ViewRenders {
    var renders = 0
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        render()
    }

    private func render() {
        renders += 1
        withObservationTracking(body) { [weak self] in
            Task { @MainActor in self?.render() }
        }
    }
}

@MainActor
@Suite("The article's SwiftUI recorder", .timeLimit(.minutes(1)))
struct SwiftUIViewTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    @Test("the buttons' events move the recorder, and the view is told each time")
    func buttons() async throws {
        let model = try RecorderModel(timers: timers)
        let label = ViewRenders { _ = model.machine.isActive(.recording) }
        let counts = ViewRenders { _ = model.machine.context }
        model.send(.record)
        await Task.yield()
        #expect(model.machine.isActive(.recording))
        #expect(label.renders == 2)
        #expect(counts.renders == 2)
        model.send(.pause)
        model.send(.resume)
        await Task.yield()
        #expect(label.renders == 3, "told once for both steps before it rendered again")
        #expect(counts.renders == 2, "pausing changes no count")
        model.send(.stop)
        await Task.yield()
        #expect(model.machine.context == Takes(started: 1, saved: 1))
        #expect(counts.renders == 3)
        model.send(.pause)  // ignored: not recording
        await Task.yield()
        #expect(label.renders == 4)
        #expect(model.lastError == nil)
    }

    @Test("the preview's minute on a test clock saves the take")
    func previewMinute() async throws {
        let model = try RecorderModel(timers: timers)
        model.send(.record)
        let label = ViewRenders { _ = model.machine.isActive(.recording) }
        await clock.advance(by: .seconds(59))
        await timers.settle()
        #expect(model.machine.isActive(.recording))
        await clock.advance(by: .seconds(1))
        await timers.settle()
        await Task.yield()
        #expect(model.machine.isActive(.saved))
        #expect(model.machine.context.saved == 1)
        #expect(label.renders == 2)
    }

    @Test("the view model is Observable too: its own properties are observed beside the machine's")
    func modelObservable() throws {
        let model = try RecorderModel(timers: timers)
        let told = Flag()
        withObservationTracking {
            _ = model.lastError
        } onChange: {
            told.set()
        }
        model.lastError = "shown"
        #expect(told.isSet)
    }
}
