#if Store
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsStore
#if ECMAScript
import StatechartsECMAScript
#endif

/// The crash tests' chart as an SCXML document with ECMAScript data (`--chart document`): the
/// same machines as ``crashTestChart()`` without the effects that leave the fleet. Its variables
/// record what it received; an `arm` sends `fired` to itself with a delay (a timer of the
/// machine); the booking region's `<invoke type="reserve">` is Swift work that the fleet runs as
/// an activity, whose `done.invoke` returns to `open`, and which a second `reserve` cancels by
/// re-entering `reserving`.
let fleetDocumentText = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="fleet" name="fleet">
      <datamodel>
        <data id="received" expr="[]"/>
        <data id="fired" expr="[]"/>
        <data id="timeouts" expr="0"/>
        <data id="reserving" expr="null"/>
        <data id="reservations" expr="[]"/>
        <data id="reserved" expr="[]"/>
        <data id="superseded" expr="[]"/>
      </datamodel>
      <parallel id="fleet">
        <state id="timing" initial="idle">
          <state id="idle">
            <transition event="arm" target="armed">
              <script>received.push(_event.data.n)</script>
              <send event="fired" delayexpr="_event.data.ms + 'ms'"><param name="n" expr="_event.data.n"/></send>
            </transition>
          </state>
          <state id="armed">
            <onentry><send id="timeout" event="timeout" delay="700ms"/></onentry>
            <onexit><cancel sendid="timeout"/></onexit>
            <transition event="arm">
              <script>received.push(_event.data.n)</script>
              <send event="fired" delayexpr="_event.data.ms + 'ms'"><param name="n" expr="_event.data.n"/></send>
            </transition>
            <transition event="timeout" target="idle"><assign location="timeouts" expr="timeouts + 1"/></transition>
          </state>
        </state>
        <state id="booking" initial="open">
          <state id="open">
            <transition event="reserve" target="reserving">
              <script>received.push(_event.data.n); reserving = _event.data.n; reservations.push(_event.data.n)</script>
            </transition>
          </state>
          <state id="reserving">
            <invoke type="reserve"><param name="number" expr="reserving"/></invoke>
            <transition event="reserve" target="reserving">
              <script>superseded.push(reserving); received.push(_event.data.n); reserving = _event.data.n; reservations.push(_event.data.n)</script>
            </transition>
            <transition event="done.invoke" target="open">
              <script>reserved.push(_event.data.number); reserving = null</script>
            </transition>
          </state>
        </state>
        <transition event="ping"><script>received.push(_event.data.n)</script></transition>
        <transition event="fired"><script>fired.push(_event.data.n)</script></transition>
      </parallel>
    </scxml>
    """

typealias DocumentFleet = DurableMachines<String, SCXMLEvent, SCXMLContext>

/// The fleet of the crash tests' document on `store`, keeping its whole journal, with the invoker
/// `reserve`, which fails one first or second attempt in ten, takes up to 20 ms, and records
/// `KEY NUMBER` in the file `activities` before it returns.
func makeDocumentFleet(_ store: any MachineStore, activities: String) throws -> DocumentFleet {
    #if ECMAScript
    let runs = open(activities, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard runs >= 0 else { throw UsageError("cannot open \(activities)") }
    let reserve = SCXMLInvoker { request in
        guard case .number(let number)? = request.parameters["number"], let key = request.key else {
            throw UsageError("the reservation has no number or key")
        }
        if Int.random(in: 0..<10) == 0 && Int.random(in: 0..<2) == 0 { throw ReceiverRefused() }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
        let line = Array("\(key) \(Int(number))\n".utf8)
        _ = line.withUnsafeBytes { write(runs, $0.baseAddress, $0.count) }
        return .object(["number": .number(number)])
    }
    let chart = try SCXMLChart.load(
        fleetDocumentText, file: "fleet.scxml", dataModels: ECMAScriptDataModel.withBuiltIns)
    return try DocumentFleet(
        document: chart, store: store,
        options: DurableOptions(
            compaction: .never,
            retry: RetryPolicy(
                maximumAttempts: 100, initialDelay: .milliseconds(5), maximumDelay: .milliseconds(50),
                timeLimit: .seconds(2)),
            leaseMargin: .seconds(1)),
        invokers: ["reserve": reserve],
        onError: { id, message in FileHandle.standardError.write(Data("\(id): \(message)\n".utf8)) })
    #else
    throw UsageError("--chart document needs the trait ECMAScript")
    #endif
}

/// The document's form of a stream's event: its name, and its number (and delay) as data.
func documentEvent(_ event: FleetEvent) -> SCXMLEvent {
    switch event {
    case .arm(let number, let milliseconds):
        SCXMLEvent("arm", data: .object(["n": .number(Double(number)), "ms": .number(Double(milliseconds))]))
    case .ping(let number): SCXMLEvent("ping", data: .object(["n": .number(Double(number))]))
    case .reserve(let number): SCXMLEvent("reserve", data: .object(["n": .number(Double(number))]))
    case .fired(let number): SCXMLEvent("fired", data: .object(["n": .number(Double(number))]))
    case .receipt(let number), .relayed(let number), .reserved(let number):
        SCXMLEvent("\(event.kind)", data: .object(["n": .number(Double(number))]))
    }
}

/// Sends event `index` of `stream` to the document's fleet, as ``sendRetrying(_:_:_:)`` does to
/// the typed chart's.
func sendRetrying(_ fleet: DocumentFleet, _ stream: EventStream, _ index: Int) async throws {
    try await retryingDatabaseFailures { () async throws(StoreError) in
        try await fleet.send(documentEvent(stream.event(index)), to: stream.machine(index), id: stream.eventID(index))
    }
}

extension CrashTally.Machine {
    /// What a document's machine did, from the variables of its data model.
    init(document machine: StateMachine<String, SCXMLEvent, SCXMLContext>) throws {
        var model = machine.context.model
        func numbers(_ name: String) throws -> [Int] {
            guard case .array(let values) = try model.load(name, at: SourcePosition(file: "check", line: 1, column: 1))
            else { throw UsageError("the variable \(name) is not an array") }
            return values.compactMap { value in
                if case .number(let number) = value { return Int(number) }
                return nil
            }
        }
        self.init(
            received: try numbers("received"), fired: try numbers("fired"),
            reservations: try numbers("reservations"), reserved: try numbers("reserved"),
            superseded: try numbers("superseded"))
    }
}

/// The check of a crash test of the document: every acknowledged event applied once and in the
/// journal's order, every delayed `fired` once, every reservation ended once (its `done.invoke`,
/// or cancelled by the next), and every run of the work recorded under the key its outcome was
/// journaled with. Prints one line; returns whether nothing was lost, duplicated, missed or fired
/// twice.
func checkDocument(_ arguments: Arguments) async throws -> Bool {
    let workers = try arguments.int("workers")
    let files = arguments.strings("acks")
    guard files.count == workers else { throw UsageError("give one --acks file per worker (\(workers))") }
    let activities = try arguments.string("activities")
    let store = try await openStore(try arguments.string("store"), operationTimeLimit: documentOperationTimeLimit)
    let fleet = try makeDocumentFleet(store, activities: activities)
    try await settleEverything(store, drain: { try await fleet.drain() })
    let acknowledged = try readAcknowledged(arguments)
    var tally = CrashTally()
    var outcomeKeys: [String: Int] = [:]
    let decoder = JSONDecoder()
    for id in try await store.machineIDs() {
        guard let machine = try await fleet.machine(id) else { continue }
        let record = try CrashTally.Machine(document: machine)
        let journal = try await store.journal(of: id)
        var applied: [Int] = []
        for entry in journal where entry.kind == .event {
            guard let payload = entry.payload,
                let event = try? decoder.decode(SCXMLEvent.self, from: Data(payload.utf8)),
                ["ping", "arm", "reserve"].contains(event.name), case .object(let data)? = event.data,
                case .number(let number)? = data["n"]
            else { continue }
            applied.append(Int(number))
        }
        for entry in journal where entry.kind == .outcome {
            guard let key = entry.eventID, let payload = entry.payload,
                let outcome = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
                let event = outcome["event"] as? [String: Any], let data = event["data"] as? [String: Any],
                let number = data["number"] as? Double
            else { continue }
            outcomeKeys[key] = Int(number)
        }
        tally.add(
            record, applied: applied, expected: acknowledged.expected[id] ?? [], arms: acknowledged.arms[id] ?? [])
    }
    let known = Set(try await store.machineIDs())
    tally.lost += acknowledged.expected.filter { !known.contains($0.key) }.values.map(\.count).reduce(0, +)
    let runs = try readActivityRuns(activities, outcomeKeys: outcomeKeys)
    let dead = try await store.backlog(now: Fleet.systemTime()).deadLetters
    let due = acknowledged.arms.values.map(\.count).reduce(0, +)
    let label = arguments.strings("label").last ?? "document"
    print(
        "\(label): \(acknowledged.count) events acknowledged, \(tally.lost) lost, \(tally.duplicated) duplicated; "
            + "\(due) timers due, \(tally.missed) missed, \(tally.firedTwice) fired twice; "
            + "\(tally.reservations) activities started, \(tally.activitiesLost) lost, "
            + "\(tally.activitiesDuplicated) duplicated, \(tally.activitiesCancelled) cancelled with their state, "
            + "\(runs.again) run again "
            + (runs.withOtherKey == 0 ? "(all with their first key)" : "(\(runs.withOtherKey) with another key)"))
    if tally.inconsistent > 0 { print("\(label): \(tally.inconsistent) machines differ from their journal") }
    if dead > 0 { print("\(label): \(dead) effects are dead letters") }
    return acknowledged.count > 0 && tally.isClean && dead == 0 && runs.withOtherKey == 0
}
#endif
