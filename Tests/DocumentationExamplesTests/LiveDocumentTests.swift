#if Inspector
import Clocks
import Foundation
import Observation
import Statecharts
import StatechartsInspector
import StatechartsSCXML
import Testing

#if canImport(StatechartsECMAScript)
import StatechartsECMAScript
#endif

// The example of the article "Running a document live": a document on the main actor, on a real
// clock and on a test clock, observed as SwiftUI observes it, archived and restored, and attached
// to the inspector. Compiled as written and under main-actor default isolation.

/// The view model of the article: a kettle whose document says when it has boiled.
@MainActor @Observable
final class KettleModel {
    let kettle: IsolatedSCXMLSession

    init(
        chart: SCXMLChart, options: SCXMLSession.Options = SCXMLSession.Options(), timers: TimerWheel = .continuous
    )
        throws
    {
        kettle = IsolatedSCXMLSession(chart, options: options, timers: timers)
        try kettle.start()
    }

    var isHeating: Bool { kettle.isActive("heating") }
    func switchOn() { _ = try? kettle.send("switch.on") }
}

@MainActor
@Suite("A document live on the main actor", .timeLimit(.minutes(1)))
struct LiveDocumentTests {
    let clock = TestClock()
    let timers: TimerWheel

    init() { timers = TimerWheel(clock: clock) }

    func kettleChart() throws -> SCXMLChart { try SCXMLChart.load(contentsOf: fixture("kettle.scxml")) }

    @Test("on a test clock: the delayed send fires at 200 ms, not before, and its <log> is written")
    func testClock() async throws {
        let print = Printed()
        let model = try KettleModel(chart: try kettleChart(), options: .init(log: { print($0) }), timers: timers)
        model.switchOn()
        #expect(model.isHeating)
        await clock.advance(by: .milliseconds(199))
        await timers.settle()
        #expect(model.isHeating)
        await clock.advance(by: .milliseconds(1))
        await timers.settle()
        #expect(model.kettle.activeStates == ["idle"])
        #expect(print.all == ["kettle: boiled"])
    }

    @Test("the article's test on a test clock, and its restore from an archive")
    func articleExamples() async throws {
        let chart = try kettleChart()
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let model = try KettleModel(chart: chart, timers: timers)
        model.switchOn()
        await clock.advance(by: .milliseconds(200))
        await timers.settle()  // the delayed send has fired and been processed
        #expect(model.kettle.activeStates == ["idle"])

        let data = try JSONEncoder().encode(try model.kettle.archive())
        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        let kettle = IsolatedSCXMLSession(session: try SCXMLSession(chart: chart, restoring: archive))
        try kettle.start()
        #expect(kettle.activeStates == ["idle"])
        #expect(kettle.session().now >= .milliseconds(200), "the restored session goes on from its archived time")
    }

    @Test("on the real clock: the delayed send fires by itself, no earlier than its 200 ms")
    func realClock() async throws {
        let model = try KettleModel(chart: try kettleChart())
        let start = ContinuousClock.now
        model.switchOn()
        #expect(model.isHeating)
        for _ in 0..<1000 where model.isHeating { try await Task.sleep(for: .milliseconds(5)) }
        #expect(model.kettle.activeStates == ["idle"])
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }

    @Test("Observation: a reader is told once per step that changes what it read, and not otherwise")
    func observation() async throws {
        let model = try KettleModel(chart: try kettleChart(), timers: timers)
        let heating = ViewRenders { _ = model.isHeating }
        let configuration = ViewRenders { _ = model.kettle.configuration }
        let status = ViewRenders { _ = model.kettle.status }
        model.switchOn()
        await Task.yield()
        #expect(heating.renders == 2)
        #expect(configuration.renders == 2)
        try model.kettle.send("switch.on")  // not handled while heating: nothing changes
        await Task.yield()
        #expect(heating.renders == 2)
        #expect(configuration.renders == 2)
        await clock.advance(by: .milliseconds(200))
        await timers.settle()
        await Task.yield()
        #expect(heating.renders == 3, "the timer's step is told too")
        #expect(configuration.renders == 3)
        #expect(status.renders == 1, "the kettle never finished")
    }

