import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// A generated document that invokes Swift work by type: Downloader.swift is what
/// `statechart generate` writes for Documents/downloader.scxml, with an `Invokers` struct that
/// asks the app for one invoker per `<invoke type>`.
@Suite("A generated document with Swift invokers", .timeLimit(.minutes(1)))
struct GeneratedInvokerTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
        path: "Documents/downloader.scxml")

    /// What the invoker was given and saw, from its task.
    final class Record: Sendable {
        let requests = Locked<[SCXMLInvocationRequest]>([])
        let cancelled = Locked(false)
    }

    /// Reports two parts, then returns what it fetched; or, with `waits`, waits until cancelled.
    static func invokers(_ record: Record, waits: Bool = false) -> Downloader.Invokers {
        Downloader.Invokers(
            download: SCXMLInvoker { request in
                record.requests.withLock { $0.append(request) }
                if waits {
                    do {
                        try await Task.sleep(for: .seconds(60))
                    } catch {
                        record.cancelled.withLock { $0 = true }
                        throw error
                    }
                }
                request.send(SCXMLEvent(Downloader.Event.downloadProgress.rawValue))
                request.send(SCXMLEvent(Downloader.Event.downloadProgress.rawValue))
                return .string("fetched \(request.source ?? "?")")
            })
    }

    @Test("the checked-in file is what the generator writes")
    func checkedIn() throws {
        let generated = try SwiftGenerator().generate(contentsOf: Self.document)
        let checkedIn = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(
                path: "Downloader.swift"),
            encoding: .utf8)
        #expect(generated.source == checkedIn, "run: statechart generate \(Self.document.path) -o Downloader.swift")
        #expect(generated.source.contains("struct Invokers"))
    }

    @Test("the generated invokers run the work: parameters and src in, events out, done.invoke ends it")
    func runs() async throws {
        let record = Record()
        let chart = try Downloader.chart(dataModels: [NullDataModel.self])
        var session = SCXMLSession(chart: chart, options: .init(invokers: Self.invokers(record).byType))
        try session.start()
        try session.send(Downloader.Event.fetch)
        #expect(session.isActive(Downloader.State.downloading))
        let step = try await session.settle(upTo: .seconds(10))
        #expect(session.isActive(Downloader.State.done))
        #expect(step.logs.map(\.message) == ["one more part", "one more part"])
        let request = try #require(record.requests.withLock { $0.first })
        #expect(request.type == "download")
        #expect(request.invokeID == "file")
        #expect(request.source == "https://example.com/report.pdf")
        #expect(request.parameters["priority"] == .string("high"))
    }

    @Test("leaving the invoking state cancels the work")
    func cancels() async throws {
        let record = Record()
        let chart = try Downloader.chart(dataModels: [NullDataModel.self])
        var session = SCXMLSession(chart: chart, options: .init(invokers: Self.invokers(record, waits: true).byType))
        try session.start()
        try session.send(Downloader.Event.fetch)
        for _ in 0..<5000 where record.requests.withLock(\.isEmpty) { try await Task.sleep(for: .milliseconds(1)) }
        try session.send(Downloader.Event.cancel)
        #expect(session.isActive(Downloader.State.idle))
        for _ in 0..<5000 where !record.cancelled.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(record.cancelled.withLock { $0 })
        let step = try session.receiveEvents()
        #expect(step.logs.isEmpty, "nothing the cancelled work sent is delivered")
        #expect(session.isActive(Downloader.State.idle))
    }
}
