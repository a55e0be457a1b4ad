#if HTTP
import Foundation
import Statecharts
import StatechartsHTTP
import StatechartsSCXML
import Testing

/// A typed live machine of a `StatechartSystem` that sends through the Basic HTTP Event I/O
/// Processor: its event reaches a document's session over loopback, with its name and its data, and
/// a send the processor refuses is `error.communication` in the machine. Waits are bounded.
@Suite(.timeLimit(.minutes(1)))
struct LiveMachineHTTPTests {
    enum Link: Hashable, Sendable { case up, down }
    enum Telemetry: StatechartEvent, Sendable, Codable, Equatable {
        case report, measured(celsius: Double)
        enum Kind: CaseIterable, Hashable, Sendable { case report, measured }
        var kind: Kind {
            switch self {
            case .report: .report
            case .measured: .measured
            }
        }
    }

    struct Uplink: Sendable {
        var target: String
        var failures: [String] = []
    }

    static func sensor() throws -> Statechart<Link, Telemetry, Uplink> {
        try Statechart(initial: .up) {
            StateNode(.up) {
                On(.report) { scope in
                    scope.send(.measured(celsius: 21.5), to: scope.context.target, type: "basichttp")
                }
                On(named: "error.communication", to: .down) { scope in
                    scope.context.failures.append(scope.failure?.reason ?? "?")
                }
            }
            StateNode(.down)
        }
    }

    @Test("a typed machine's send reaches a session's location as the event's name with the event as JSON data")
    func reachesASession() async throws {
        let http = try await BasicHTTPEventProcessor.start()
        let location = http.open(session: "dashboard")
        let system = StatechartSystem(processors: [http])
        let sensor = StatechartActor(try Self.sensor(), context: Uplink(target: location))
        try await sensor.join(system, as: "sensor")
        try await sensor.start()
        try await sensor.send(.report)

        var arrived: SCXMLEvent?
        for _ in 0..<250 where arrived == nil {
            for case .event(let event, "dashboard", _) in http.takeArrivals() { arrived = event }
            if arrived == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let event = try #require(arrived)
        #expect(event.name == "measured")
        #expect(event.data == SCXMLValue(json: #"{"measured":{"celsius":21.5}}"#))
        #expect(event.originType == BasicHTTPEventProcessor.uri)
        #expect(await sensor.snapshot.activeStates == [.up])
        await http.shutdown()
    }

    @Test("a send to a host that is not allowed, or that nobody answers, is error.communication in the machine")
    func refused() async throws {
        let http = try await BasicHTTPEventProcessor.start(limits: .init(sendTimeout: .seconds(2)))
        let system = StatechartSystem(processors: [http])
        let outside = StatechartActor(try Self.sensor(), context: Uplink(target: "http://example.com/scxml/x"))
        let unanswered = StatechartActor(try Self.sensor(), context: Uplink(target: "http://127.0.0.1:1/scxml/x"))
        try await outside.join(system, as: "outside")
        try await unanswered.join(system, as: "unanswered")
        try await outside.start()
        try await unanswered.start()
        try await outside.send(.report)
        try await unanswered.send(.report)
        for _ in 0..<1500 {
            if await outside.snapshot.activeStates == [.down], await unanswered.snapshot.activeStates == [.down] {
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let outsideReason = try #require(await outside.snapshot.context.failures.first)
        #expect(outsideReason.contains("not an HTTP URL of an allowed host"))
        let unansweredReason = try #require(await unanswered.snapshot.context.failures.first)
        #expect(unansweredReason.contains("could not be reached"))
        await http.shutdown()
    }
}
#endif