    @Test("withObservationTracking is told once for a step, however many parts it read changed")
    func trackingOnce() throws {
        let model = try KettleModel(chart: try kettleChart(), timers: timers)
        let told = Locked(0)
        withObservationTracking {
            _ = model.kettle.isActive("idle")
            _ = model.kettle.isActive("heating")
            _ = model.kettle.activeStates
        } onChange: {
            told.withLock { $0 += 1 }
        }
        model.switchOn()
        model.switchOn()
        #expect(told.withLock { $0 } == 1)
    }

    @Test("archived while heating and restored on another clock, it boils when the rest of its 200 ms has passed")
    func archiveAndRestore() async throws {
        let chart = try kettleChart()
        let model = try KettleModel(chart: chart, timers: timers)
        model.switchOn()
        await clock.advance(by: .milliseconds(120))
        let data = try JSONEncoder().encode(try model.kettle.archive())

        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        let laterClock = TestClock()
        let laterTimers = TimerWheel(clock: laterClock)
        let restored = IsolatedSCXMLSession(
            session: try SCXMLSession(chart: chart, restoring: archive), timers: laterTimers)
        try restored.start()
        #expect(throws: MachineError<String, SCXMLEvent>.self) { try restored.start() }
        #expect(restored.isActive("heating"))
        await laterClock.advance(by: .milliseconds(79))
        await laterTimers.settle()
        #expect(restored.isActive("heating"))
        await laterClock.advance(by: .milliseconds(1))
        await laterTimers.settle()
        #expect(restored.activeStates == ["idle"])
    }

    @Test("a document that invokes another is archived and restored live with its invoked session")
    func archiveWithChildren() throws {
        let chart = try SCXMLChart.load(contentsOf: fixture("parent.scxml"))
        let session = IsolatedSCXMLSession(chart, timers: timers)
        try session.start()
        try session.send("go")
        let children = session.session().childSessionIDs
        #expect(children.count == 1)

        let data = try JSONEncoder().encode(try session.archive())
        let archive = try chart.archiveDecoder().decode(SCXMLSessionArchive.self, from: data)
        let restored = IsolatedSCXMLSession(session: try SCXMLSession(chart: chart, restoring: archive), timers: timers)
        try restored.start()
        #expect(restored.session().childSessionIDs == children)
        #expect(restored.snapshot().invoked == [children[0]: ["busy"]])
        #expect(restored.activeStates == ["working"])
    }

    @Test("the snapshots' stream has the session now, then each step, the timer's among them")
    func snapshots() async throws {
        let session = IsolatedSCXMLSession(try kettleChart(), timers: timers)
        let stream = session.snapshots()
        try session.start()
        try session.send("switch.on")
        await clock.advance(by: .milliseconds(200))
        await timers.settle()
        var seen: [SCXMLSessionSnapshot] = []
        for await snapshot in stream {
            seen.append(snapshot)
            if seen.count == 4 { break }
        }
        #expect(seen.map(\.cause) == [.now, .start, .event("switch.on"), .timers])
        #expect(seen.map(\.activeStates) == [[], ["idle"], ["heating"], ["idle"]])
        #expect(seen.last?.step.logs.map(\.description) == ["kettle: boiled"])
        #expect(seen.last?.now == .milliseconds(200))
    }

