#if Store && ECMAScript
import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import StatechartsStore
import Testing

/// Durable documents, on every store: a fleet of one SCXML document with ECMAScript data keeps
/// its data model in its snapshots, its delayed sends as timers, and runs its `<invoke>` of a
/// Swift invoker as durable work.
@Suite(.serialized) struct DurableDocumentTests {
    static let stores = StoreKind.available

    @Test("a document's data model is in its snapshots, and a machine read back has one of its own", arguments: stores)
    func dataModelInSnapshots(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let options = DurableOptions(snapshotInterval: 2, compaction: .afterSnapshot(keepingLast: 0))
        let fleet = try orderDocuments(store, clock, options: options)
        for amount in [5, 7, -3, 11] {
            try await fleet.send(SCXMLEvent("add", data: .object(["amount": .number(Double(amount))])), to: "order-1")
            try await fleet.drain()
        }
        // The guard refused -3: three added, in a snapshot that holds the variables.
        let row = try #require(try await store.record(of: "order-1")?.row)
        let snapshot = try #require(row.snapshot)
        // Taken at entry 4 (start, then three adds): the ECMAScript variables as JSON.
        #expect(row.snapshotSequence == 4)
        #expect(row.appliedSequence == 5)
        #expect(snapshot.contains(#"[\"count\",2],[\"total\",12]"#))
        // Another fleet object, with nothing in memory, reads it back from the snapshot alone.
        let other = try orderDocuments(store, clock, options: options)
        var first = try #require(try await other.machine("order-1"))
        var second = try #require(try await other.machine("order-1"))
        #expect(try variable("count", of: &first) == .number(3))
        #expect(try variable("total", of: &first) == .number(23))
        #expect(first.configuration == ["idle"])
        // Each read has a model of its own: a change to one is not seen by the other.
        // (The model is a reference to its virtual machine: a copy of it changes the machine's.)
        var model = first.context.model
        try model.store(.number(99), in: "total", at: SourcePosition(file: "test", line: 1, column: 1))
        #expect(try variable("total", of: &first) == .number(99))
        #expect(try variable("total", of: &second) == .number(23))
        // And it goes on where it was.
        try await other.send(SCXMLEvent("add", data: .object(["amount": .number(1)])), to: "order-1")
        try await other.drain()
        var after = try #require(try await other.machine("order-1"))
        #expect(try variable("total", of: &after) == .number(24))
    }

    @Test("a delayed <send> is a timer of the machine: it fires once, and <cancel> removes it", arguments: stores)
    func delayedSendIsATimer(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orderDocuments(store, clock)
        try await fleet.send("remind", to: "order-2")
        try await fleet.drain()
        #expect(try await store.record(of: "order-2")?.timers.count == 1)
        clock.advance(by: .milliseconds(199))
        try await fleet.drain()
        var machine = try #require(try await fleet.machine("order-2"))
        #expect(try variable("log", of: &machine) == .array([]))
        clock.advance(by: .milliseconds(1))
        try await fleet.drain()
        clock.advance(by: .seconds(5))
        try await fleet.drain()
        machine = try #require(try await fleet.machine("order-2"))
        #expect(try variable("log", of: &machine) == .array([.string("reminded")]))
        // Cancelled before it is due: it never fires.
        try await fleet.send("remind", to: "order-2")
        try await fleet.drain()
        try await fleet.send("forget", to: "order-2")
        try await fleet.drain()
        #expect(try await store.record(of: "order-2")?.timers.isEmpty == true)
        clock.advance(by: .seconds(5))
        try await fleet.drain()
        machine = try #require(try await fleet.machine("order-2"))
        #expect(try variable("log", of: &machine) == .array([.string("reminded")]))
    }

    @Test("a <send> to the session itself is journaled into its own queue with the step", arguments: stores)
    func sendToItself(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orderDocuments(store, clock)
        try await fleet.send("echo", to: "order-3")
        try await fleet.drain()
        var machine = try #require(try await fleet.machine("order-3"))
        #expect(try variable("log", of: &machine) == .array([.string("echoed")]))
        let journaled = try await store.journal(of: "order-3").filter { $0.kind == .event }.compactMap(\.eventID)
        // The client's event, then the one the step sent, under the step's effect key.
        #expect(journaled.count == 2)
        #expect(journaled.last == "order-3/2/0")
    }

