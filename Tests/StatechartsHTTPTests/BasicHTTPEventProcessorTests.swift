#if HTTP
import AsyncHTTPClient
import Foundation
import StatechartsHTTP
import StatechartsSCXML
import Testing

#if ECMAScript
import StatechartsECMAScript
#endif

/// The Basic HTTP Event I/O Processor over a real socket on loopback: what a document sends
/// arrives as an event, a POST from outside becomes one, and refusals are typed. Every wait is
/// bounded in time and every loop in count.
@Suite(.timeLimit(.minutes(1)))
struct BasicHTTPEventProcessorTests {
    /// A document that sends itself `ping` through the processor, with `_scxmleventname` and a
    /// form parameter, and records what came back.
    static let pingDocument = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="waiting">
          <state id="waiting">
            <transition event="ping" target="pinged"/>
            <transition event="error.communication" target="unreachable"/>
          </state>
          <final id="pinged"/>
          <final id="unreachable"/>
        </scxml>
        """

    @Test("a session's location is on loopback, with its identifier, and a POST there becomes its event")
    func receivesAPost() async throws {
        let http = try await BasicHTTPEventProcessor.start()
        #expect(http.baseURL.hasPrefix("http://127.0.0.1:"))
        let chart = try SCXMLChart.load(Self.pingDocument)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "s 1", eventProcessors: [http]))
        try session.start()
        let location = http.location(of: session.sessionID)
        #expect(location == http.baseURL + "/scxml/s%201")
        #expect(session.machine.context.info.processorLocations["basichttp"] == location)

        let status = try await Self.post("_scxmleventname=ping&note=hello+there", to: location)
        #expect(status == 200)
        try await Self.receive(&session) { $0.activeStates == ["pinged"] }
        #expect(session.activeStates == ["pinged"])
        await http.shutdown()
    }

    @Test("a POST for a session that is not open is refused with 404, and nothing arrives")
    func unknownSession() async throws {
        let http = try await BasicHTTPEventProcessor.start()
        let status = try await Self.post("_scxmleventname=ping", to: http.location(of: "nobody"))
        #expect(status == 404)
        #expect(http.takeArrivals().isEmpty)
        await http.shutdown()
    }

    @Test("a body over the limit is refused, and the session never sees it")
    func bodyLimit() async throws {
        let http = try await BasicHTTPEventProcessor.start(limits: .init(maximumBodySize: 64))
        _ = http.open(session: "s")
        let status = try await Self.post(
            "_scxmleventname=ping&x=" + String(repeating: "a", count: 1_000), to: http.location(of: "s"))
        #expect(status == 413)
        #expect(http.takeArrivals().isEmpty)
        await http.shutdown()
    }

    @Test("a send to a host that is not allowed fails at once with error.communication; nothing leaves the process")
    func disallowedHost() async throws {
        let http = try await BasicHTTPEventProcessor.start()
        _ = http.open(session: "s")
        let awaited = http.send(SCXMLEvent("ping"), to: "http://example.com/scxml/x", from: "s", ticket: 7)
        #expect(!awaited)
        let arrivals = http.takeArrivals()
        #expect(arrivals.count == 1)
        guard case .failed(let ticket, let reason) = arrivals.first else {
            Issue.record("expected a failure, got \(arrivals)")
            return
        }
        #expect(ticket == 7)
        #expect(reason.contains("not an HTTP URL of an allowed host"))
        await http.shutdown()
    }

    @Test("a send no server answers gives the sending session error.communication, after settling")
    func unreachable() async throws {
        let http = try await BasicHTTPEventProcessor.start(limits: .init(sendTimeout: .seconds(2)))
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" initial="waiting">
              <state id="waiting">
                <onentry><send event="ping" target="http://127.0.0.1:1/scxml/x" type="basichttp"/></onentry>
                <transition event="error.communication" target="unreachable"/>
              </state>
              <final id="unreachable"/>
            </scxml>
            """)
        var session = SCXMLSession(chart: chart, options: .init(eventProcessors: [http]))
        try session.start()
        #expect(session.isAwaitingEvents)
        // Settling ends as soon as the refusal arrives; the bound is for a machine so loaded that
        // the client's report of a refused connection takes seconds (seen in a full run beside a
        // fuzzer on two cores).
        try await session.settle(upTo: .seconds(30))
        #expect(session.activeStates == ["unreachable"])
        #expect(!session.isAwaitingEvents)
        await http.shutdown()
    }

    #if ECMAScript
    @Test(
        "a document sends itself an event over HTTP: it arrives before the event sent after it, with its data and origin type"
    )
    func documentSendsToItself() async throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s">
              <datamodel><data id="seen" expr="''"/></datamodel>
              <state id="s">
                <onentry>
                  <send event="first" targetexpr="_ioprocessors['basichttp']['location']" type="basichttp">
                    <param name="n" expr="1"/>
                  </send>
                  <send event="second"/>
                </onentry>
                <transition event="first">
                  <assign location="seen" expr="seen + 'first ' + _event.data.n + ' ' + _event.origintype + ' '"/>
                </transition>
                <transition event="second" target="done"><assign location="seen" expr="seen + 'second'"/></transition>
              </state>
              <final id="done"><onentry><log label="seen" expr="seen"/></onentry></final>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        let http = try await BasicHTTPEventProcessor.start()
        var session = SCXMLSession(chart: chart, options: .init(eventProcessors: [http]))
        var logs = try session.start().logs
        logs += try await session.settle(upTo: .seconds(5)).logs
        #expect(session.activeStates == ["done"])
        #expect(logs.map(\.description) == ["seen: first 1 \(BasicHTTPEventProcessor.uri) second"])
        await http.shutdown()
    }
    #endif

    @Test("a port that cannot be listened on is a typed error")
    func portInUse() async throws {
        let http = try await BasicHTTPEventProcessor.start()
        let port = try #require(Int(http.baseURL.split(separator: ":").last ?? ""))
        await #expect(throws: BasicHTTPEventProcessor.StartError.self) {
            let second = try await BasicHTTPEventProcessor.start(port: port)
            await second.shutdown()
        }
        await http.shutdown()
    }

    // MARK: - Helpers

    /// POSTs a form to `location` from a client of its own, as a party outside the process would;
    /// the status code.
    static func post(_ form: String, to location: String) async throws -> Int {
        var request = HTTPClientRequest(url: location)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(Array(form.utf8))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        return Int(response.status.code)
    }

    /// Lets the session receive what arrived, at most 250 times 20 ms, until `done` holds.
    static func receive(_ session: inout SCXMLSession, until done: (SCXMLSession) -> Bool) async throws {
        for _ in 0..<250 {
            try session.receiveEvents()
            if done(session) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

#if ECMAScript
/// A neighbour that floods a session with events spends each event's own budget, not one that all
/// of them share.
@Suite(.timeLimit(.minutes(2)))
struct ArrivalBudgetTests {
    @Test(
        "300 POSTs whose scripts take 10 ms each (3 s in all, past one cascade's 1 s) are all processed, and the session runs on"
    )
    func floodDoesNotEndTheSession() async throws {
        let http = try await BasicHTTPEventProcessor.start()
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="count" expr="0"/></datamodel>
              <state id="open">
                <transition event="work">
                  <script>var until = Date.now() + 10; while (Date.now() &lt; until) {} count = count + 1;</script>
                </transition>
                <transition event="check" cond="count === 300" target="all"/>
              </state>
              <final id="all"/>
            </scxml>
            """, dataModels: ECMAScriptDataModel.withBuiltIns)
        var session = SCXMLSession(chart: chart, options: .init(sessionID: "flooded", eventProcessors: [http]))
        try session.start()
        let location = http.location(of: session.sessionID)
        for _ in 0..<300 {
            #expect(try await BasicHTTPEventProcessorTests.post("_scxmleventname=work", to: location) == 200)
        }
        try await session.settle(upTo: .seconds(30))
        #expect(session.endedBy == nil, "\(session.problems)")
        #expect(session.status == .running)
        try session.send("check")
        #expect(session.activeStates == ["all"])
        await http.shutdown()
    }
}
#endif
#endif
