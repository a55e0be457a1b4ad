import Foundation
import FuzzDriver
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// One input: the text of an archive, hostile or hand-edited, restored as an archive would be read
/// from a file. The first byte chooses what it is read as:
/// - even: the archive of a typed machine (`MachineArchive`) of a chart with nested and parallel
///   states, history, timeouts, delayed events and state data;
/// - odd: the archive of a session (`SCXMLSessionArchive`) of an ECMAScript document that invokes
///   a child and sends delayed events.
///
/// Reading it must end in a value or a typed error: never a crash, a trap or an arithmetic
/// overflow. What is restored must then run (events, time), archive again, and restore from that
/// second archive to the same configuration.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let data = Data(bytes: bytes + 1, count: count - 1)
    if bytes[0] % 2 == 0 {
        ArchiveFuzzing.typed(data)
    } else {
        ArchiveFuzzing.session(data)
    }
    return 0
}

enum ArchiveFuzzing {
    enum State: String, Hashable, Sendable, Codable, CaseIterable {
        case idle, active, left, right, one, two, three, history, done
    }

    enum Event: String, StatechartEvent, Hashable, Sendable, Codable, CaseIterable {
        case go, flip, next, back, stop, ping
    }

    struct Counter: Sendable, Codable, Hashable {
        var count = 0
    }

    /// A chart with what an archive can name: nesting, parallel regions, deep history, timeouts,
    /// delayed events, state data.
    static let chart: Statechart<State, Event, Counter>? = try? Statechart(initial: State.idle) {
        StateNode(.idle) {
            On(.go, to: .active)
            After(.seconds(5), to: .active)
        }
        Parallel(.active) {
            StateNode(.left, initial: .one) {
                StateNode(.one) { On(.next, to: .two) }
                StateNode(.two) {
                    On(.next, to: .three)
                    After(.milliseconds(250), to: .three)
                }
                StateNode(.three) { On(.back, to: .one) }
                History(.history, .deep)
            }
            StateNode(.right) {
                On(.ping) { scope in
                    scope.context.count += 1
                    scope.send(.flip, after: .seconds(1))
                }
            }
            On(.stop, to: .done)
        }
        Final(.done)
    }

    static func typed(_ data: Data) {
        guard let chart else { return }
        guard let archive = try? JSONDecoder().decode(MachineArchive<State, Event, Counter>.self, from: data) else {
            return
        }
        guard var machine = try? StateMachine(chart: chart, restoring: archive) else { return }
        for event in [Event.ping, .next, .go, .back, .flip] where machine.status == .running {
            _ = try? machine.send(event)
        }
        if machine.status == .running { _ = try? machine.advance(by: .seconds(2)) }
        guard let again = try? machine.archive() else { return }
        var restored: StateMachine<State, Event, Counter>?
        do {
            restored = try StateMachine(chart: chart, restoring: again)
        } catch {
            preconditionFailure("an archive the machine wrote does not restore: \(error)")
        }
        precondition(
            restored?.activeStates == machine.activeStates, "a machine restored from its own archive is elsewhere")
    }

    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="run">
          <datamodel><data id="n" expr="0"/><data id="seen" expr="new Map()"/></datamodel>
          <state id="run">
            <invoke id="child" type="scxml">
              <content>
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                  <datamodel><data id="k" expr="[1, NaN, -0]"/></datamodel>
                  <state id="c"><transition event="poke"><send target="#_parent" event="poked"/></transition></state>
                </scxml>
              </content>
            </invoke>
            <transition event="tick"><assign location="n" expr="n + 1"/><script>seen.set(n, [n]);</script>
              <send event="tick" delay="1s"/></transition>
            <transition event="poked"><assign location="n" expr="n * 2"/></transition>
            <transition event="go"><send target="#_child" event="poke"/></transition>
            <transition event="stop" target="end"/>
          </state>
          <final id="end"/>
        </scxml>
        """

    static let sessionChart = try? SCXMLChart.load(
        document, file: "archive-fuzz.scxml", dataModels: BuiltDataModels.all)
    static let limits = SCXMLLimits(scriptTime: .milliseconds(250), microsteps: 10_000, sessions: 16)

    static func session(_ data: Data) {
        guard let chart = sessionChart else { return }
        guard
            let archive = try? chart.archiveDecoder(dataModels: BuiltDataModels.all).decode(
                SCXMLSessionArchive.self, from: data)
        else { return }
        let options = SCXMLSession.Options(limits: limits, dataModels: BuiltDataModels.all)
        guard var session = try? SCXMLSession(chart: chart, restoring: archive, options: options) else { return }
        defer { session.close() }
        for name in ["tick", "go", "tick"] where session.status == .running {
            _ = try? session.send(SCXMLEvent(name))
        }
        if session.status == .running, session.endedBy == nil { _ = try? session.advance(by: .seconds(3)) }
        guard session.status == .running, session.endedBy == nil, let again = try? session.archive() else { return }
        var restored: SCXMLSession?
        do {
            restored = try SCXMLSession(chart: chart, restoring: again, options: options)
        } catch {
            // Reading the data model back runs under the session's script time (250 ms here): on a
            // loaded machine a large archive can run out of it, which is a limit, not a defect.
            guard "\(error)".contains("was stopped") else {
                preconditionFailure("an archive the session wrote does not restore: \(error)")
            }
            return
        }
        precondition(
            restored?.configuration == session.configuration, "a session restored from its own archive is elsewhere")
        var closing = restored
        closing?.close()
    }

    /// Seeds: archives of the chart and the document at a few points of a run, each with the
    /// byte that chooses it first.
    static func writeSeeds(to folder: URL) throws {
        guard let chart, let sessionChart else { return }
        var machine = chart.makeMachine(context: Counter())
        try machine.start()
        var index = 0
        func save(_ data: Data, typed: Bool) throws {
            try (Data([typed ? 0 : 1]) + data).write(to: folder.appendingPathComponent("seed-\(index)"))
            index += 1
        }
        for event in [Event.go, .next, .ping, .next] {
            try machine.send(event)
            try save(try JSONEncoder().encode(machine.archive()), typed: true)
        }
        var session = SCXMLSession(
            chart: sessionChart, options: .init(limits: limits, dataModels: BuiltDataModels.all))
        try session.start()
        for name in ["tick", "go", "tick"] {
            try session.send(SCXMLEvent(name))
            try save(try JSONEncoder().encode(session.archive()), typed: false)
        }
        session.close()
    }
}

/// The entry point SwiftPM links an executable through: `--write-seeds FOLDER` writes the seed
/// archives and exits; anything else hands over to libFuzzer's driver.
@_cdecl("ArchiveFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let arguments = CommandLine.arguments
    if arguments.count == 3, arguments[1] == "--write-seeds" {
        do {
            try ArchiveFuzzing.writeSeeds(to: URL(fileURLWithPath: arguments[2]))
            return 0
        } catch {
            print("cannot write the seeds: \(error)")
            return 1
        }
    }
    return runLibFuzzer(argc, argv, fuzz)
}