    @Test(
        "an <invoke> of a Swift invoker runs as durable work: parameters in, events out, done.invoke with its data",
        arguments: stores)
    func invokerRunsAsActivity(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let requests = Locked([String]())
        let charge = SCXMLInvoker { request in
            requests.withLock {
                $0.append("\(request.invokeID) \(request.type) \(request.parameters["amount"] ?? .null)")
            }
            request.send(SCXMLEvent("charge.progress", data: .number(0.5)))
            return .object(["receipt": .string("r-\(request.sessionID)")])
        }
        let fleet = try orderDocuments(store, clock, invokers: ["charge": charge])
        try await fleet.send(SCXMLEvent("add", data: .object(["amount": .number(30)])), to: "order-4")
        try await fleet.send("pay", to: "order-4")
        _ = try await fleet.process()
        #expect(try await fleet.outbox(of: "order-4").map(\.kind) == ["activity"])
        try await fleet.drain()
        #expect(requests.withLock { $0 } == ["charge charge 30"])
        var machine = try #require(try await fleet.machine("order-4"))
        #expect(machine.configuration == ["paid"])
        #expect(try variable("charged", of: &machine) == .object(["receipt": .string("r-order-4")]))
        // <finalize> ran before each event of the invocation, which carried its invokeid.
        let log = try variable("log", of: &machine)
        #expect(
            log
                == .array([
                    .string("finalize charge.progress"), .string("progress 0.5"),
                    .string("finalize done.invoke.charge"),
                ]))
        // Journaled once each, under the activity's key: the event sent, then the end.
        let outcomes = try await store.journal(of: "order-4").filter { $0.kind == .outcome }.compactMap(\.eventID)
        #expect(outcomes == ["order-4/3/0/1", "order-4/3/0"])
    }

    @Test("an invoker's work that runs again sends each of its events once", arguments: stores)
    func workRunAgainSendsOnce(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let attempts = Locked(0)
        let charge = SCXMLInvoker { request in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            request.send(SCXMLEvent("charge.progress", data: .number(0.5)))
            // The first attempt fails after sending: the second sends the same event again.
            if attempt == 1 { throw ChargeRefused() }
            return .string("ok")
        }
        let fleet = try orderDocuments(
            store, clock, retry: RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(1)),
            invokers: ["charge": charge])
        try await fleet.send("pay", to: "order-5")
        try await fleet.drain()
        clock.advance(by: .seconds(2))
        try await fleet.drain()
        #expect(attempts.withLock { $0 } == 2)
        var machine = try #require(try await fleet.machine("order-5"))
        #expect(machine.configuration == ["paid"])
        let log = try variable("log", of: &machine)
        #expect(
            log
                == .array([
                    .string("finalize charge.progress"), .string("progress 0.5"),
                    .string("finalize done.invoke.charge"),
                ]))
    }

    @Test("an invoker that fails on its last attempt is error.execution in the document", arguments: stores)
    func lastFailureIsErrorExecution(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let charge = SCXMLInvoker { _ in throw ChargeRefused() }
        let fleet = try orderDocuments(
            store, clock, retry: RetryPolicy(maximumAttempts: 2, initialDelay: .seconds(1)),
            invokers: ["charge": charge])
        try await fleet.send("pay", to: "order-6")
        try await fleet.drain()
        clock.advance(by: .seconds(2))
        try await fleet.drain()
        var machine = try #require(try await fleet.machine("order-6"))
        #expect(machine.configuration == ["failed"])
        let reason = try variable("reason", of: &machine)
        #expect(reason.description.contains("the bank refused the charge"))
        #expect(try await fleet.outbox(of: "order-6").isEmpty)
        #expect(try await fleet.deadLetters().isEmpty)
    }

    @Test("exiting the invoking state cancels the work, and drops what it sends and returns", arguments: stores)
    func exitCancelsWork(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let started = Locked(false)
        let stopped = Locked(false)
        let charge = SCXMLInvoker { request in
            started.withLock { $0 = true }
            // Waits, bounded, until it is cancelled.
            for _ in 0..<200 where !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
            if Task.isCancelled { stopped.withLock { $0 = true } }
            request.send(SCXMLEvent("charge.progress", data: .number(1)))
            return .string("too late")
        }
        let fleet = try orderDocuments(
            store, nil, options: DurableOptions(pollInterval: .milliseconds(10)), invokers: ["charge": charge])
        let worker = Task { try await fleet.run() }
        defer { worker.cancel() }
        try await fleet.send("pay", to: "order-7")
        for _ in 0..<200 where !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(started.withLock { $0 })
        try await fleet.send("cancel", to: "order-7")
        for _ in 0..<200 where !stopped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(stopped.withLock { $0 })
        // Nothing it sent or returned reached the machine.
        for _ in 0..<50 where try await store.backlog(now: Int64.max / 2).pendingEvents > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        var machine = try #require(try await fleet.machine("order-7"))
        #expect(machine.configuration == ["idle"])
        #expect(try variable("log", of: &machine) == .array([]))
        #expect(try await fleet.outbox(of: "order-7").isEmpty)
    }

    @Test(
        "an <invoke> of an SCXML document, or of a type with no work, ends in error.execution", arguments: stores)
    func otherInvocationsFail(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orderDocuments(store, clock)
        try await fleet.send("pay", to: "order-8")
        try await fleet.send("child", to: "order-9")
        try await fleet.drain()
        var unregistered = try #require(try await fleet.machine("order-8"))
        #expect(unregistered.configuration == ["failed"])
        #expect(try variable("reason", of: &unregistered).description.contains("'charge' is not supported"))
        var child = try #require(try await fleet.machine("order-9"))
        #expect(child.configuration == ["failed"])
        #expect(try variable("reason", of: &child).description.contains("no activity is registered"))
    }

    @Test("a type with both an invoker and an activity is refused")
    func typeInBoth() async throws {
        let store = try await StoreKind.sqlite.make()
        let activity = DurableActivity<String, SCXMLEvent, SCXMLContext> { _ in nil }
        #expect(throws: StoreError.invalidConfiguration("the invoke type 'charge' has both an invoker and an activity"))
        {
            _ = try DurableMachines(
                document: try orderDocument(), store: store, invokers: ["charge": SCXMLInvoker { _ in nil }],
                activities: ["charge": activity])
        }
    }
}

