import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML

/// `statechart run FILE STEP...`: runs an SCXML chart on a virtual clock and prints where it is.
public struct RunCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an SCXML chart, event by event, on a virtual clock.",
        discussion: """
            Each STEP is an event name, sent as an external event, or +DURATION (+5s, +250ms, +2m, \
            +1h), which moves the clock forward and fires the timers that fall due. After the start \
            and after each step, the active states are printed; <log> output is printed as it happens.
            """)

    /// The chart.
    @Argument(help: "An SCXML document.")
    public var file: String

    /// Events and clock moves.
    @Argument(help: "Event names, and +DURATION to move the clock.")
    public var steps: [String] = []

    /// Whether to print every microstep.
    @Flag(help: "Print every microstep: the states exited and entered.")
    public var trace = false

    /// A command ready to parse.
    public init() {}

    /// Runs the chart and prints its configuration after each step.
    public func run() throws {
        let chart: SCXMLChart
        do {
            chart = try SCXMLChart.load(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandError(error.description)
        }
        for warning in chart.warnings { printError("\(warning)") }
        var machine = chart.makeMachine(log: { record in print("  log \(record)") })
        var recorder = MachineRecorder<String, SCXMLEvent>()
        do {
            try machine.start(observer: &recorder)
            report("start", machine: machine, recorder: &recorder)
            for step in steps {
                if step.hasPrefix("+") {
                    guard let duration = Self.duration(String(step.dropFirst())) else {
                        throw CommandError("'\(step)' is not a duration such as +5s, +250ms, +2m or +1h")
                    }
                    try machine.advance(by: duration, observer: &recorder)
                    report(step, machine: machine, recorder: &recorder)
                } else {
                    let handled = try machine.send(SCXMLEvent(step), observer: &recorder)
                    report(handled ? step : "\(step) (not handled)", machine: machine, recorder: &recorder)
                }
                if machine.status == .finished {
                    print("finished")
                    break
                }
            }
        } catch let error as MachineError<String, SCXMLEvent> {
            throw CommandError("\(error)")
        }
    }

    func report(
        _ step: String, machine: StateMachine<String, SCXMLEvent, SCXMLSession>,
        recorder: inout MachineRecorder<String, SCXMLEvent>
    ) {
        if trace {
            for microstep in recorder.microsteps { print("  \(microstep)") }
        }
        recorder = MachineRecorder()
        print("\(step) → [\(machine.activeStates.joined(separator: ", "))]")
    }

    /// `5s`, `250ms`, `2m`, `1h`, `1.5s`.
    static func duration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Double(text.dropLast(unit.suffix.count)), value >= 0 else { return nil }
            let nanoseconds = (value * unit.seconds * 1e9).rounded()
            guard nanoseconds.isFinite, nanoseconds < 9e18 else { return nil }
            return .nanoseconds(Int64(nanoseconds))
        }
        return nil
    }

    func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
