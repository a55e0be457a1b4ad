#if Inspector
import Foundation
import Statecharts
import StatechartsInspector
import Testing

/// A machine's past served read-only (`InspectorServer.show`): the timeline as recorded, and a page
/// that can neither send, resume nor move a clock.
@Suite struct RecordedTimelineTests {
    /// The recorder's machine after `record`, `pause`, `stop`, each snapshot with its microsteps.
    static func recordedPast() throws -> [(label: String, snapshot: MachineSnapshot<Recorder, Takes>)] {
        var machine = try recorderChart().makeMachine(context: Takes())
        var timeline = [(label: "created", snapshot: machine.snapshot)]
        var recorder = MachineRecorder<Recorder, RecorderEvent>()
        try machine.start(observer: &recorder)
        var snapshot = machine.snapshot
        snapshot.microsteps = recorder.microsteps
        timeline.append((label: "start", snapshot: snapshot))
        for event: RecorderEvent in [.record, .pause, .stop] {
            recorder = MachineRecorder()
            try machine.send(event, observer: &recorder)
            snapshot = machine.snapshot
            snapshot.microsteps = recorder.microsteps
            timeline.append((label: "\(event)", snapshot: snapshot))
        }
        return timeline
    }

    @Test("The recorded steps are the timeline, with their states and transitions; the page only watches")
    func readOnlyTimeline() async throws {
        let server = try await InspectorServer.show(try Self.recordedPast(), of: try recorderChart(), name: "take 1")
        let client = InspectorClient(server: server)
        do {
            struct Chart: Decodable {
                var name: String
                var abilities: InspectorAbilities
            }
            let chart = try await client.request(.GET, "/api/chart").decoded(Chart.self)
            #expect(chart.name == "take 1")
            #expect(chart.abilities == InspectorAbilities(sending: false, timeTravel: false, clock: false))

            struct Timeline: Decodable { var steps: [InspectorStep] }
            let steps = try await client.request(.GET, "/api/timeline").decoded(Timeline.self).steps
            #expect(steps.map(\.index) == [0, 1, 2, 3, 4])
            #expect(steps.map(\.label) == ["created", "start", "record", "pause", "stop"])
            #expect(steps.map(\.snapshot.configuration) == [[], ["idle"], ["recording"], ["paused"], ["saved"]])
            #expect(steps[0].snapshot.status == "notStarted")
            #expect(steps[2].exited == ["idle"] && steps[2].entered == ["recording"])
            #expect(
                steps[2].transitions == [InspectorTransition(source: "idle", event: "record", targets: ["recording"])])
            #expect(steps[4].snapshot.data == .object(["started": .number(1), "saved": .number(1)]))

            // The machine now is the last step's.
            #expect(try await client.snapshot().configuration == ["saved"])
            // Nothing to drive: sending, resuming and the clock are refused.
            #expect(try await client.send("record").status == 403)
            #expect(try await client.request(.POST, "/api/resume", json: "{\"step\": 1}").status == 409)
            #expect(try await client.request(.POST, "/api/clock", json: "{\"advance\": 1}").status == 409)
            #expect(try await client.request(.GET, "/api/timeline").decoded(Timeline.self).steps.count == 5)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("The page's data is what the caller says it is; an empty timeline is refused")
    func dataAndEmpty() async throws {
        let server = try await InspectorServer.show(
            try Self.recordedPast(), of: try recorderChart(), data: { .number(Double($0.started)) })
        let client = InspectorClient(server: server)
        let last = try await client.snapshot()
        await server.stop()
        #expect(last.data == .number(1))
        await #expect(throws: InspectorError.self) {
            _ = try await InspectorServer.show([], of: try recorderChart())
        }
    }
}
#endif
