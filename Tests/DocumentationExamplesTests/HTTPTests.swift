#if HTTP
import Foundation
import StatechartsHTTP
import StatechartsSCXML
import Testing

#if canImport(StatechartsECMAScript)
import StatechartsECMAScript
#endif

// The example of the StatechartsHTTP documentation, on a document of the fixtures.

@Suite(.timeLimit(.minutes(1)))
struct HTTPTests {
    #if canImport(StatechartsECMAScript)
    @Test("a session with the Basic HTTP processor sends itself an event over loopback and settles")
    func settle() async throws {
        let print = Printed()
        let chart = try SCXMLChart.load(
            contentsOf: fixture("http-ping.scxml"), dataModels: ECMAScriptDataModel.withBuiltIns)

        let http = try await BasicHTTPEventProcessor.start()
        var session = SCXMLSession(chart: chart, options: .init(eventProcessors: [http]))
        try session.start()
        try await session.settle(upTo: .seconds(5))  // the events on their way over HTTP arrive
        print(session)  // [pass] (finished)
        session.close()
        await http.shutdown()

        #expect(print.all == ["[pass] (finished)"])
    }
    #endif
}
#endif
