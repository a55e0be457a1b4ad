import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// Whether this build has the ECMAScript data model, which the documents here use.
let buildHasECMAScript = BuiltDataModels.all.contains { $0.names.contains("ecmascript") }

/// Swift work that documents invoke by type (`SCXMLSession.Options.invokers`): parameters in,
/// events and done data out, cancellation when the state is exited, failures, archives, and the
/// live session.
@Suite(
    "Swift invokers in documents", .timeLimit(.minutes(1)),
    .enabled(if: buildHasECMAScript, "the documents use the ECMAScript data model (trait ECMAScript)"))
struct InvokerTests {
    /// A document that downloads with Swift work, logging each progress event (in `<finalize>`,
    /// which runs before the invocation's events) and the done data.
    static let document = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="fetching">
          <state id="fetching">
            <invoke type="download" id="dl">
              <param name="url" expr="'https://example.com/a'"/>
              <param name="size" expr="3"/>
              <finalize><log label="finalize" expr="_event.name + ' ' + _event.invokeid"/></finalize>
            </invoke>
            <transition event="download.progress"><log label="progress" expr="_event.data"/></transition>
            <transition event="done.invoke.dl" target="done"><log label="done" expr="_event.data"/></transition>
            <transition event="error.execution" target="failed">
              <log label="error" expr="_event.data.reason"/>
            </transition>
            <transition event="cancel" target="idle"/>
          </state>
          <state id="idle"/>
          <state id="done"/>
          <state id="failed"/>
        </scxml>
        """

    static func chart() throws -> SCXMLChart {
        try SCXMLChart.load(document, file: "download.scxml", dataModels: BuiltDataModels.all)
    }

    /// Records what invokers were given and did, from their tasks.
    final class Record: Sendable {
        let requests = Locked<[SCXMLInvocationRequest]>([])
        let cancelled = Locked(false)
    }

    /// Sends three progress events, then returns what it fetched.
    static func download(_ record: Record) -> SCXMLInvoker {
        SCXMLInvoker { request in
            record.requests.withLock { $0.append(request) }
            for step in 1...3 { request.send(SCXMLEvent("download.progress", data: .number(Double(step)))) }
            return .string("fetched \(request.parameters["url"]?.description ?? "?")")
        }
    }

    /// Waits until cancelled, then tries to send an event, which must be dropped.
    static func endless(_ record: Record) -> SCXMLInvoker {
        SCXMLInvoker { request in
            record.requests.withLock { $0.append(request) }
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                record.cancelled.withLock { $0 = true }
                request.send(SCXMLEvent("download.progress", data: .number(99)))
                throw error
            }
            return nil
        }
    }

    func logs(_ step: SCXMLStep) -> [String] { step.logs.map(\.description) }

    @Test("parameters in, events out in order (each after <finalize>), and the returned value as done.invoke's data")
    func runs() async throws {
        let record = Record()
        var session = SCXMLSession(
            chart: try Self.chart(), options: .init(invokers: ["download": Self.download(record)]))
        var step = try session.start()
        #expect(session.runningInvocations == ["dl"])
        step.merge(try await session.settle(upTo: .seconds(10)))

        #expect(session.activeStates == ["done"])
        #expect(session.runningInvocations.isEmpty)
        let request = try #require(record.requests.withLock { $0.first })
        #expect(request.invokeID == "dl")
        #expect(request.type == "download")
        #expect(request.parameters == ["url": .string("https://example.com/a"), "size": .number(3)])
        #expect(request.source == nil)
        #expect(request.sessionID == session.sessionID)
        #expect(
            logs(step) == [
                "finalize: download.progress dl", "progress: 1", "finalize: download.progress dl", "progress: 2",
                "finalize: download.progress dl", "progress: 3", "finalize: done.invoke.dl dl",
                "done: fetched https://example.com/a",
            ])
    }

    @Test("an event the work sends arrives external, from the work's session, with the invokeid and its own fields")
    func eventFromWorkFields() async throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="waiting">
              <state id="waiting">
                <invoke type="note" id="nt"/>
                <transition event="work.note" target="noted">
                  <log label="fields" expr="[_event.type, _event.origin.indexOf('#_scxml_') == 0,
                    _event.origintype, _event.invokeid, _event.sendid, _event.data].join(' ')"/>
                </transition>
              </state>
              <state id="noted"/>
            </scxml>
            """
        let chart = try SCXMLChart.load(document, file: "note.scxml", dataModels: BuiltDataModels.all)
        let note = SCXMLInvoker { request in
            request.send(SCXMLEvent("work.note", data: .number(7), type: .internal, sendID: "s1"))
            return nil
        }
        var session = SCXMLSession(chart: chart, options: .init(invokers: ["note": note]))
        var step = try session.start()
        step.merge(try await session.settle(upTo: .seconds(10)))
        #expect(session.activeStates == ["noted"])
        #expect(logs(step) == ["fields: external true http://www.w3.org/TR/scxml/#SCXMLEventProcessor nt s1 7"])
    }

    @Test("exiting the invoking state cancels the work's task, and nothing it sends afterwards is delivered")
    func cancellation() async throws {
        let record = Record()
        var session = SCXMLSession(
            chart: try Self.chart(), options: .init(invokers: ["download": Self.endless(record)]))
        try session.start()
        for _ in 0..<5000 where record.requests.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(1)) }
        try session.send("cancel")
        #expect(session.activeStates == ["idle"])
        #expect(session.runningInvocations.isEmpty)
        for _ in 0..<5000 where !record.cancelled.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(record.cancelled.withLock { $0 })
        let step = try session.receiveEvents()
        #expect(logs(step).isEmpty, "the event the cancelled work sent is dropped")
        #expect(session.activeStates == ["idle"])
        #expect(!session.isAwaitingEvents)
    }

    @Test("work that throws is error.execution in the invoking session, naming the <invoke> and the error")
    func failure() async throws {
        struct Unreachable: Error, CustomStringConvertible { var description: String { "host unreachable" } }
        let failing = SCXMLInvoker { _ in throw Unreachable() }
        var session = SCXMLSession(
            chart: try Self.chart(), options: .init(invokers: ["download": failing], recordsMicrosteps: true))
        try session.start()
        let step = try await session.settle(upTo: .seconds(10))
        #expect(session.activeStates == ["failed"])
        #expect(logs(step) == ["error: the invoked work 'dl' failed: host unreachable"])
        #expect(step.errors.first?.location.line == 3, "\(step.errors)")
    }

    @Test("a type the session has no invoker for is still error.execution, at the <invoke>'s line and column")
    func unknownType() throws {
        var session = SCXMLSession(chart: try Self.chart(), options: .init(recordsMicrosteps: true))
        let step = try session.start()
        #expect(session.activeStates == ["failed"])
        let error = try #require(step.errors.first)
        #expect(error.location.line == 3)
        #expect(error.location.column == 5)
        #expect(error.message.contains("the invoke type 'download' is not supported"), "\(error.message)")
        #expect(try Self.chart().warnings.contains { $0.message.contains("unless the session has an invoker for it") })
    }

    @Test("archived while the work runs: the restored session starts the work again, with the same request")
    func archive() async throws {
        let record = Record()
        let chart = try Self.chart()
        var session = SCXMLSession(chart: chart, options: .init(invokers: ["download": Self.endless(record)]))
        try session.start()
        let data = try JSONEncoder().encode(try session.archive())
        session.close()

        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        var restored = try SCXMLSession(
            chart: chart, restoring: archive, options: .init(invokers: ["download": Self.download(record)]))
        #expect(restored.runningInvocations == ["dl"])
        let step = try await restored.settle(upTo: .seconds(10))
        #expect(restored.activeStates == ["done"])
        #expect(logs(step).last == "done: fetched https://example.com/a")
        let requests = record.requests.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests.map(\.parameters) == [requests[0].parameters, requests[0].parameters])
        #expect(requests.map(\.invokeID) == ["dl", "dl"])
    }

    @Test("restored without the invoker, the running invocation is error.execution at the next call")
    func archiveWithoutInvoker() throws {
        let record = Record()
        let chart = try Self.chart()
        var session = SCXMLSession(chart: chart, options: .init(invokers: ["download": Self.endless(record)]))
        try session.start()
        let archive = try session.archive()
        session.close()
        var restored = try SCXMLSession(chart: chart, restoring: archive)
        let step = try restored.receiveEvents()
        #expect(restored.activeStates == ["failed"])
        #expect(logs(step).first?.contains("no invoker for 'download'") == true, "\(logs(step))")
    }

    @Test("live, the session takes the work's events and outcome by itself")
    @MainActor func live() async throws {
        let record = Record()
        let session = IsolatedSCXMLSession(
            try Self.chart(), options: .init(invokers: ["download": Self.download(record)]))
        try session.start()
        for _ in 0..<1000 where !session.isActive("done") { try await Task.sleep(for: .milliseconds(5)) }
        #expect(session.activeStates == ["done"])
        #expect(session.session().runningInvocations.isEmpty)
    }
}
