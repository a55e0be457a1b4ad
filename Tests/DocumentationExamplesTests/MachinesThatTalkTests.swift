import Statecharts
import Testing

// The example of the article "Machines that talk": a doorbell that wakes a camera by id, through a
// StatechartSystem. Compiled as written and under main-actor default isolation, where the types of
// a StatechartActor are declared nonisolated.

nonisolated enum DoorState: Hashable, Sendable { case quiet, rung }
nonisolated enum CameraState: Hashable, Sendable { case asleep, awake }
nonisolated enum Home: StatechartEvent, Sendable, CaseIterable { case ring, wake }
nonisolated struct Door: Sendable { var camera: String }

@Suite("The article's doorbell and camera", .timeLimit(.minutes(1)))
struct MachinesThatTalkTests {
    @Test("the doorbell's send reaches the camera by its id, on the camera's actor")
    func doorbell() async throws {
        let doorbellChart = try Statechart<DoorState, Home, Door>(initial: .quiet) {
            StateNode(.quiet) {
                On(.ring, to: .rung) { scope in scope.send(.wake, to: scope.context.camera) }
            }
            StateNode(.rung)
        }
        let cameraChart = try Statechart<CameraState, Home, Void>(initial: .asleep) {
            StateNode(.asleep) { On(.wake, to: .awake) }
            StateNode(.awake)
        }

        let system = StatechartSystem()
        let doorbell = StatechartActor(doorbellChart, context: Door(camera: "camera"))
        let camera = StatechartActor(cameraChart)
        try await doorbell.join(system, as: "doorbell")
        try await camera.join(system, as: "camera")
        try await doorbell.start()
        try await camera.start()
        try await doorbell.send(.ring)  // the doorbell's action sends .wake to "camera"

        for _ in 0..<5000 where await camera.snapshot.activeStates != [.awake] {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await camera.snapshot.activeStates == [.awake])
        #expect(await doorbell.snapshot.activeStates == [.rung])
        #expect(system.ids == ["camera", "doorbell"])
    }
}

// The article's section "Charts that invoke charts": a screen that runs an upload as a child chart.

nonisolated enum UploadState: Hashable, Sendable { case sending, committed }
nonisolated enum ScreenState: Hashable, Sendable { case uploading, finished, cancelled }
nonisolated enum Transfer: StatechartEvent, Sendable {
    case sent(Int), commit, uploaded(Int), cancel
    nonisolated enum Kind: CaseIterable, Hashable, Sendable { case sent, commit, uploaded, cancel }
    var kind: Kind {
        switch self {
        case .sent: .sent
        case .commit: .commit
        case .uploaded: .uploaded
        case .cancel: .cancel
        }
    }
}
nonisolated struct Upload: Sendable { var parts: Int }
nonisolated struct Screen: Sendable { var parts: Int, progress = 0 }

@Suite("The article's screen and its upload", .timeLimit(.minutes(1)))
struct ChartsThatInvokeChartsTests {
    @Test("the child's progress reaches the screen in order, the screen commits it, and its end moves the screen")
    func upload() async throws {
        let uploadChart = try Statechart<UploadState, Transfer, Upload>(initial: .sending) {
            StateNode(.sending) {
                OnEntry { scope in
                    for part in 1...scope.context.parts { scope.send(.sent(part), to: "#_parent") }
                }
                On(.commit, to: .committed)
            }
            Final(.committed)
        }

        let screenChart = try Statechart<ScreenState, Transfer, Screen>(initial: .uploading) {
            StateNode(.uploading) {
                Invoke("upload", chart: uploadChart, context: { Upload(parts: $0.parts) }) { upload in
                    .uploaded(upload.parts)
                }
                On(.sent) { scope in
                    guard case .sent(let part) = scope.event else { return }
                    scope.context.progress = part
                    if part == scope.context.parts { scope.send(.commit, to: "#_upload") }
                }
                On(.uploaded, to: .finished)
                On(.cancel, to: .cancelled)
            }
            StateNode(.finished)
            StateNode(.cancelled)
        }

        let screen = StatechartActor(screenChart, context: Screen(parts: 5))
        try await screen.start()
        for _ in 0..<5000 where await screen.snapshot.activeStates != [.finished] {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await screen.snapshot.activeStates == [.finished])
        #expect(await screen.snapshot.context.progress == 5)
    }
}

// The article's section "Sending outside the system": a thermometer whose readings leave through an
// event I/O processor of the app's own.

nonisolated enum ProbeState: Hashable, Sendable { case measuring, offline }
nonisolated enum Probe: StatechartEvent, Sendable, Equatable {
    case measured(Double)
    nonisolated enum Kind: CaseIterable, Hashable, Sendable { case measured }
    var kind: Kind { .measured }
}
nonisolated enum OutboxError: Error { case unknownQueue(String) }

nonisolated final class ReadingsOutbox: LiveEventProcessor {
    let types = ["readings"]
    let (messages, continuation) = AsyncStream.makeStream(of: ProcessorMessage.self)

    func deliver(_ message: ProcessorMessage) async throws {
        guard message.target == "upload-queue" else { throw OutboxError.unknownQueue(message.target) }
        continuation.yield(message)
    }
}

@Suite("The article's thermometer and its outbox", .timeLimit(.minutes(1)))
struct SendingOutsideTheSystemTests {
    @Test("a reading sent with the processor's type reaches it, with the event, its name and the sender")
    func reading() async throws {
        let outbox = ReadingsOutbox()
        let thermometerChart = try Statechart<ProbeState, Probe, Void>(initial: .measuring) {
            StateNode(.measuring) {
                On(.measured) { scope in
                    if let reading = scope.event { scope.send(reading, to: "upload-queue", type: "readings") }
                }
                On(named: "error.communication", to: .offline)
            }
            StateNode(.offline)
        }
        let system = StatechartSystem(processors: [outbox])

        #expect(system.processorTypes == ["readings"])
        let thermometer = StatechartActor(thermometerChart)
        try await thermometer.join(system, as: "thermometer")
        try await thermometer.start()
        try await thermometer.send(.measured(21.5))
        var messages = outbox.messages.makeAsyncIterator()
        let message = try #require(await messages.next())
        #expect(message.event as? Probe == .measured(21.5))
        #expect(message.name == "measured")
        #expect(message.target == "upload-queue")
        #expect(message.type == "readings")
        #expect(message.sender == "thermometer")
        #expect(await thermometer.snapshot.activeStates == [.measuring])
    }
}
