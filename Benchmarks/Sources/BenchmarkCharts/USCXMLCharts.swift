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

    /// What went wrong with a chart that is not one of uSCXML's endless loops.
    public struct ChartError: Error, CustomStringConvertible {
        /// What happened.
        public var description: String
    }

    /// The pure machine of a chart: the engine alone, as uSCXML's figures measure theirs (the
    /// charts have no `<send>` or `<invoke>`, so no session is needed around it).
    public static func makeMachine(_ chart: SCXMLChart) -> SCXMLSession.Machine {
        let info = SCXMLSessionInfo(id: "benchmark", name: chart.document.name)
        return chart.statechart.makeMachine(context: SCXMLContext(model: NullDataModel(session: info), info: info))
    }

    /// Starts `machine` and lets it run `microsteps` microsteps: the chart loops forever, so the
    /// microstep limit ends the start, as uSCXML's own runs end. Any other end is an error, so
    /// that a chart that stops early is not timed as if it had run.
    public static func run(
        _ machine: inout SCXMLSession.Machine, microsteps: Int
    ) throws(ChartError) {
        machine.microstepLimit = microsteps
        do {
            try machine.start()
        } catch .microstepLimitExceeded {
            return
        } catch {
            throw ChartError(description: "the chart stopped before \(microsteps) microsteps: \(error)")
        }
        throw ChartError(description: "the chart came to rest before \(microsteps) microsteps")
    }

    /// How many microsteps one entry of `mark` takes in `chart`, counted on an observed run of
    /// 10,000 microsteps.
    public static func microstepsPerEntry(_ chart: SCXMLChart) throws(ChartError) -> Double {
        var machine = makeMachine(chart)
        machine.microstepLimit = 10_000
        var recorder = MachineRecorder<String, SCXMLEvent>()
        do {
            try machine.start(observer: &recorder)
        } catch .microstepLimitExceeded {
        } catch {
            throw ChartError(description: "the chart stopped early: \(error)")
        }
        let entries = recorder.entered.filter { $0 == "mark" }.count
        guard entries > 0 else { throw ChartError(description: "no entry of `mark` in 10,000 microsteps") }
        return Double(recorder.microsteps.count) / Double(entries)
    }
}
