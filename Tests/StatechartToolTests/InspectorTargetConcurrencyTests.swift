#if Tools
#if Inspector && ECMAScript
import Foundation
import Testing

@testable import StatechartTool

/// The inspector's document session under concurrent requests: a snapshot asked for while a
/// clock advance runs the document's scripts must wait its turn, not archive the same JavaScript
/// context from a second thread (the thread sanitizer, Scripts/tsan.sh, reports such a race;
/// without it, it aborted in JavaScriptCore now and then).
@Suite struct InspectorTargetConcurrencyTests {
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="run">
          <datamodel><data id="items" expr="[]"/><data id="ticks" expr="0"/></datamodel>
          <state id="run">
            <onentry><send event="tick" delay="1ms"/></onentry>
            <transition event="tick" target="run">
              <script>ticks = ticks + 1; items.push({ tick: ticks, text: "x".repeat(100) }); if (items.length > 50) { items.shift(); }</script>
            </transition>
          </state>
        </scxml>
        """

    @Test("Snapshots during a clock advance of 100 timer steps: each waits for the step under way")
    func snapshotsDuringAdvance() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ticks-\(UUID().uuidString).scxml")
        try Self.document.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let source = try ChartSource.load(file.path)
        let target = SessionInspectorTarget(
            session: ChartSession(source: source, limits: .default, maximumSteps: 1_000_000))
        _ = await target.connect(report: { _ in })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await target.advance(by: 0.1) }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<25 {
                        let snapshot = await target.snapshot()
                        #expect(snapshot.configuration == ["run"])
                    }
                }
            }
            try await group.waitForAll()
        }
        let last = await target.snapshot()
        #expect(abs(last.time - 0.1) < 1e-9)
        guard case .object(let variables) = last.data, case .number(let ticks)? = variables["ticks"] else {
            Issue.record("the snapshot has no ticks: \(last.data)")
            return
        }
        #expect(ticks == 100)
    }
}
#endif
#endif