/// A document of orders: a counter with a guard, a delayed reminder, a send to itself, and a
/// payment that invokes Swift work of type `charge` (or an SCXML document, for `child`).
let orderDocumentText = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="idle" name="order">
      <datamodel>
        <data id="count" expr="0"/>
        <data id="total" expr="0"/>
        <data id="log" expr="[]"/>
        <data id="charged" expr="null"/>
        <data id="reason" expr="null"/>
      </datamodel>
      <state id="idle">
        <transition event="add" cond="_event.data.amount &gt; 0">
          <assign location="count" expr="count + 1"/>
          <assign location="total" expr="total + _event.data.amount"/>
        </transition>
        <transition event="remind"><send event="reminded" delay="200ms" id="reminder"/></transition>
        <transition event="forget"><cancel sendid="reminder"/></transition>
        <transition event="reminded"><assign location="log" expr="log.concat(['reminded'])"/></transition>
        <transition event="echo"><send event="echoed"/></transition>
        <transition event="echoed"><assign location="log" expr="log.concat(['echoed'])"/></transition>
        <transition event="pay" target="charging"/>
        <transition event="child" target="invoking"/>
      </state>
      <state id="charging">
        <invoke type="charge" id="charge">
          <param name="amount" expr="total"/>
          <finalize><assign location="log" expr="log.concat(['finalize ' + _event.name])"/></finalize>
        </invoke>
        <transition event="charge.progress"><assign location="log" expr="log.concat(['progress ' + _event.data])"/></transition>
        <transition event="done.invoke.charge" target="paid"><assign location="charged" expr="_event.data"/></transition>
        <transition event="cancel" target="idle"/>
      </state>
      <state id="invoking">
        <invoke type="scxml"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><final id="f"/></scxml></content></invoke>
      </state>
      <state id="paid"/>
      <state id="failed"/>
      <transition event="error.execution" target="failed"><assign location="reason" expr="String(_event.data.reason || _event.data.message || JSON.stringify(_event.data))"/></transition>
    </scxml>
    """

/// The order document's chart, on the ECMAScript data model.
func orderDocument() throws -> SCXMLChart {
    try SCXMLChart.load(orderDocumentText, file: "order.scxml", dataModels: ECMAScriptDataModel.withBuiltIns)
}

/// A fleet of the order document on `store`, on `clock` (the system's when `nil`).
func orderDocuments(
    _ store: any MachineStore, _ clock: TestClock?, options: DurableOptions = DurableOptions(compaction: .never),
    retry: RetryPolicy = RetryPolicy(), invokers: [String: SCXMLInvoker] = [:]
) throws -> DurableMachines<String, SCXMLEvent, SCXMLContext> {
    var options = options
    options.retryByKind[.activity] = retry
    return try DurableMachines(
        document: try orderDocument(), store: store, options: options,
        clock: clock?.read ?? DurableMachines<String, SCXMLEvent, SCXMLContext>.systemTime, invokers: invokers)
}

/// The value of a variable of a durable document's machine.
func variable(_ name: String, of machine: inout StateMachine<String, SCXMLEvent, SCXMLContext>) throws -> SCXMLValue {
    var model = machine.context.model
    return try model.load(name, at: SourcePosition(file: "test", line: 1, column: 1))
}
#endif
