import Benchmark
import Foundation
import Statecharts
import StatechartsSCXML

// The uSCXML benchmark charts (../shared/benchmarks/uscxml), loaded from SCXML. Each chart leaves
// and re-enters its state `mark` forever through eventless transitions; a run takes a fixed number
// of microsteps, and the report gives entries of `mark` per second beside uSCXML's figures.

/// The folder of the charts, beside the project.
let chartFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/benchmarks/uscxml")

/// Microsteps per iteration.
let microstepsPerIteration = 1_000_000

/// The pure machine of a chart: the engine alone, as uSCXML's figures measure theirs. The charts
/// have no `<send>` or `<invoke>`, so no session is needed around it.
func makeMachine(_ chart: SCXMLChart) -> SCXMLSession.Machine {
    let info = SCXMLSessionInfo(id: "benchmark", name: chart.document.name)
    return chart.statechart.makeMachine(context: SCXMLContext(model: NullDataModel(session: info), info: info))
}

/// How many microsteps one entry of `mark` takes in `chart`, counted on a short observed run.
func microstepsPerEntry(_ chart: SCXMLChart) throws -> Int {
    var machine = makeMachine(chart)
    machine.microstepLimit = 1000
    var recorder = MachineRecorder<String, SCXMLEvent>()
    do { try machine.start(observer: &recorder) } catch {}
    let entries = recorder.entered.filter { $0 == "mark" }.count
    return max(1, recorder.microsteps.count / max(entries, 1))
}

let benchmarks: @Sendable () -> Void = {
    for name in ["Transitions.4", "Transitions.16", "Transitions.64", "LCCA.4", "LCCA.16", "LCCA.64"] {
        let file = chartFolder.appendingPathComponent("\(name).scxml")
        guard FileManager.default.fileExists(atPath: file.path) else { continue }
        Benchmark(
            "uscxml/\(name)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .custom("microsteps per entry")], warmupIterations: 1,
                scalingFactor: .one,
                maxDuration: .seconds(3), maxIterations: 15)
        ) { benchmark in
            let chart = try SCXMLChart.load(contentsOf: file)
            let perEntry = try microstepsPerEntry(chart)
            var machine = makeMachine(chart)
            machine.microstepLimit = microstepsPerIteration
            benchmark.startMeasurement()
            do { try machine.start() } catch {}
            benchmark.stopMeasurement()
            benchmark.measurement(.custom("microsteps per entry"), perEntry)
            blackHole(machine.activeStates)
        }
    }
}
