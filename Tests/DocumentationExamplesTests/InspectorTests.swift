#if Inspector
import Foundation
import Statecharts
import StatechartsInspector
import Testing

// The example of the StatechartsInspector documentation: the recorder of "Driving a SwiftUI view",
// attached to an inspector in this process.

@Suite(.timeLimit(.minutes(1)))
struct InspectorTests {
    @Test("a live machine attached to the inspector: its steps reach the timeline")
    @MainActor func attach() async throws {
        let print = Printed()
        let model = try RecorderModel()
        let inspector = try await InspectorServer.attach(model.machine) { name, _ in
            RecorderEvent.allCases.first { "\($0)" == name }
        }
        print("inspect the recorder at \(inspector.pageURL)")

        model.send(.record)
        var timeline = await inspector.timeline
        for _ in 0..<100 where timeline.last?.snapshot.configuration != ["recording"] {
            try await Task.sleep(for: .milliseconds(10))
            timeline = await inspector.timeline
        }
        // … later, when the app no longer wants it:
        await inspector.stop()

        #expect(print.all == ["inspect the recorder at http://127.0.0.1:\(inspector.port)/?token=\(inspector.token)"])
        #expect(timeline.first?.snapshot.configuration == ["idle"])
        #expect(timeline.last?.snapshot.configuration == ["recording"])
        #expect(timeline.last?.entered == ["recording"])
        #expect(timeline.last?.snapshot.events.contains("pause") == true)
    }
}
#endif