    #if canImport(StatechartsECMAScript)
    @Test("the data model's values are observable, each told only when it changes")
    func values() async throws {
        let chart = try SCXMLChart.load(
            contentsOf: fixture("kettle-counting.scxml"), dataModels: ECMAScriptDataModel.withBuiltIns)
        let model = try KettleModel(chart: chart, timers: timers)
        let boils = ViewRenders { _ = model.kettle.value(of: "boils") }
        let switches = ViewRenders { _ = model.kettle.value(of: "switches") }
        model.switchOn()
        await Task.yield()
        #expect(model.kettle.value(of: "switches") == .number(1))
        #expect(switches.renders == 2)
        #expect(boils.renders == 1, "switching on does not change the count of boils")
        await clock.advance(by: .milliseconds(200))
        await timers.settle()
        await Task.yield()
        #expect(model.kettle.value(of: "boils") == .number(1))
        #expect(boils.renders == 2)
        #expect(switches.renders == 2)
        #expect(model.kettle.value(of: "no such variable") == nil)
    }
    #endif

    @Test("attached to the inspector: its steps reach the timeline with their timers and events")
    func inspector() async throws {
        let session = IsolatedSCXMLSession(try kettleChart(), timers: timers)
        try session.start()
        let inspector = try await InspectorServer.attach(session, acceptsEvents: true)
        try session.send("switch.on")
        await clock.advance(by: .milliseconds(200))
        await timers.settle()
        var timeline = await inspector.timeline
        for _ in 0..<200 where timeline.last?.snapshot.configuration != ["idle"] || timeline.count < 3 {
            try await Task.sleep(for: .milliseconds(10))
            timeline = await inspector.timeline
        }
        await inspector.stop()

        #expect(timeline.map(\.snapshot.configuration) == [["idle"], ["heating"], ["idle"]])
        #expect(timeline[1].snapshot.timers.map(\.name) == ["boiled"])
        #expect(timeline[1].snapshot.events.sorted() == ["boiled", "switch.off"])
        #expect(timeline[2].entered == ["idle"])
        #expect(timeline.allSatisfy { $0.transitions.isEmpty }, "the session records no microsteps")
    }

    @Test("attached to the inspector, a session that records its microsteps: each step's transitions")
    func inspectorTransitions() async throws {
        let session = IsolatedSCXMLSession(
            try kettleChart(), options: SCXMLSession.Options(recordsMicrosteps: true), timers: timers)
        try session.start()
        let inspector = try await InspectorServer.attach(session)
        try session.send("switch.on")
        await clock.advance(by: .milliseconds(200))
        await timers.settle()
        var timeline = await inspector.timeline
        for _ in 0..<200 where timeline.count < 3 {
            try await Task.sleep(for: .milliseconds(10))
            timeline = await inspector.timeline
        }
        await inspector.stop()

        try #require(timeline.count == 3)
        #expect(
            timeline[1].transitions == [InspectorTransition(source: "idle", event: "switch.on", targets: ["heating"])])
        #expect(timeline[2].transitions == [InspectorTransition(source: "heating", event: "boiled", targets: ["idle"])])
        #expect(timeline[2].exited == ["heating"] && timeline[2].entered == ["idle"])
    }
}

@Suite("A document live as its own actor", .timeLimit(.minutes(1)))
struct SCXMLSessionActorTests {
    @Test("events from any task, the delayed send on a test clock, and the snapshots' stream")
    func actor() async throws {
        let clock = TestClock()
        let timers = TimerWheel(clock: clock)
        let chart = try SCXMLChart.load(contentsOf: fixture("kettle.scxml"))
        let kettle = SCXMLSessionActor(chart, timers: timers)
        let stream = await kettle.snapshots()
        try await kettle.start()
        let step = try await kettle.send("switch.on")
        #expect(step.handled == true)
        #expect(await kettle.isActive("heating"))
        await clock.advance(by: .milliseconds(200))
        await timers.settle()
        #expect(await kettle.activeStates == ["idle"])
        var causes: [SCXMLSessionSnapshot.Cause] = []
        for await snapshot in stream {
            causes.append(snapshot.cause)
            if causes.count == 4 { break }
        }
        #expect(causes == [.now, .start, .event("switch.on"), .timers])
    }
}
#endif
