import Foundation
import Statecharts
import StatechartsSCXML

/// uSCXML's benchmark charts (`../shared/benchmarks/uscxml`, beside the project): each leaves and
/// re-enters its state `mark` forever through eventless transitions.
public enum USCXMLCharts {
    /// The folder of the charts.
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/benchmarks/uscxml")

    /// The file of the chart `name` (`Transitions.4`, `LCCA.16`).
    public static func file(_ name: String) -> URL { folder.appendingPathComponent("\(name).scxml") }

    /// The pure machine of a chart: the engine alone, as uSCXML's figures measure theirs (the
    /// charts have no `<send>` or `<invoke>`, so no session is needed around it).
    public static func makeMachine(_ chart: SCXMLChart) -> SCXMLSession.Machine {
        let info = SCXMLSessionInfo(id: "benchmark", name: chart.document.name)
        return chart.statechart.makeMachine(context: SCXMLContext(model: NullDataModel(session: info), info: info))
    }

    /// How many microsteps one entry of `mark` takes in `chart`, counted on a short observed run.
    public static func microstepsPerEntry(_ chart: SCXMLChart) -> Int {
        var machine = makeMachine(chart)
        machine.microstepLimit = 10_000
        var recorder = MachineRecorder<String, SCXMLEvent>()
        // The chart loops forever: the limit ends the start.
        do { try machine.start(observer: &recorder) } catch {}
        let entries = recorder.entered.filter { $0 == "mark" }.count
        return max(1, recorder.microsteps.count / max(entries, 1))
    }
}
