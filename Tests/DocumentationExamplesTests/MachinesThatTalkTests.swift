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
