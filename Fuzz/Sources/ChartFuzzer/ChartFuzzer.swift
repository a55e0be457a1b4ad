import FuzzDriver
import Statecharts
import StatechartsTesting

/// One input: bytes that decide a chart without a data model (the shared generator, `RandomChart`,
/// from the first 240) and a run of events and waits (from the rest). Two machines of the chart
/// take the run: one through `send(_:)`, which takes the quick step where the chart allows it, and
/// one through `send(_:observer:)`, which always takes the general path. After every step both
/// must report the same outcome, status, configuration, counter and timers; a difference traps, and
/// libFuzzer keeps the input. Built with the address sanitizer (`Scripts/fuzz.sh`), this is also
/// where the quick step's reads of the chart's tables meet charts nobody wrote by hand.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let tape = (0..<count).map { Int(bytes[$0]) }
    let generated = RandomChart(tape: Array(tape.prefix(ChartFuzzing.chartTapeLength)), maximumStates: 14)
    guard
        let chart = try? Statechart<String, FuzzEvent, Int>(
            name: "fuzzed",
            elements: generated.elements(
                event: { FuzzEvent($0) }, guard: ChartFuzzing.condition, action: ChartFuzzing.action),
            microstepLimit: 200)
    else { return 0 }
    var quick = chart.makeMachine(context: 0)
    var general = chart.makeMachine(context: 0)
    var recorder = MachineRecorder<String, FuzzEvent>()
    let quickStarted = (try? quick.start()) != nil
    let generalStarted = (try? general.start(observer: &recorder)) != nil
    precondition(quickStarted == generalStarted, "one machine started and the other did not")
    guard quickStarted else { return 0 }
    let run = RandomChart.events(tape: Array(tape.dropFirst(ChartFuzzing.chartTapeLength)), count: 32)
    for step in run where quick.status == .running {
        if step.after > 0 {
            let delay = Duration.milliseconds(step.after)
            let quickAdvanced = (try? quick.advance(by: delay)) != nil
            let generalAdvanced = (try? general.advance(by: delay)) != nil
            precondition(quickAdvanced == generalAdvanced, "one machine advanced and the other did not")
            guard quickAdvanced else { break }
            precondition(
                ChartFuzzing.outcome(quick, handled: "advanced") == ChartFuzzing.outcome(general, handled: "advanced"),
                "the machines differ after a wait")
        }
        let quickOutcome: String
        do {
            quickOutcome = ChartFuzzing.outcome(quick, handled: "\(try quick.send(FuzzEvent(step.name)))")
        } catch {
            quickOutcome = ChartFuzzing.outcome(quick, handled: "threw \(error)")
        }
        let generalOutcome: String
        do {
            generalOutcome = ChartFuzzing.outcome(
                general, handled: "\(try general.send(FuzzEvent(step.name), observer: &recorder))")
        } catch {
            generalOutcome = ChartFuzzing.outcome(general, handled: "threw \(error)")
        }
        precondition(
            quickOutcome == generalOutcome, "send(_:) and send(_:observer:) differ: \(quickOutcome) / \(generalOutcome)"
        )
    }
    return 0
}

/// An event of a fuzzed chart: one of `RandomChart.events`, by name.
struct FuzzEvent: StatechartEvent, Sendable {
    let kind: String

    init(_ name: String) { kind = name }
}

/// The fuzzed charts' code and how a step is compared.
enum ChartFuzzing {
    /// How many bytes of an input decide the chart; the rest decide the run.
    static let chartTapeLength = 240

    /// The guard of every guarded transition: reads the counter.
    static let condition: StatechartGuard<String, FuzzEvent, Int> = { $0.context % 3 != 0 }

    /// The action of every transition: counts, and now and then raises an event.
    static let action: StatechartAction<String, FuzzEvent, Int> = { scope in
        scope.context += 1
        if scope.context % 7 == 0 { scope.raise(FuzzEvent("b")) }
    }

    /// What a step left behind: what `send` returned or threw, and the machine's state.
    static func outcome(_ machine: StateMachine<String, FuzzEvent, Int>, handled: String) -> String {
        "\(handled) \(machine.status) \(machine.configuration) \(machine.context) timers \(machine.pendingTimerCount) "
            + "next \(String(describing: machine.nextDeadline))"
    }
}

/// The entry point SwiftPM links an executable through; it hands over to libFuzzer's driver.
@_cdecl("ChartFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
